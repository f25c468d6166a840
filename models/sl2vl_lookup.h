// SL2VL look-up of a switch: the output VL of a packet from its input port, its output port and
// its SL (or, with a VL2VL table, its input VL), as the subnet manager programmed it.
//
// Inputs:     (input port, output port, key), the key read from the packet by key().
// Output:     the output VL, one load: the table is flattened to [in port][out port][SL or VL].
// Parameters: the switch's routing::Sl2VlTable; its key (SL or input VL) comes from the table.
// Events:     none; a combinational look-up.
// Sharing:    switches whose tables are equal (all of them, for most routings) share one copy,
//             which then stays in the cache. A process-wide registry holds the copies weakly and
//             forgets those whose last switch is gone, so a process that builds fabric after
//             fabric keeps only the tables in use.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "models/packet.h"
#include "routing/tables.h"

namespace ibsc::models {

class Sl2VlLookup {
 public:
  Sl2VlLookup() = default;
  explicit Sl2VlLookup(const routing::Sl2VlTable& table) { configure(table); }
  void configure(const routing::Sl2VlTable& table);

  Vl operator()(int in_port, int out_port, uint8_t key) const {
    return data_[(static_cast<size_t>(in_port) * ports_ + out_port) * kNumSls + key];
  }
  // What selects the output VL: the SL, or the input VL with a VL2VL table.
  bool keyed_by_input_vl() const { return vl2vl_; }
  uint8_t key(const Packet& p) const { return static_cast<uint8_t>(vl2vl_ ? p.vl : p.sl); }

  // The flattened table this look-up reads (equal tables: the same storage).
  const Vl* data() const { return data_; }
  // Tables in the registry that some look-up still uses, for tests.
  static size_t shared_tables();

 private:
  const Vl* data_ = nullptr;
  uint32_t ports_ = 0;  // ports + 1 (port 0 included)
  bool vl2vl_ = false;
  std::shared_ptr<const std::vector<Vl>> table_;  // owns data_, shared with equal tables
};

}  // namespace ibsc::models
