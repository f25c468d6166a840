#include "routing/topo_spec.h"

#include <map>
#include <stdexcept>
#include <vector>

#include "routing/generators.h"
#include "routing/input_file.h"
#include "routing/strict_number.h"
#include "routing/topo_import.h"

namespace ibsc::routing {
namespace {

struct Parsed {
  std::string kind, positional;
  std::map<std::string, std::string> keys;
};

[[noreturn]] void bad(const std::string& spec, const std::string& what) {
  throw std::invalid_argument("topology spec '" + spec + "': " + what);
}

// Whole tokens only: "4 ", "+4" and "4junk" are not 4.
int to_int(const std::string& spec, const std::string& key, const std::string& v) {
  uint64_t x = 0;
  if (!parse_unsigned(v, 1000000000, x)) bad(spec, key + " '" + v + "' is not a non-negative integer");
  return static_cast<int>(x);
}

std::vector<int> int_list(const std::string& spec, const std::string& key, const std::string& v, char sep) {
  std::vector<int> out;
  size_t pos = 0;
  while (true) {
    size_t e = v.find(sep, pos);
    out.push_back(to_int(spec, key, v.substr(pos, e == std::string::npos ? std::string::npos : e - pos)));
    if (e == std::string::npos) break;
    pos = e + 1;
  }
  return out;
}

// kind:positional:key=v:key=v,key=v. `widths=2,1,1,1` keeps its commas: a part without '='
// after a key continues that key's list.
Parsed parse(const std::string& spec) {
  Parsed p;
  size_t colon = spec.find(':');
  p.kind = spec.substr(0, colon);
  if (colon == std::string::npos) return p;
  std::string rest = spec.substr(colon + 1);
  std::vector<std::string> parts;
  std::string cur;
  for (char c : rest) {
    if (c == ':' || c == ',') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  std::string last_key;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    size_t eq = part.find('=');
    if (eq != std::string::npos) {
      last_key = part.substr(0, eq);
      if (p.keys.count(last_key)) bad(spec, "'" + last_key + "' given twice");
      p.keys[last_key] = part.substr(eq + 1);
    } else if (i == 0) {
      p.positional = part;
    } else if (!last_key.empty() && !part.empty()) {
      p.keys[last_key] += "," + part;
    } else {
      bad(spec, "'" + part + "' is not key=value");
    }
  }
  return p;
}

int take(const std::string& spec, Parsed& p, const std::string& key, int def) {
  auto it = p.keys.find(key);
  if (it == p.keys.end()) return def;
  int v = to_int(spec, key, it->second);
  p.keys.erase(it);
  return v;
}

void no_more(const std::string& spec, const Parsed& p) {
  if (!p.keys.empty()) bad(spec, "unknown key '" + p.keys.begin()->first + "' for " + p.kind);
}

Topology build(const std::string& spec, int default_hosts) {
  if (spec.rfind("file:", 0) == 0) {
    // The path may hold ':' or ','; only a trailing :hosts=... style key is refused.
    std::string path = spec.substr(5);
    if (path.empty()) bad(spec, "file: needs a path");
    return read_topology_file(path);
  }
  if (spec.rfind("product:", 0) == 0) {
    std::string rest = spec.substr(8);
    size_t star = rest.find('*');
    if (star == std::string::npos) bad(spec, "product needs SPEC*SPEC");
    std::string b = rest.substr(star + 1);
    int hosts = default_hosts < 0 ? 1 : default_hosts;
    size_t h = b.rfind(":hosts=");
    if (h != std::string::npos) {
      hosts = to_int(spec, "hosts", b.substr(h + 7));
      b = b.substr(0, h);
    }
    return make_product(build(rest.substr(0, star), 0), build(b, 0), hosts);
  }
  Parsed p = parse(spec);
  auto hosts_or = [&](int def) { return take(spec, p, "hosts", default_hosts >= 0 ? default_hosts : def); };
  if (p.kind == "torus" || p.kind == "mesh" || p.kind == "ring") {
    if (p.positional.empty()) bad(spec, p.kind + " needs sizes, e.g. " + p.kind + ":4x4");
    std::vector<int> dims = int_list(spec, "size", p.positional, 'x');
    if (p.kind == "ring" && dims.size() != 1) bad(spec, "ring takes one size");
    std::vector<int> widths;
    if (p.keys.count("widths")) {
      widths = int_list(spec, "widths", p.keys["widths"], ',');
      p.keys.erase("widths");
    }
    int hosts = hosts_or(4), ports = take(spec, p, "ports", 0);
    no_more(spec, p);
    return make_torus_widths(dims, widths, hosts, p.kind != "mesh", ports);
  }
  if (p.kind == "hypercube") {
    int n = to_int(spec, "dimension", p.positional);
    std::vector<int> widths;
    if (p.keys.count("widths")) {
      widths = int_list(spec, "widths", p.keys["widths"], ',');
      p.keys.erase("widths");
    }
    int hosts = hosts_or(4), ports = take(spec, p, "ports", 0);
    no_more(spec, p);
    return make_hypercube(n, hosts, ports, widths);
  }
  if (p.kind == "irregular") {
    int n = to_int(spec, "switches", p.positional);
    int hosts = hosts_or(4), ports = take(spec, p, "ports", 8), seed = take(spec, p, "seed", 1);
    int regular = take(spec, p, "regular", 0);
    if (regular != 0 && regular != 1) bad(spec, "regular must be 0 or 1");
    no_more(spec, p);
    return make_irregular(n, ports, hosts, static_cast<uint64_t>(seed), regular == 1);
  }
  if (p.kind == "flatfly" || p.kind == "hyperx") {
    std::vector<int> dims = int_list(spec, "size", p.positional, 'x');
    std::vector<int> widths;
    if (p.keys.count("widths")) {
      widths = int_list(spec, "widths", p.keys["widths"], ',');
      p.keys.erase("widths");
    }
    int hosts = hosts_or(8), ports = take(spec, p, "ports", 0);
    no_more(spec, p);
    return make_flatfly(dims, widths, hosts, ports);
  }
  if (p.kind == "dragonfly") {
    if (!p.positional.empty()) bad(spec, "dragonfly takes a=,h=,p= (and g=)");
    int a = take(spec, p, "a", 4), h = take(spec, p, "h", 2);
    int hosts = take(spec, p, "p", default_hosts >= 0 ? default_hosts : h);
    hosts = take(spec, p, "hosts", hosts);
    int g = take(spec, p, "g", 0);
    no_more(spec, p);
    return make_dragonfly(a, h, hosts, g);
  }
  if (p.kind == "slimfly") {
    if (!p.positional.empty()) bad(spec, "slimfly takes q=");
    int q = take(spec, p, "q", 5);
    int degree = (3 * q - (q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0)) / 2;
    int lanes = take(spec, p, "L", 1);
    int hosts = hosts_or((degree + 1) / 2);
    no_more(spec, p);
    return make_slimfly(q, hosts, lanes);
  }
  bad(spec, "unknown kind '" + p.kind +
                "' (torus, mesh, ring, hypercube, irregular, flatfly, dragonfly, slimfly, product, file)");
}

}  // namespace

Topology build_topology_spec(const std::string& spec) {
  if (spec.empty()) throw std::invalid_argument("topology spec is empty");
  // A newline would split the message that echoes the spec, a NUL would cut it.
  if (has_control_char(spec))
    throw std::invalid_argument("topology spec '" + printable(spec) + "' contains a control character");
  return build(spec, -1);
}

}  // namespace ibsc::routing
