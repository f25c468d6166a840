// Switch arbiters by name. A scenario's `switch.arbiter: NAME` picks any registered arbiter;
// IBSC registers `model` (the C++ reference, the default) and `rtl` (the Verilated
// rtl/switch_arbiter.sv). A user registers an own arbiter from an own file, before the scenario
// is read, either with a static registrar object:
//
//   static ibsc::ArbiterRegistrar oldest_first("oldest-first", [](int ports, int vls) {
//     return std::make_unique<OldestFirst>(ports, vls);
//   });
//
// or by calling ibsc::register_arbiter("oldest-first", maker) at the top of main(). A name the
// registry does not hold is refused when the scenario is read, with the registered names listed.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ibsc/switch_arbiter.h"

namespace ibsc {

// Makes one switch's arbiter: num_ports ports (the switch's, 1..255), num_vls VLs (1..15,
// switch.num_vls). Called once per switch while the fabric is built.
using ArbiterMaker = std::function<std::unique_ptr<SwitchArbiter>(int num_ports, int num_vls)>;

// Throws std::invalid_argument for an empty name, an empty maker or a name already registered
// (`model` and `rtl` included): a second registration would silently replace the first.
void register_arbiter(const std::string& name, ArbiterMaker make);
bool arbiter_registered(const std::string& name);
std::vector<std::string> registered_arbiters();  // sorted by name
// Throws std::invalid_argument naming the registered arbiters when `name` is not one of them.
std::unique_ptr<SwitchArbiter> make_arbiter(const std::string& name, int num_ports, int num_vls);

// Registers at static initialisation (a namespace-scope object in the user's file).
struct ArbiterRegistrar {
  ArbiterRegistrar(const std::string& name, ArbiterMaker make) { register_arbiter(name, std::move(make)); }
};

}  // namespace ibsc
