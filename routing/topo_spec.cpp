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

int take_required(const std::string& spec, Parsed& p, const std::string& key, const std::string& why) {
  if (!p.keys.count(key)) bad(spec, p.kind + " needs " + key + "= (" + why + ")");
  return take(spec, p, key, 0);
}

std::vector<int> take_list(const std::string& spec, Parsed& p, const std::string& key) {
  auto it = p.keys.find(key);
  if (it == p.keys.end()) return {};
  std::vector<int> v = int_list(spec, key, it->second, ',');
  p.keys.erase(it);
  return v;
}

void no_more(const std::string& spec, const Parsed& p) {
  if (!p.keys.empty()) bad(spec, "unknown key '" + p.keys.begin()->first + "' for " + p.kind);
}

Topology build(const std::string& spec, int default_hosts);

// product:SPEC*SPEC[:hosts=N]
Topology build_product(const std::string& spec, int default_hosts) {
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

// fattree:k=,n= or fattree:radix=,size=[,levels=][,blocking=]
Topology build_fattree(const std::string& spec, Parsed& p, int default_hosts) {
  auto hosts_or = [&](int def) { return take(spec, p, "hosts", default_hosts >= 0 ? default_hosts : def); };
  if (!p.positional.empty()) bad(spec, "fattree takes k=,n= (k-ary n-tree) or radix=,size= (cluster)");
  if (p.keys.count("radix") || p.keys.count("size")) {
    for (const char* key : {"k", "n"})
      if (p.keys.count(key)) bad(spec, std::string(key) + "= belongs to fattree:k=,n=, not to the radix=,size= form");
    if (p.keys.count("hosts"))
      bad(spec, "hosts= does not apply to fattree:radix=,size=: size= is the total host count");
    if (p.keys.count("ports")) bad(spec, "ports= does not apply to fattree:radix=,size=: radix= is the switch ports");
    const int radix = take_required(spec, p, "radix", "switch ports");
    const int size = take_required(spec, p, "size", "hosts in all");
    const bool has_levels = p.keys.count("levels") > 0;
    const int levels = take(spec, p, "levels", 0), blocking = take(spec, p, "blocking", 1);
    if (has_levels && (levels < 1 || levels > 3))
      bad(spec, "levels=" + std::to_string(levels) +
                    ": the cluster form builds 1, 2 or 3 levels (leave levels= out for the fewest; deeper trees: "
                    "fattree:k=,n= or xgft)");
    const std::vector<int> widths = take_list(spec, p, "widths");
    no_more(spec, p);
    return make_fat_tree_cluster(radix, size, levels, blocking, widths);
  }
  if (!p.keys.count("k") && !p.keys.count("n"))
    bad(spec, "fattree needs k= and n= (k-ary n-tree) or radix= and size= (cluster)");
  const int k = take_required(spec, p, "k", "ports down and up per switch");
  const int n = take_required(spec, p, "n", "levels");
  const std::vector<int> widths = take_list(spec, p, "widths");
  const int hosts = hosts_or(k), ports = take(spec, p, "ports", 0);
  no_more(spec, p);
  return make_kary_ntree(k, n, widths, hosts, ports);
}

// xgft:m=..:w=..
Topology build_xgft(const std::string& spec, Parsed& p, int default_hosts) {
  auto hosts_or = [&](int def) { return take(spec, p, "hosts", default_hosts >= 0 ? default_hosts : def); };
  if (!p.positional.empty()) bad(spec, "xgft takes m=M1,..,MH:w=W1,..,WH");
  if (!p.keys.count("m")) bad(spec, "xgft needs m= (children per node, one value per level)");
  if (!p.keys.count("w")) bad(spec, "xgft needs w= (parents per node, one value per level, w1 = 1)");
  const std::vector<int> m = take_list(spec, p, "m"), w = take_list(spec, p, "w");
  const std::vector<int> widths = take_list(spec, p, "widths");
  const int hosts = hosts_or(m.front()), ports = take(spec, p, "ports", 0);
  no_more(spec, p);
  return make_xgft(m, w, widths, hosts, ports);
}

Topology build(const std::string& spec, int default_hosts) {
  if (spec.rfind("file:", 0) == 0) {
    // The path may hold ':' or ','; only a trailing :hosts=... style key is refused.
    std::string path = spec.substr(5);
    if (path.empty()) bad(spec, "file: needs a path");
    return read_topology_file(path);
  }
  if (spec.rfind("product:", 0) == 0) return build_product(spec, default_hosts);
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
  if (p.kind == "fattree") return build_fattree(spec, p, default_hosts);
  if (p.kind == "xgft") return build_xgft(spec, p, default_hosts);
  bad(spec,
      "unknown kind '" + p.kind +
          "' (torus, mesh, ring, hypercube, irregular, flatfly, dragonfly, slimfly, fattree, xgft, product, file)");
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
