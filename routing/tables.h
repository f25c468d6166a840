// The table set: what a subnet manager programs into the fabric, and the one output of every
// routing algorithm. Checks, metrics, export and the simulator read only this.
//   per switch: LFT (DLID -> candidate output ports, optionally one copy per input VL) and
//               SL2VL ((input port, output port, SL) -> VL) or its VL2VL variant (keyed by input VL);
//   per host:   LID range (base LID, LMC), SL2VL of its port, and path records
//               (destination host -> list of {DLID, SL}; first primary, rest alternates).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "routing/lft.h"
#include "routing/path_row.h"
#include "routing/types.h"
#include "routing/vl_lft.h"

namespace ibsc::routing {

// SL2VL (key = SL) or VL2VL (key = input VL) per (input port, output port).
// Input port 0 stands for traffic the switch itself originates (unused by data traffic).
// Copies share one store until one of them is written (copy on write): most switches of a
// fabric hold the same table, and share_identical_sl2vl (below) makes them share it, which at
// 32,768 hosts saves 85-170 MB (ports^2 x 16 bytes per switch).
class Sl2VlTable {
 public:
  enum class Key { Sl, InputVl };
  Sl2VlTable() = default;
  Sl2VlTable(int num_ports, Key key = Key::Sl) { reset(num_ports, key); }
  // Copies and moves alike share the store (no moved-from table without one).
  Sl2VlTable(const Sl2VlTable&) = default;
  Sl2VlTable& operator=(const Sl2VlTable&) = default;
  void reset(int num_ports, Key key = Key::Sl) {
    ports_ = num_ports + 1;
    key_ = key;
    adopt(std::make_shared<std::vector<Vl>>(static_cast<size_t>(ports_) * ports_ * kNumSls, 0));
  }
  Key key() const { return key_; }
  int num_ports() const { return ports_ - 1; }
  Vl get(int in_port, int out_port, int sl_or_vl) const { return data_[index(in_port, out_port, sl_or_vl)]; }
  void set(int in_port, int out_port, int sl_or_vl, Vl vl) {
    if (store_.use_count() > 1) adopt(std::make_shared<std::vector<Vl>>(*store_));  // shared: a copy of its own
    store_->data()[index(in_port, out_port, sl_or_vl)] = vl;
  }
  // The whole table, [in port][out port][SL or VL] (ports 0..num_ports()).
  const std::vector<Vl>& flat() const { return store_ ? *store_ : empty(); }
  // Sets the same VL for an SL on every (input, output) pair.
  void set_all(int sl_or_vl, Vl vl) {
    for (int i = 0; i < ports_; ++i)
      for (int o = 0; o < ports_; ++o) set(i, o, sl_or_vl, vl);
  }
  // Shares other's store when both hold the same key and entries (nothing changes for a reader).
  bool share_if_equal(const Sl2VlTable& other) {
    if (key_ != other.key_ || ports_ != other.ports_ || !other.store_ || flat() != other.flat()) return false;
    adopt(other.store_);
    return true;
  }
  bool shares_store_with(const Sl2VlTable& other) const { return store_ && store_ == other.store_; }

 private:
  size_t index(int in_port, int out_port, int k) const {
    return (static_cast<size_t>(in_port) * ports_ + out_port) * kNumSls + k;
  }
  void adopt(std::shared_ptr<std::vector<Vl>> store) {
    store_ = std::move(store);
    data_ = store_->data();
  }
  static const std::vector<Vl>& empty() {
    static const std::vector<Vl> none;
    return none;
  }
  int ports_ = 0;
  Key key_ = Key::Sl;
  std::shared_ptr<std::vector<Vl>> store_;
  const Vl* data_ = nullptr;  // store_'s entries (get() reads through one pointer, as before)
};

struct SwitchTables {
  Lid lid = 0;                        // the switch's own LID (port 0)
  Lft lft;                            // DLID -> candidates
  std::vector<Lft> lft_per_input_vl;  // optional: [input VL] -> LFT; empty means use `lft`
  // The same per-input-VL LFTs in the compact form (vl_lft.h), instead of lft_per_input_vl:
  // DLID -> column of the fabric-wide pool. Empty and null unless compact.
  std::vector<uint32_t> vl_column;
  std::shared_ptr<const VlLftPool> vl_pool;
  Sl2VlTable sl2vl;

  bool per_vl() const { return vl_pool != nullptr || !lft_per_input_vl.empty(); }
  int per_vl_copies() const { return vl_pool ? vl_pool->vls() : static_cast<int>(lft_per_input_vl.size()); }
  LftEntry route(Lid dlid, Vl input_vl) const {
    if (vl_pool)
      return dlid < vl_column.size() && input_vl < vl_pool->vls() ? vl_pool->entry(vl_column[dlid], input_vl)
                                                                  : LftEntry{};
    const Lft& t = lft_per_input_vl.empty() ? lft : lft_per_input_vl[input_vl];
    return dlid < t.size() ? t[dlid] : LftEntry{};
  }
  // The compact form back to one Lft per input VL (for edits: the pool is shared and read-only).
  void expand_per_vl();
};

struct HostTables {
  Lid base_lid = 0;  // LIDs base_lid .. base_lid + 2^lmc - 1
  uint8_t lmc = 0;
  Vl sl2vl[kNumSls] = {};  // the HCA port's SL2VL
  PathRow paths;           // [destination host] -> records
};

// How an HCA picks among a pair's path records.
//   Primary: always the first; the rest are alternates for automatic path migration.
//   RandomPerPacket: one at random for each packet (virtual networks, seeds/004 "vn").
enum class PathChoice { Primary, RandomPerPacket };

// Tables an external program computed (routing "opensm"): what ran, kept beside the results.
struct ExternalRun {
  std::string tool;    // "OpenSM 3.3.23", as its log names itself
  std::string engine;  // the engine asked for and confirmed by the log ("ftree")
  std::string log;     // the program's log, whole
  double seconds = 0;  // wall time of the run, simulator included
};

struct TableSet {
  std::string algorithm;
  int sls_used = 1;                    // SLs the algorithm needs
  int vls_used = 1;                    // data VLs the algorithm needs
  std::vector<SwitchTables> switches;  // index: switch index of the Topology
  std::vector<HostTables> hosts;       // index: host index of the Topology
  Lid max_lid = 0;
  PathChoice path_choice = PathChoice::Primary;
  std::shared_ptr<const ExternalRun> external;  // set only by external engines (routing "opensm")

  const PathRecord& path(int src_host, int dst_host) const { return hosts[src_host].paths[dst_host].front(); }
};

// Switches whose SL2VL tables are equal share one store (compute_routing does it last); returns
// the number of distinct stores left.
size_t share_identical_sl2vl(TableSet& ts);

}  // namespace ibsc::routing
