// routing/input_file.h (issue 37): what is refused before reading, and how, by hand.
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "routing/input_file.h"

using namespace ibsc::routing;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::temp_directory_path() / ("ibsc_input_file_" + std::to_string(getpid()));
constexpr InputKind kTen{"test file", 10, "ten bytes are plenty"};

std::string put(const std::string& name, const std::string& text) {
  fs::create_directories(kDir);
  const std::string p = (kDir / name).string();
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string error_of(const std::string& path, const InputKind& kind = kTen) {
  try {
    check_input_file(path, kind);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(special_files_and_sizes) {
  const std::string ok = put("ten", "0123456789"), big = put("eleven", "0123456789X");
  BOOST_TEST(error_of(ok) == "");  // exactly at the limit
  BOOST_TEST(error_of(big) == big +
                                  ": is 11 bytes, above the 10 bytes limit (ten bytes are plenty): is it the right "
                                  "file? (test file)");
  const std::string fifo = (kDir / "fifo").string();
  BOOST_REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);  // no writer: opening it to read would block
  BOOST_TEST(error_of(fifo) == fifo + ": is a named pipe (FIFO), not a regular file (test file)");
  BOOST_TEST(error_of(kDir.string()) == kDir.string() + ": is a directory, not a regular file (test file)");
  BOOST_TEST(error_of("/dev/zero") == "/dev/zero: is a character device, not a regular file (test file)");
  BOOST_TEST(error_of((kDir / "none").string()).find(": cannot open the test file (No such file or directory)") !=
             std::string::npos);
  BOOST_TEST(error_of("") == "empty path given for the test file");
  fs::remove_all(kDir);
}

// A UTF-8 byte-order mark is skipped by both ways of reading; a file without one is untouched.
BOOST_AUTO_TEST_CASE(byte_order_mark_skipped) {
  const std::string bom = put("bom", "\xEF\xBB\xBFline 1\nline 2\n"), plain = put("plain", "\xEF\xBBx\n");
  std::ifstream in = open_input_file(bom, kTopologyFile);
  std::string first;
  std::getline(in, first);
  BOOST_TEST(first == "line 1");
  BOOST_TEST(read_input_file(bom, kScenarioFile) == "line 1\nline 2\n");
  std::ifstream p = open_input_file(plain, kTopologyFile);
  std::getline(p, first);
  BOOST_TEST(first == "\xEF\xBBx");
  BOOST_TEST(read_input_file(plain, kScenarioFile) == "\xEF\xBBx\n");
  fs::remove_all(kDir);
}

BOOST_AUTO_TEST_CASE(printable_text) {
  using namespace std::string_literals;
  BOOST_TEST(printable("a\nb\0c\\d\t\x1b"s) == "a\\nb\\0c\\\\d\\t\\x1b");
  BOOST_TEST(printable("S-0002c903 \"x\" é") == "S-0002c903 \"x\" é");  // UTF-8 kept
  BOOST_TEST(has_control_char("a\nb"));
  BOOST_TEST(has_control_char("a\0b"s));
  BOOST_TEST(!has_control_char("file:../fabrics/a b\\c"));
}

// A forked child's reads reach its parent as text: each file as the child first read it, a path
// of any bytes (spaces, a newline) whole; a path the parent read already keeps the parent's own
// stamp; text that is cut short is refused, not half taken in.
BOOST_AUTO_TEST_CASE(reads_pass_from_child_to_parent) {
  const std::string parents = put("parents", "p"), odd = put("a b\nc", "x");
  read_input_file(parents, kTen);
  const std::vector<std::string> before = input_files_read();
  read_input_file(odd, kTen);
  const std::string lines = input_files_read_since(before);
  const std::string odd_abs = fs::weakly_canonical(odd).string();
  BOOST_TEST(lines.find(odd_abs + "\n") != std::string::npos);
  BOOST_TEST(lines.find("parents") == std::string::npos);
  BOOST_TEST(input_files_read_since(input_files_read()).empty());

  // As a parent that never read the file takes it in: a path alike in all but the name.
  std::string renamed = lines;
  const std::string other = odd_abs.substr(0, odd_abs.size() - 1) + "d";
  renamed.replace(renamed.find(odd_abs), odd_abs.size(), other);
  adopt_input_files_read(renamed);
  const std::vector<std::string> now = input_files_read();
  BOOST_TEST(std::count(now.begin(), now.end(), other) == 1);
  BOOST_TEST(input_file_changed_since_read(other));  // no file there: not as the child read it
  BOOST_TEST(!input_file_changed_since_read(odd_abs));
  adopt_input_files_read("");  // a child that read nothing new

  BOOST_CHECK_THROW(adopt_input_files_read(lines.substr(0, lines.size() - 2)), std::runtime_error);
  BOOST_CHECK_THROW(adopt_input_files_read("1 2 3 4 99 /short\n"), std::runtime_error);
  BOOST_CHECK_THROW(adopt_input_files_read("1 2 3 4 5 /short\n"), std::runtime_error);  // length one short
  BOOST_CHECK_THROW(adopt_input_files_read("not a line\n"), std::runtime_error);
  // A whole first line and a garbled second: neither is taken in.
  BOOST_CHECK_THROW(adopt_input_files_read("1 2 3 4 6 /whole\n1 2 3 4 9 /cut\n"), std::runtime_error);
  BOOST_TEST(input_files_read() == now, boost::test_tools::per_element());
  fs::remove_all(kDir);
}
