#include "tb/waves/wave_probe.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "models/verilated_arbiter.h"
#include "tb/waves/wave_savefile.h"

namespace ibsc::tb {

using models::Picos;

namespace {
Picos ps(double ns) { return static_cast<Picos>(ns * 1000.0 + 0.5); }
// Every bit x: a value not sampled. Whole words at once: SystemC 2.3.4's set_bit shifts into
// bit 31 of an int (undefined behaviour that UBSan reports).
void set_x(sc_dt::sc_lv_base& v) { v = sc_dt::sc_lv_base(sc_dt::SC_LOGIC_X, v.length()); }
}  // namespace

void WaveOptions::validate(int num_switches) const {
  if (!(start_ns >= 0)) throw std::invalid_argument("waves: start_ns must be >= 0");
  if (!(end_ns > start_ns)) throw std::invalid_argument("waves: end_ns must be greater than start_ns");
  if (switches.empty()) throw std::invalid_argument("waves: no switch selected");
  for (int s : switches)
    if (s < 0 || s >= num_switches)
      throw std::invalid_argument("waves: switch " + std::to_string(s) + " does not exist (the fabric has " +
                                  std::to_string(num_switches) + " switches)");
}

void WaveOptions::validate(const routing::Topology& topo) const {
  validate(topo.num_switches);
  if (ports.empty()) return;
  // An unconnected chosen port is skipped like any unconnected port (switches may differ), but
  // each chosen switch must keep one.
  for (int s : switches) {
    const routing::Node& n = topo.nodes[s];
    bool any = false;
    std::string list;
    for (int p : ports) {
      if (p < 1 || p > n.num_ports)
        throw std::invalid_argument("waves: port " + std::to_string(p) + " does not exist on switch " +
                                    std::to_string(s) + " (ports 1.." + std::to_string(n.num_ports) + ")");
      any = any || n.ports[p].node >= 0;
      list += (list.empty() ? "" : ",") + std::to_string(p);
    }
    if (!any)
      throw std::invalid_argument("waves: none of ports " + list + " is connected on switch " + std::to_string(s));
  }
}

std::string WaveOptions::vcd_path() const {
  const bool has_ext = file.size() > 4 && file.compare(file.size() - 4, 4, ".vcd") == 0;
  return has_ext ? file : file + ".vcd";
}

void check_writable(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) throw std::runtime_error("waves: cannot create '" + path + "': " + std::strerror(errno));
  std::fclose(f);
}

std::vector<int> parse_switch_list(const std::string& text, const std::string& what) {
  std::vector<int> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t used = 0;
    int v = -1;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || v < 0)
      throw std::invalid_argument(what + " list '" + text + "': '" + item + "' is not a " + what + " index");
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  if (out.empty()) throw std::invalid_argument(what + " list is empty");
  return out;
}

