// The arbiter registry (api/include/ibsc/arbiter_registry.h), compiled into ibsc_arbiter with
// the arbiters it knows. IBSC's own arbiters are entries like any user's, put in when the
// registry is first used, so a user's static registrar (whose construction order against ours
// is unspecified) always finds them there.
#include "ibsc/arbiter_registry.h"

#include <map>
#include <stdexcept>

#include "models/adaptive_arbiter.h"
#include "models/verilated_arbiter.h"

namespace ibsc {
namespace {

std::map<std::string, ArbiterMaker>& registry() {
  static std::map<std::string, ArbiterMaker> r = [] {
    std::map<std::string, ArbiterMaker> m;
    m["model"] = [](int ports, int vls) { return std::make_unique<models::AdaptiveArbiter>(ports, vls); };
    m["rtl"] = [](int ports, int vls) { return std::make_unique<models::VerilatedArbiter>(ports, vls); };
    return m;
  }();
  return r;
}

std::string names() {
  std::string s;
  for (const auto& [name, make] : registry()) s += (s.empty() ? "" : ", ") + name;
  return s;
}

}  // namespace

void register_arbiter(const std::string& name, ArbiterMaker make) {
  if (name.empty()) throw std::invalid_argument("register_arbiter: empty name");
  if (!make) throw std::invalid_argument("register_arbiter '" + name + "': empty maker");
  if (!registry().emplace(name, std::move(make)).second)
    throw std::invalid_argument("register_arbiter '" + name + "': already registered (registered: " + names() + ")");
}

bool arbiter_registered(const std::string& name) { return registry().count(name) != 0; }

std::vector<std::string> registered_arbiters() {
  std::vector<std::string> v;
  for (const auto& [name, make] : registry()) v.push_back(name);
  return v;
}

std::unique_ptr<SwitchArbiter> make_arbiter(const std::string& name, int num_ports, int num_vls) {
  const auto it = registry().find(name);
  if (it == registry().end())
    throw std::invalid_argument("unknown arbiter '" + name + "' (registered: " + names() + ")");
  std::unique_ptr<SwitchArbiter> a = it->second(num_ports, num_vls);
  if (!a) throw std::invalid_argument("arbiter '" + name + "': its maker returned no arbiter");
  return a;
}

}  // namespace ibsc
