#include "tests/fuzz/mutator.h"

#include <algorithm>

namespace ibsc::fuzz {
namespace {

// Bytes and numbers that parsers tend to get wrong.
const char kBytes[] = {'\0', '\n', '\r', '\t', ' ', '"', '\'', '[', ']', '(', ')', '{', '}',  ':',    ',',   '-',
                       '#',  '&',  '*',  '!',  '|', '>', '0',  '9', 'x', '=', '.', '/', '\\', '\x7f', '\xff'};
const char* const kNumbers[] = {"0",
                                "1",
                                "-1",
                                "+3",
                                "8junk",
                                "254",
                                "255",
                                "256",
                                "65535",
                                "65536",
                                "0x10000",
                                "2147483648",
                                "4294967296",
                                "18446744073709551616",
                                "99999999999999999999",
                                "1e308",
                                "-0",
                                "007",
                                ""};

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  size_t from = 0;
  while (from < s.size()) {
    size_t nl = s.find('\n', from);
    if (nl == std::string::npos) nl = s.size() - 1;
    out.push_back(s.substr(from, nl + 1 - from));
    from = nl + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l;
  return s;
}

}  // namespace

Mutator::Mutator(uint64_t seed, std::vector<std::string> tokens) : rng_(seed), tokens_(std::move(tokens)) {}

std::string Mutator::next(const std::vector<std::string>& corpus) {
  std::string s = corpus[below(corpus.size())];
  const uint64_t kind = below(100);
  if (kind < 3) return long_name(s);
  if (kind < 5) return deep_nesting(s);
  const uint64_t n = 1 + below(4);
  for (uint64_t i = 0; i < n; ++i) s = mutate_once(std::move(s), corpus);
  return s;
}

std::string Mutator::mutate_once(std::string s, const std::vector<std::string>& corpus) {
  const size_t at = below(s.size() + 1);
  switch (below(10)) {
    case 0:  // flip a bit
      if (!s.empty()) s[at % s.size()] ^= static_cast<char>(1u << below(8));
      break;
    case 1:  // a byte parsers care about, in place or inserted
      if (!s.empty() && below(2)) s[at % s.size()] = kBytes[below(sizeof kBytes)];
      else s.insert(at, 1, kBytes[below(sizeof kBytes)]);
      break;
    case 2:  // a token of the format
      if (!tokens_.empty()) s.insert(at, tokens_[below(tokens_.size())]);
      break;
    case 3:  // delete a run
      s.erase(at, 1 + below(16));
      break;
    case 4: {  // duplicate a run elsewhere
      if (s.empty()) break;
      const size_t from = below(s.size()), len = 1 + below(64);
      s.insert(at, s.substr(from, len));
      break;
    }
    case 5: {  // a number replaced by an edge value
      size_t d = s.find_first_of("0123456789", at);
      if (d == std::string::npos) d = s.find_first_of("0123456789");
      if (d == std::string::npos) break;
      size_t e = d;
      while (e < s.size() && s[e] >= '0' && s[e] <= '9') ++e;
      s.replace(d, e - d, kNumbers[below(sizeof kNumbers / sizeof kNumbers[0])]);
      break;
    }
    case 6: {  // a line doubled or dropped
      std::vector<std::string> l = lines_of(s);
      if (l.empty()) break;
      const size_t i = below(l.size());
      if (below(2)) l.insert(l.begin() + static_cast<long>(i), l[i]);
      else l.erase(l.begin() + static_cast<long>(i));
      s = join(l);
      break;
    }
    case 7: {  // two lines swapped
      std::vector<std::string> l = lines_of(s);
      if (l.size() < 2) break;
      std::swap(l[below(l.size())], l[below(l.size())]);
      s = join(l);
      break;
    }
    case 8: {  // splice: this input's head, another's tail
      const std::string& o = corpus[below(corpus.size())];
      s = s.substr(0, at) + o.substr(below(o.size() + 1));
      break;
    }
    default:  // random bytes
      for (uint64_t k = 1 + below(8); k > 0; --k) s.insert(at, 1, static_cast<char>(below(256)));
      break;
  }
  return s;
}

// A quoted name, a word or a value stretched to 30,000-100,000 characters.
std::string Mutator::long_name(std::string s) {
  const std::string big(30000 + below(70001), static_cast<char>('a' + below(26)));
  size_t q = s.find('"', below(s.size() + 1));
  if (q != std::string::npos) return s.insert(q + 1, big);
  size_t sp = s.find(' ', below(s.size() + 1));
  return s.insert(sp == std::string::npos ? s.size() : sp + 1, big);
}

// Brackets (or indented keys) 10 to 5,000 deep, at a line start.
std::string Mutator::deep_nesting(std::string s) {
  const size_t depth = 10 + below(4991);
  std::string nest;
  if (below(2)) {
    nest = "k: " + std::string(depth, below(2) ? '[' : '{') + "\n";
  } else {
    for (size_t i = 0; i < std::min<size_t>(depth, 400); ++i)
      nest += std::string(i, ' ') + "k" + std::to_string(i) + ":\n";
  }
  size_t nl = s.find('\n', below(s.size() + 1));
  return s.insert(nl == std::string::npos ? s.size() : nl + 1, nest);
}

}  // namespace ibsc::fuzz