std::string rtl_wave_path(const std::string& vcd_path, int s) {
  std::string stem = vcd_path;
  const size_t slash = stem.find_last_of('/');
  const size_t dot = stem.rfind('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) stem.erase(dot);
  return stem + ".sw_" + std::to_string(s) + ".rtl.vcd";
}

WaveProbe::WaveProbe(sc_core::sc_module_name name, Fabric& fabric, const WaveOptions& opt,
                     const models::SwitchParams& sw)
    : sc_module(name),
      fabric_(fabric),
      opt_(opt),
      num_vls_(sw.num_vls),
      output_buffers_(sw.output_buffer_bytes_per_vl > 0),
      clock_ps_(sw.clock_ps()),
      start_ps_(ps(opt.start_ns)),
      end_ps_(ps(opt.end_ns)) {
  const routing::Topology& topo = fabric.topology();
  opt_.validate(topo);

  // Outgoing link of every (node, port), to read what is on the wire.
  auto link_from = [&](int node, int port) -> models::Link* {
    for (const LinkInfo& l : fabric.links())
      if (l.from_node == node && l.from_port == port) return l.link;
    return nullptr;
  };

  // Build every structure first and trace afterwards, so no traced address moves.
  for (int s : opt_.switches) {
    Sw w;
    w.index = s;
    const routing::Node& n = topo.nodes[s];
    for (int p = 1; p <= n.num_ports; ++p) {
      const routing::PortPeer& peer = n.ports[p];
      if (peer.node < 0) continue;
      if (!opt_.ports.empty() && std::find(opt_.ports.begin(), opt_.ports.end(), p) == opt_.ports.end()) continue;
      Port port;
      port.port = p;
      port.link = link_from(s, p);
      port.vl.resize(num_vls_);
      port.request_ports = std::make_unique<sc_dt::sc_lv_base>(n.num_ports + 1);
      w.ports.push_back(std::move(port));
      if (!topo.is_switch(peer.node)) {
        HcaProbe h;
        h.host = topo.host_index(peer.node);
        h.link = link_from(peer.node, peer.port);
        h.credits.resize(num_vls_);
        hcas_.push_back(std::move(h));
      }
    }
    sws_.push_back(std::move(w));
    fabric.sw(s).record_requests(true);  // the requests exist only at arbitration time
  }

  set_unknown();  // the values the dump starts with
  // Every file is checked before SystemC opens any: a failed open crashes it later.
  check_writable(opt_.vcd_path());
  save_file_ = gtkw_path(opt_.vcd_path());
  check_writable(save_file_);
  for (int s : opt_.switches)
    if (dynamic_cast<models::VerilatedArbiter*>(&fabric.arbiter(s))) check_writable(rtl_wave_path(opt_.file, s));
  // sc_create_vcd_trace_file appends ".vcd" itself.
  std::string base = opt_.vcd_path();
  base.resize(base.size() - 4);
  tf_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  if (!tf_) throw std::runtime_error("waves: cannot create " + opt_.file);
  // 1 ps: edges and wire times are exact. The kernel's note about it is noise on every run.
  sc_core::sc_report_handler::set_actions("tracing timescale unit set", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  tf_->set_time_unit(1, sc_core::SC_PS);
  sc_core::sc_trace(tf_, core_clk_, "core_clk");
  for (Sw& w : sws_) {
    const std::string sn = "sw_" + std::to_string(w.index);
    for (Port& p : w.ports) {
      const std::string pn = sn + ".p" + std::to_string(p.port);
      for (int v = 0; v < num_vls_; ++v) {
        const std::string vn = pn + ".vl" + std::to_string(v);
        sc_core::sc_trace(tf_, p.vl[v].occupancy, vn + ".occupancy");
        sc_core::sc_trace(tf_, p.vl[v].credits, vn + ".credits");
        if (output_buffers_) sc_core::sc_trace(tf_, p.vl[v].out_occupancy, vn + ".out_occupancy");
        sc_core::sc_trace(tf_, p.vl[v].head_stall, vn + ".head_stall");
      }
      sc_core::sc_trace(tf_, p.request, pn + ".request");
      sc_core::sc_trace(tf_, p.request_in_vl, pn + ".request_in_vl");
      sc_core::sc_trace(tf_, p.request_out_vl, pn + ".request_out_vl");
      sc_core::sc_trace(tf_, *p.request_ports, pn + ".request_ports");
      sc_core::sc_trace(tf_, p.grant_out, pn + ".grant_out");
      sc_core::sc_trace(tf_, p.grant, pn + ".grant");
      sc_core::sc_trace(tf_, p.tx_packet, pn + ".tx_packet");
    }
  }
  for (HcaProbe& h : hcas_) {
    const std::string hn = "hca_" + std::to_string(h.host);
    for (int v = 0; v < num_vls_; ++v)
      sc_core::sc_trace(tf_, h.credits[v], hn + ".vl" + std::to_string(v) + ".credits");
    sc_core::sc_trace(tf_, h.tx_packet, hn + ".tx_packet");
  }

  // The RTL arbiter of a selected switch dumps its own signals over the same window, stamped
  // with SystemC time so both files line up in GTKWave.
  for (int s : opt_.switches) {
    auto* rtl = dynamic_cast<models::VerilatedArbiter*>(&fabric.arbiter(s));
    if (!rtl) continue;
    const std::string path = rtl_wave_path(opt_.file, s);
    rtl->use_systemc_time();
    rtl->set_clock_period_ps(clock_ps_);
    rtl->set_trace_window(start_ps_, end_ps_);
    rtl->open_trace(path);
    rtl->trace_pins(tf_, "sw_" + std::to_string(s) + ".arbiter");
    rtl_files_.push_back(path);
    rtl_.push_back(rtl);
  }
  write_save_file();

  SC_METHOD(run);  // runs at time 0 first (Step::Start), then where each step asks
}

WaveProbe::~WaveProbe() {
  // The probe ends before the fabric: flush the RTL dumps now so they are complete on return.
  for (models::VerilatedArbiter* a : rtl_) a->close_trace();
  if (tf_) sc_core::sc_close_vcd_trace_file(tf_);
}

void WaveProbe::write_save_file() const {
  DumpLayout d;
  d.vcd_path = opt_.vcd_path();
  d.num_vls = num_vls_;
  d.out_occupancy = output_buffers_;
  d.start_ps = start_ps_;
  d.end_ps = end_ps_;
  d.first_edge_ps = models::clock_edge(start_ps_, clock_ps_);
  const routing::Topology& topo = fabric_.topology();
  for (const Sw& w : sws_) {
    DumpLayout::Switch s{w.index, topo.nodes[w.index].num_ports, {}};
    for (const Port& p : w.ports) {
      const routing::PortPeer& peer = topo.nodes[w.index].ports[p.port];
      s.ports.push_back({p.port, topo.is_switch(peer.node)
                                     ? "sw_" + std::to_string(peer.node) + " p" + std::to_string(peer.port)
                                     : "host " + std::to_string(topo.host_index(peer.node))});
    }
    d.switches.push_back(std::move(s));
  }
  for (const HcaProbe& h : hcas_) d.hosts.push_back(h.host);
  std::FILE* f = std::fopen(save_file_.c_str(), "w");
  if (!f) throw std::runtime_error("waves: cannot write '" + save_file_ + "': " + std::strerror(errno));
  const std::string text = gtkw_text(d);
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) throw std::runtime_error("waves: cannot write '" + save_file_ + "'");
}

// A method process stepped by next_trigger, not a thread: no coroutine stack of its own, which
// the sanitizers' leak check could not follow (its tracer crashed on SystemC's stacks).
void WaveProbe::run() {
  const Picos half = clock_ps_ / 2;
  switch (step_) {
    case Step::Start:
      edge_ = models::clock_edge(start_ps_, clock_ps_);
      break;
    case Step::Edge:  // one delta later the Scheduler's run at the edge is over
      step_ = Step::Sample;
      next_trigger(sc_core::SC_ZERO_TIME);
      return;
    case Step::Sample:
      sample(edge_);
      core_clk_ = sc_dt::SC_LOGIC_1;
      if (half > 0 && edge_ + half < end_ps_) {
        step_ = Step::Fall;
        next_trigger(models::to_sc(half));
        return;
      }
      edge_ += clock_ps_;
      break;
    case Step::Fall:
      core_clk_ = sc_dt::SC_LOGIC_0;
      edge_ += clock_ps_;
      break;
    case Step::End:  // no next_trigger after this: the process is not run again
      set_unknown();
      return;
  }
  if (edge_ < end_ps_) {
    step_ = Step::Edge;
    next_trigger(models::to_sc(edge_ - models::now_ps()));
    return;
  }
  // Window over: from its end nothing is sampled, so nothing is shown as known.
  if (end_ps_ > models::now_ps()) {
    step_ = Step::End;
    next_trigger(models::to_sc(end_ps_ - models::now_ps()));
    return;
  }
  set_unknown();
}

void WaveProbe::set_unknown() {
  core_clk_ = sc_dt::SC_LOGIC_X;
  for (Sw& w : sws_)
    for (Port& p : w.ports) {
      for (PortVl& v : p.vl)
        for (Word* x : {&v.occupancy, &v.credits, &v.out_occupancy, &v.head_stall}) set_x(*x);
      for (Word* x : {&p.grant_out, &p.request_in_vl, &p.request_out_vl}) set_x(*x);
      p.grant = p.request = sc_dt::SC_LOGIC_X;
      set_x(*p.request_ports);
      set_x(p.tx_packet);
    }
  for (HcaProbe& h : hcas_) {
    for (Word& c : h.credits) set_x(c);
    set_x(h.tx_packet);
  }
}

void WaveProbe::sample(Picos t) {
  ++samples_;
  for (Sw& w : sws_) {
    models::Switch& sw = fabric_.sw(w.index);
    // A wake-up that found nothing to grant leaves last_grant_out() as it was: the pulses
    // come from the requests recorded at t.
    const bool arbitrated_now = sw.requests_time() == t;
    const auto& req = sw.last_requests();
    for (Port& p : w.ports) {
      for (int v = 0; v < num_vls_; ++v) {
        p.vl[v].occupancy = sw.occupancy_blocks(p.port, v, t);
        p.vl[v].credits = sw.credits(p.port, v, t);
        p.vl[v].out_occupancy = sw.output_occupancy_blocks(p.port, v, t);
        p.vl[v].head_stall = sw.head_stall(p.port, v, t);
      }
      p.grant_out = sw.last_grant_out(p.port);
      const models::Switch::RequestRecord& r = req[p.port];
      const bool asked = arbitrated_now && r.in_vl >= 0;
      p.grant = sc_dt::sc_logic(asked && r.granted != 0);
      p.request = sc_dt::sc_logic(asked);
      p.request_in_vl = asked ? r.in_vl : 0;
      p.request_out_vl = asked ? r.out_vl : 0;
      *p.request_ports = 0;
      if (asked)
        for (uint8_t o : r.ports) p.request_ports->set_bit(o, sc_dt::Log_1);
      p.tx_packet = p.link ? p.link->packet_on_wire(t) : 0;
    }
  }
  for (HcaProbe& h : hcas_) {
    models::Hca& hca = fabric_.hca(h.host);
    for (int v = 0; v < num_vls_; ++v) h.credits[v] = hca.credits(v, t);
    h.tx_packet = h.link ? h.link->packet_on_wire(t) : 0;
  }
}

}  // namespace ibsc::tb
