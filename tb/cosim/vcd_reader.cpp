#include "tb/cosim/vcd_reader.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ibsc::tb {
namespace {

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": " + what);
}

}  // namespace

VcdReader VcdReader::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open VCD file");
  VcdReader r;
  std::vector<std::string> scope;
  bool in_defs = true;
  uint64_t now = 0;
  int line_no = 0;
  std::string line;
  // Header: keywords may span lines, so the header is read token by token.
  std::string pending_kw;
  std::vector<std::string> kw_tokens;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream ls(line);
    std::string tok;
    while (ls >> tok) {
      if (in_defs) {
        if (pending_kw.empty()) {
          if (tok.empty() || tok[0] != '$') fail(path, line_no, "expected a $keyword, got '" + tok + "'");
          pending_kw = tok;
          kw_tokens.clear();
          continue;
        }
        if (tok != "$end") {
          kw_tokens.push_back(tok);
          continue;
        }
        if (pending_kw == "$timescale") {
          for (const auto& t : kw_tokens) r.timescale_ += t;
        } else if (pending_kw == "$scope") {
          if (kw_tokens.size() < 2) fail(path, line_no, "malformed $scope");
          scope.push_back(kw_tokens[1]);
        } else if (pending_kw == "$upscope") {
          if (scope.empty()) fail(path, line_no, "$upscope without $scope");
          scope.pop_back();
        } else if (pending_kw == "$var") {
          // $var type width id name [range] $end
          if (kw_tokens.size() < 4) fail(path, line_no, "malformed $var");
          std::string full;
          for (const auto& s : scope) full += s + ".";
          full += kw_tokens[3];
          Var v;
          v.id = kw_tokens[2];
          v.width = std::stoi(kw_tokens[1]);
          r.vars_[full] = v;
          r.waves_[v.id];
        } else if (pending_kw == "$enddefinitions") {
          in_defs = false;
        }
        pending_kw.clear();
        continue;
      }
      // Value changes.
      const char c = tok[0];
      if (c == '#') {
        now = std::stoull(tok.substr(1));
        r.last_time_ = now;
      } else if (c == 'b' || c == 'B' || c == 'r' || c == 'R') {
        std::string id;
        if (!(ls >> id)) fail(path, line_no, "vector change without identifier");
        auto w = r.waves_.find(id);
        if (w == r.waves_.end()) fail(path, line_no, "unknown identifier '" + id + "'");
        w->second.emplace_back(now, tok.substr(1));
      } else if (c == '0' || c == '1' || c == 'x' || c == 'X' || c == 'z' || c == 'Z') {
        auto w = r.waves_.find(tok.substr(1));
        if (w == r.waves_.end()) fail(path, line_no, "unknown identifier '" + tok.substr(1) + "'");
        w->second.emplace_back(now, std::string(1, c));
      } else if (c == '$') {
        // $dumpvars, $dumpall, $end...: the values inside are ordinary changes.
      } else {
        fail(path, line_no, "unexpected token '" + tok + "'");
      }
    }
  }
  if (in_defs) fail(path, line_no, "no $enddefinitions");
  return r;
}

std::vector<std::string> VcdReader::signals() const {
  std::vector<std::string> s;
  for (const auto& [name, v] : vars_) s.push_back(name);
  return s;
}

std::string VcdReader::find(const std::string& suffix) const {
  std::string hit;
  for (const auto& [name, v] : vars_) {
    const bool match = name == suffix || (name.size() > suffix.size() &&
                                          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
                                          name[name.size() - suffix.size() - 1] == '.');
    if (!match) continue;
    if (!hit.empty()) return {};
    hit = name;
  }
  return hit;
}

int VcdReader::width(const std::string& name) const {
  auto it = vars_.find(name);
  if (it == vars_.end()) throw std::out_of_range("VCD: no signal " + name);
  return it->second.width;
}

const std::vector<VcdReader::Change>& VcdReader::changes(const std::string& name) const {
  auto it = vars_.find(name);
  if (it == vars_.end()) throw std::out_of_range("VCD: no signal " + name);
  return waves_.at(it->second.id);
}

std::optional<std::string> VcdReader::value_at(const std::string& name, uint64_t t) const {
  const auto& ch = changes(name);
  // Last change with time <= t.
  size_t lo = 0, hi = ch.size();
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ch[mid].first <= t) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return std::nullopt;
  return ch[lo - 1].second;
}

std::optional<uint64_t> VcdReader::uint_at(const std::string& name, uint64_t t) const {
  auto v = value_at(name, t);
  if (!v) return std::nullopt;
  // VCD drops leading zeros, so only significant bits count against the 64-bit limit.
  uint64_t x = 0;
  size_t first = v->find_first_not_of('0');
  if (first != std::string::npos && v->size() - first > 64) return std::nullopt;
  for (char c : *v) {
    if (c != '0' && c != '1') return std::nullopt;
    x = (x << 1) | static_cast<uint64_t>(c == '1');
  }
  return x;
}

}  // namespace ibsc::tb
