// Scenario reading: every error names FILE:LINE (or "--set KEY") and the dotted key: unknown
// keys, wrong types, out-of-range values, bad overrides, YAML syntax; resolved values come out
// in reading order with defaults included.
#include <boost/test/unit_test.hpp>

#include "tb/scenario/config_reader.h"
#include "tb/scenario/param_key.h"
#include "tb_test_util.h"
#include "tests/support/error_of.h"

using namespace ibsc;
using ibsc::testing::error_of;

namespace {

// Reads a small scenario the way tb/scenario/scenario.cpp does; returns the error text, "" if none.
std::string config_error(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  try {
    auto r = tb::ConfigReader::from_string(yaml, "s.yaml");
    for (const auto& s : sets) r.apply_override(s);
    r.get<std::string>("name", "x");
    r.get<uint64_t>("seed", 1);
    r.get_int("switch.num_vls", 2, 1, 15);
    r.get<bool>("switch.vl2vl", false);
    r.get_double("link.lane_gbps", 2.5, 0.001, 1000);
    r.get_choice("traffic.pattern", "uniform", {"uniform", "transpose"});
    r.get<std::vector<double>>("sweep.loads", {});
    r.get<std::vector<std::string>>("tags", {});
    r.check_all_consumed();
  } catch (const tb::ConfigError& e) {
    return e.what();
  }
  return "";
}
bool starts(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

BOOST_AUTO_TEST_SUITE(config)

BOOST_AUTO_TEST_CASE(good_scenarios_read_cleanly) {
  BOOST_TEST(config_error("name: a\nseed: 3\nswitch:\n  num_vls: 2\n  vl2vl: true\nsweep:\n  loads: [0.1, 0.2]\n") ==
             "");
  BOOST_TEST(config_error("tags:\n  - a\n  - b\ntraffic:\n  pattern: transpose\n") == "");
  BOOST_TEST(config_error("switch:\n", {"switch.num_vls=4", "sweep.loads=[0.5]"}) == "");
  BOOST_TEST(config_error("name: a\nswitch:\n") == "");  // an empty section is harmless
}

BOOST_AUTO_TEST_CASE(unknown_keys_name_file_line_and_key) {
  BOOST_TEST(config_error("name: a\nswitch:\n  num_vlz: 2\n") ==
             "s.yaml:3: key 'switch.num_vlz': unknown key (a typo? `ibsc keys` lists them all)");
  BOOST_TEST(starts(config_error("name: a\n\nswtich:\n  num_vls: 2\n"), "s.yaml:4: key 'swtich.num_vls': unknown key"));
  BOOST_TEST(starts(config_error("name: a\nextra:\n"), "s.yaml:2: key 'extra': unknown key"));
  BOOST_TEST(starts(config_error("name: a\nlist:\n  - 1\n  - 2\n"), "s.yaml:2: key 'list': unknown key"));
  BOOST_TEST(starts(config_error("name: a\nswitch:\n  num_vls: 2\n  num_vls: 3\n"),
                    "s.yaml:4: key 'switch.num_vls': given twice"));
}

BOOST_AUTO_TEST_CASE(wrong_types_name_what_was_expected) {
  BOOST_TEST(config_error("switch:\n  num_vls: two\n") ==
             "s.yaml:2: key 'switch.num_vls': expected an integer, found 'two'");
  BOOST_TEST(starts(config_error("switch:\n  num_vls: 2.5\n"), "s.yaml:2: key 'switch.num_vls': expected an integer"));
  BOOST_TEST(starts(config_error("switch:\n  vl2vl: maybe\n"), "s.yaml:2: key 'switch.vl2vl': expected true or false"));
  BOOST_TEST(starts(config_error("seed: -4\n"), "s.yaml:1: key 'seed': expected a non-negative integer"));
  BOOST_TEST(starts(config_error("name:\n  first: a\n"), "s.yaml:1: key 'name': expected a string, found a section"));
  BOOST_TEST(starts(config_error("link:\n  lane_gbps: [1]\n"),
                    "s.yaml:2: key 'link.lane_gbps': expected a number, found a list"));
  BOOST_TEST(starts(config_error("sweep:\n  loads: 0.5\n"), "s.yaml:2: key 'sweep.loads': expected a list of numbers"));
  BOOST_TEST(
      starts(config_error("sweep:\n  loads: [0.1, x]\n"), "s.yaml:2: key 'sweep.loads': expected a list of numbers"));
  BOOST_TEST(starts(config_error("switch: 4\n"), "s.yaml:1: key 'switch': expected a section of keys"));
}

BOOST_AUTO_TEST_CASE(out_of_range_and_bad_choices) {
  BOOST_TEST(config_error("switch:\n  num_vls: 16\n") ==
             "s.yaml:2: key 'switch.num_vls': value 16 out of range [1, 15]");
  BOOST_TEST(config_error("link:\n  lane_gbps: 2e6\n") ==
             "s.yaml:2: key 'link.lane_gbps': value 2e+06 out of range [0.001, 1000]");
  BOOST_TEST(
      starts(config_error("link:\n  lane_gbps: .nan\n"), "s.yaml:2: key 'link.lane_gbps': value nan out of range"));
  BOOST_TEST(config_error("traffic:\n  pattern: unifrom\n") ==
             "s.yaml:2: key 'traffic.pattern': 'unifrom' is not one of: uniform, transpose");
}

BOOST_AUTO_TEST_CASE(overrides_are_named_as_such) {
  BOOST_TEST(config_error("name: a\n", {"switch.num_vls=20"}) ==
             "--set switch.num_vls: key 'switch.num_vls': value 20 out of range [1, 15]");
  BOOST_TEST(
      starts(config_error("name: a\n", {"switch.numvls=2"}), "--set switch.numvls: key 'switch.numvls': unknown key"));
  BOOST_TEST(starts(config_error("switch:\n  num_vls: 2\n", {"switch.num_vls=x"}),
                    "--set switch.num_vls: key 'switch.num_vls': expected an integer"));
  BOOST_TEST(starts(config_error("name: a\n", {"switch={num_vls: 0}"}),
                    "--set switch: key 'switch.num_vls': value 0 out of range"));
  BOOST_TEST(config_error("name: a\n", {"switch.num_vls"}) == "--set switch.num_vls: expected key.path=value");
  BOOST_TEST(config_error("name: a\n", {"=3"}) == "--set =3: expected key.path=value");
  BOOST_TEST(config_error("name: a\n", {"switch.num_vls="}) ==
             "--set switch.num_vls: key 'switch.num_vls': no value after '='");
  BOOST_TEST(starts(config_error("name: a\n", {"sweep.loads=[0.1,"}),
                    "--set sweep.loads: key 'sweep.loads': cannot parse value '[0.1,'"));
  BOOST_TEST(config_error("name: a\n", {"name.first=b"}) ==
             "--set name.first: key 'name.first': 'name' holds a value, not a section of keys");
  BOOST_TEST(config_error("name: a\n", {"switch..num_vls=2"}) ==
             "--set switch..num_vls: key 'switch..num_vls': empty name between dots");
  // An override replaces the file's value; a file line is still named for keys it left alone.
  BOOST_TEST(starts(config_error("switch:\n  num_vls: 2\n  vl2vl: 3\n", {"switch.num_vls=4"}),
                    "s.yaml:3: key 'switch.vl2vl'"));
}

BOOST_AUTO_TEST_CASE(files_and_syntax_errors) {
  const std::string bad = tb::test::write_file("bad.yaml", "name: a\nsweep:\n  loads: [0.1, 0.2\n");
  try {
    tb::ConfigReader::from_file(bad);
    BOOST_FAIL("syntax error accepted");
  } catch (const tb::ConfigError& e) {
    BOOST_TEST(starts(e.what(), bad + ":"), e.what());
    BOOST_TEST(std::string(e.what()).find("YAML syntax error") != std::string::npos);
  }
  BOOST_CHECK_THROW(tb::ConfigReader::from_file("/nonexistent/s.yaml"), tb::ConfigError);
  BOOST_CHECK_THROW(tb::ConfigReader::from_file("/tmp"), tb::ConfigError);
  BOOST_CHECK_THROW(tb::ConfigReader::from_string("- a\n- b\n", "list.yaml"), tb::ConfigError);
  const std::string good = tb::test::write_file("good.yaml", "name: a\nswitch:\n  num_vls: 40\n");
  auto r = tb::ConfigReader::from_file(good);
  try {
    r.get_int("switch.num_vls", 2, 1, 15);
    BOOST_FAIL("range error missed");
  } catch (const tb::ConfigError& e) {
    BOOST_TEST(starts(e.what(), good + ":3: key 'switch.num_vls'"), e.what());
  }
}

// Issue 19: YAML the reader would take silently or explode on. Each is refused at its line,
// before anything is walked: the alias chain below would expand to 10^9 nodes.
BOOST_AUTO_TEST_CASE(hostile_yaml_is_refused_at_its_line) {
  std::string laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i) {
    laughs += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) laughs += std::string(k ? ", " : "") + "*a" + std::to_string(i - 1);
    laughs += "]\n";
  }
  BOOST_TEST(config_error(laughs) ==
             "s.yaml:1: YAML anchor '&a0': anchors and aliases are not accepted; write the value out");
  BOOST_TEST(starts(config_error("name: a\nseed: *x\n"), "s.yaml:2: YAML"));  // an unknown alias is refused too
  BOOST_TEST(config_error("name: a\nseed: !!str 3\n") ==
             "s.yaml:2: YAML tag 'tag:yaml.org,2002:str' is not accepted: values are plain numbers, strings, lists and "
             "sections");
  BOOST_TEST(starts(config_error("name: a\nswitch: !foo\n  num_vls: 2\n"), "s.yaml:2: YAML tag '!foo'"));
  BOOST_TEST(config_error("name: a\n---\nname: b\n") ==
             "s.yaml:2: a second YAML document ('---' or '...' then more): a scenario is one document");
  BOOST_TEST(starts(config_error("name: a\n...\nname: b\n"), "s.yaml:3: a second YAML document"));
  BOOST_TEST(config_error("---\nname: a\n...\n") == "");  // one document, with its markers
  const std::string empty =
      "s.yaml:1: the scenario sets no key (empty or only comments); it would run the default "
      "experiment, so give at least its name";
  for (const char* text : {"", "# only a comment\n\n", "---\n", "{}\n", "~\n"}) BOOST_TEST(config_error(text) == empty);
  BOOST_TEST(starts(config_error(std::string(40, '[') + std::string(40, ']')), "s.yaml:1: nested deeper than 32"));
  BOOST_TEST(config_error("name: a\n", {"sweep.loads=&l [0.1]"}) ==
             "--set sweep.loads: key 'sweep.loads': YAML anchor '&l': anchors and aliases are not accepted; write the "
             "value out");
  BOOST_TEST(config_error("name: a\n", {"seed=!!int 3"}).find("YAML tag") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(resolved_values_include_defaults_in_reading_order) {
  auto r = tb::ConfigReader::from_string("seed: 9\nswitch:\n  num_vls: 4\n", "s.yaml");
  r.apply_override("link.width=4");
  r.get<std::string>("name", "unnamed");
  r.get<uint64_t>("seed", 1);
  r.get_int("switch.num_vls", 2, 1, 15);
  r.get<bool>("switch.vl2vl", false);
  r.get_int("link.width", 1, 1, 12);
  r.get<std::vector<int>>("switch.rtl_switches", {});
  BOOST_TEST(
      r.resolved().dump() ==
      R"({"name":"unnamed","seed":9,"switch":{"num_vls":4,"vl2vl":false,"rtl_switches":[]},"link":{"width":4}})");
  BOOST_TEST(r.has("seed"));
  BOOST_TEST(!r.has("name"));
  BOOST_TEST(r.where("switch.num_vls") == "s.yaml:3");
  BOOST_TEST(r.where("link.width") == "--set link.width");
  BOOST_TEST(r.where("absent.key") == "s.yaml");
  BOOST_CHECK_NO_THROW(r.check_all_consumed());
}

// "routing: NAME" is short for "routing: {algorithm: NAME}"; errors keep the line it is on.
BOOST_AUTO_TEST_CASE(routing_shorthand) {
  auto r = tb::ConfigReader::from_string("name: a\nrouting: flexible\n", "s.yaml");
  BOOST_TEST(r.get<std::string>("routing.algorithm", "ecube") == "flexible");
  BOOST_TEST(r.where("routing.algorithm") == "s.yaml:2");
  auto bad = tb::ConfigReader::from_string("name: a\nrouting: nope\n", "s.yaml");
  std::string msg;
  try {
    bad.get_choice("routing.algorithm", "ecube", {"ecube", "flexible"});
  } catch (const tb::ConfigError& e) {
    msg = e.what();
  }
  BOOST_TEST(starts(msg, "s.yaml:2: key 'routing.algorithm'"), msg);
}

BOOST_AUTO_TEST_SUITE_END()

// Declared keys (tb/scenario/param_key.h): the declaration gives type, default and range; reading an
// undeclared key or reading one as another type is a programming error; WhenSet keys are
// echoed only when set; validate() errors are placed at their key without parsing the text.
BOOST_AUTO_TEST_SUITE(declared_keys)

namespace {
enum class Mode { Slow, Fast, Unnamed };
constexpr ibsc::EnumName<Mode> kModeNames[] = {
    {Mode::Slow, "slow"},
    {Mode::Fast, "fast"},
};
constexpr const auto& enum_names(Mode) { return kModeNames; }

const std::vector<tb::Key>& table() {
  static const std::vector<tb::Key> keys = {
      tb::int_key("a.count", 3, 1, 9, "", "a count"),
      tb::real_key("a.delay_ns", 2.5, 0, 10, "ns", "a delay"),
      tb::choice_key("a.mode", Mode::Slow, "a mode"),
      tb::flag_key("a.extra", false, "read only when set").when_set(),
      tb::int_key("b.jobs", 0, 0, 8, "", "not part of the experiment").never_echoed(),
  };
  return keys;
}
}  // namespace

BOOST_AUTO_TEST_CASE(reads_through_the_declaration) {
  auto cfg = tb::ConfigReader::from_string("a:\n  count: 5\n  mode: fast\nb:\n  jobs: 2\n", "s.yaml");
  tb::KeyReader r(cfg, table());
  BOOST_TEST(r.get<int>("a.count") == 5);
  BOOST_TEST(r.get<double>("a.delay_ns") == 2.5);  // the declared default
  BOOST_TEST((r.get<Mode>("a.mode") == Mode::Fast));
  BOOST_TEST(r.get<bool>("a.extra") == false);  // absent WhenSet: the default, not echoed
  BOOST_TEST(r.get<int>("b.jobs") == 2);
  BOOST_CHECK_NO_THROW(cfg.check_all_consumed());
  BOOST_TEST(r.echoed().dump() == R"({"a":{"count":5,"delay_ns":2.5,"mode":"fast"},"b":{}})");
}

BOOST_AUTO_TEST_CASE(range_and_choices_come_from_the_declaration) {
  auto cfg = tb::ConfigReader::from_string("a:\n  count: 10\n  mode: medium\n  extra: true\n", "s.yaml");
  tb::KeyReader r(cfg, table());
  BOOST_TEST(error_of([&] { r.get<int>("a.count"); }) == "s.yaml:2: key 'a.count': value 10 out of range [1, 9]");
  BOOST_TEST(error_of([&] { r.get<std::string>("a.mode"); }) ==
             "s.yaml:3: key 'a.mode': 'medium' is not one of: slow, fast");
  BOOST_TEST(r.get<bool>("a.extra") == true);  // set: read, and echoed
  BOOST_TEST(cfg.resolved()["a"]["extra"] == true);
}

// An enum's one name table gives the key its choices and default, and names values both ways.
BOOST_AUTO_TEST_CASE(enum_choices_come_from_its_name_table) {
  const tb::Key& k = table()[2];
  BOOST_TEST((k.choices == std::vector<std::string>{"slow", "fast"}));
  BOOST_TEST(k.def == "slow");
  BOOST_TEST(ibsc::enum_name(Mode::Fast) == "fast");
  BOOST_TEST((ibsc::parse_enum<Mode>("slow") == Mode::Slow));
  BOOST_TEST(!ibsc::parse_enum<Mode>("Slow").has_value());
  BOOST_TEST(error_of([] { ibsc::enum_value<Mode>("medium"); }) == "'medium' is not one of: slow, fast");
  BOOST_CHECK_THROW(ibsc::enum_name(Mode::Unnamed), std::logic_error);  // a row forgotten
}

BOOST_AUTO_TEST_CASE(undeclared_or_mistyped_reads_are_programming_errors) {
  auto cfg = tb::ConfigReader::from_string("a:\n  count: 5\n", "s.yaml");
  tb::KeyReader r(cfg, table());
  BOOST_CHECK_THROW(r.get<int>("a.counts"), std::logic_error);
  BOOST_CHECK_THROW(r.has("a.counts"), std::logic_error);
  BOOST_CHECK_THROW(r.get<double>("a.count"), std::logic_error);
  BOOST_CHECK_THROW(r.get<bool>("a.mode"), std::logic_error);
  BOOST_CHECK_THROW(r.get<Mode>("a.count"), std::logic_error);
  std::vector<tb::Key> twice = table();
  twice.push_back(table().front());
  BOOST_CHECK_THROW(tb::KeyReader(cfg, twice), std::logic_error);
}

BOOST_AUTO_TEST_CASE(param_errors_are_placed_at_their_key) {
  auto cfg = tb::ConfigReader::from_string("name: x\na:\n  count: 5\n", "s.yaml");
  cfg.apply_override("a.delay_ns=4");
  tb::KeyReader r(cfg, table());
  auto raise = [&](const std::string& key, const std::string& fallback) {
    return error_of([&] { r.checked(fallback, [&] { throw ParamError(key, "the message"); }); });
  };
  BOOST_TEST(raise("a.count", "a") == "s.yaml:3: the message");
  BOOST_TEST(raise("a.delay_ns", "a") == "--set a.delay_ns: the message");
  BOOST_TEST(raise("a.mode", "a") == "s.yaml:2: the message");  // absent: its section's line
  BOOST_TEST(raise("c.other", "a") == "s.yaml: the message");   // nothing of it set: the file
  // A parser that knows no keys: placed at the fallback key, which is named.
  BOOST_TEST(error_of([&] { r.checked("a.count", [] { throw std::invalid_argument("bad spec"); }); }) ==
             "s.yaml:3: key 'a.count': bad spec");
}

BOOST_AUTO_TEST_SUITE_END()
