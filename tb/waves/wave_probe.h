// WaveProbe: VCD waves of selected switches in a full fabric run, for GTKWave.
//
// On every core-clock edge inside [start_ns, end_ns) the probe copies, for each selected
// switch, the model's state into plain members that SystemC traces:
//   sw_<s>.p<p>.vl<v>.occupancy  input buffer blocks held (queued + still draining)
//   sw_<s>.p<p>.vl<v>.credits    credits available toward the peer on output p, VL v
//   sw_<s>.p<p>.vl<v>.out_occupancy  output buffer blocks held or reserved (only with
//                                switch.output_buffer_bytes_per_vl > 0)
//   sw_<s>.p<p>.vl<v>.head_stall the head of input p, VL v, as the named counters classify it
//                                (Switch::head_stall, models/port_counters.h): 0 not waiting,
//                                1 credit stall, 2 output-busy stall, 3 both, 4 arbitration
//   sw_<s>.p<p>.request          1 on an edge where input p asked the switch arbiter
//   sw_<s>.p<p>.request_in_vl    its head's input VL and the output VL asked (0 without request)
//   sw_<s>.p<p>.request_out_vl
//   sw_<s>.p<p>.request_ports    candidate outputs offered: bit o set for output port o
//   sw_<s>.p<p>.grant_out        output granted to input p at the last arbitration (0: none)
//   sw_<s>.p<p>.grant            1 on an edge whose arbitration granted input p
//   sw_<s>.p<p>.tx_packet        packet id + 1 on the outgoing link of port p (0: idle)
//   hca_<h>.vl<v>.credits        for each HCA attached to a selected switch
//   hca_<h>.tx_packet            packet id + 1 on the HCA's outgoing link
//   core_clk                     the switch core clock: 1 from each sampled edge, 0 from half a period on
// Only connected ports are traced, and of those only WaveOptions::ports when given. The cost is bounded by the
// selection and the window: no process runs outside the window and nothing is traced for other switches.
// Before the window (from time 0) and from its end on each of these is x: nothing was sampled
// there, and a 0 would read as an empty buffer or a starved credit counter. (The RTL pin bundle
// below is traced by the arbiter itself and keeps its values.)
//
// Beside the dump goes a GTKWave save file for it (run.vcd -> run.gtkw, tb/waves/wave_savefile.h)
// naming exactly the switches, ports, VLs and hosts dumped, opening at the window.
//
// Sampling order: all model activity at time t happens in one run of the Scheduler's method;
// the probe wakes at t and waits one delta before sampling, so it sees the state after that
// run (the grant made at t, the credits consumed at t). The VCD writer records the values at
// the end of the time step.
//
// With the Verilated RTL arbiter, the selected switches' arbiters also dump their RTL signals
// (one file each, <file stem>.sw_<s>.rtl.vcd) over the same window with SystemC time stamps,
// and their pin bundle (models/arbiter_pins.h) appears in this file as the RTL sees it, indexed
// by arbiter input/output (switch port p is index p - 1), set at each arbitration:
//   sw_<s>.arbiter.in<i>.{valid,cand,vl,len,grant_valid,grant_port}
//   sw_<s>.arbiter.out<o>.busy, sw_<s>.arbiter.out<o>.vl<v>.credits
#pragma once
#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/sim_time.h"
#include "tb/fabric/fabric.h"

namespace ibsc::models {
class VerilatedArbiter;
}

namespace ibsc::tb {

struct WaveOptions {
  std::string file;              // VCD path; empty: no waves
  std::vector<int> switches{0};  // switch indices to trace
  std::vector<int> ports;        // port numbers traced on each of them; empty: every connected port
  double start_ns = 0;           // first sampled edge at or after this time
  double end_ns = 20000;         // no sample at or after this time (bounded by default)
  bool enabled() const { return !file.empty(); }
  void validate(int num_switches) const;  // throws std::invalid_argument naming the field
  // Also checks every port against every chosen switch of the topology.
  void validate(const routing::Topology& topo) const;
  // The file SystemC writes: `file`, with ".vcd" appended unless it ends so.
  std::string vcd_path() const;
};

// Throws std::runtime_error naming the path when `path` cannot be created for writing (a
// missing folder): SystemC only finds out at time 0 and then crashes closing the file.
void check_writable(const std::string& path);

// "0,3,7" -> {0, 3, 7}; throws std::invalid_argument on anything else. `what` names the
// list in the message ("switch", "port").
std::vector<int> parse_switch_list(const std::string& text, const std::string& what = "switch");

// The RTL arbiter dump of switch s for a given VCD path: "run.vcd" -> "run.sw_3.rtl.vcd".
std::string rtl_wave_path(const std::string& vcd_path, int s);

class WaveProbe : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(WaveProbe);
  // Create during elaboration (before sc_start): the trace file must exist before time 0.
  WaveProbe(sc_core::sc_module_name name, Fabric& fabric, const WaveOptions& opt, const models::SwitchParams& sw);
  ~WaveProbe() override;
  uint64_t samples() const { return samples_; }  // edges sampled so far
  // RTL wave files opened (empty unless the selected switches use the RTL arbiter).
  const std::vector<std::string>& rtl_files() const { return rtl_files_; }
  // The GTKWave save file written for this dump.
  const std::string& save_file() const { return save_file_; }

 private:
  // Traced as 4-state vectors (x outside the window): 32 bits for counts and indices, 64 for
  // packet ids, one sc_logic for pulses.
  using Word = sc_dt::sc_lv<32>;
  using Wide = sc_dt::sc_lv<64>;
  struct PortVl {
    Word occupancy, credits, out_occupancy, head_stall;
  };
  struct Port {
    int port = 0;
    models::Link* link = nullptr;  // outgoing link of this port
    std::vector<PortVl> vl;
    Word grant_out;
    sc_dt::sc_logic grant, request;
    Word request_in_vl, request_out_vl;
    std::unique_ptr<sc_dt::sc_lv_base> request_ports;  // width ports + 1; heap: traced by address
    Wide tx_packet;
  };
  struct Sw {
    int index = 0;
    std::vector<Port> ports;
  };
  struct HcaProbe {
    int host = 0;
    models::Link* link = nullptr;
    std::vector<Word> credits;
    Wide tx_packet;
  };

  // The sampling loop as steps of a method process: wait for the edge, then one delta, sample
  // and raise the clock, lower it half a period on; once past the window, everything to x.
  enum class Step : uint8_t { Start, Edge, Sample, Fall, End };
  void run();
  void sample(models::Picos t);
  void set_unknown();  // every traced value to x
  void write_save_file() const;

  Fabric& fabric_;
  WaveOptions opt_;
  int num_vls_;
  bool output_buffers_;
  models::Picos clock_ps_, start_ps_, end_ps_;
  sc_core::sc_trace_file* tf_ = nullptr;
  sc_dt::sc_logic core_clk_;
  std::string save_file_;
  // Traced members live in these vectors: sized once in the constructor, never reallocated,
  // because sc_trace keeps their addresses.
  std::vector<Sw> sws_;
  std::vector<HcaProbe> hcas_;
  std::vector<std::string> rtl_files_;
  std::vector<models::VerilatedArbiter*> rtl_;  // closed (flushed) with the probe
  uint64_t samples_ = 0;
  Step step_ = Step::Start;
  models::Picos edge_ = 0;  // the clock edge being sampled or waited for
};

}  // namespace ibsc::tb
