// ibsc::Fabric (api/include/ibsc/ibsc.h): a thin facade over the testbench's scenario reading,
// routing, fabric elaboration and the HCAs' message layer, as `ibsc mpi` sets them up.
#include "ibsc/ibsc.h"

#include "models/hca_messages.h"
#include "models/hca_tlm_initiator.h"
#include "models/hca_tlm_target.h"
#include "models/sim_time.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/scenario/config_reader.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"

namespace ibsc {

struct Fabric::Impl {
  tb::Scenario scenario;
  routing::Topology topo;
  routing::TableSet tables;
  std::unique_ptr<models::MessageLayer> layer;
  std::unique_ptr<tb::Fabric> fabric;
  std::vector<std::unique_ptr<models::HcaTlmTarget>> targets;
  std::vector<std::unique_ptr<models::HcaTlmInitiator>> initiators;

  void build(const MessageOptions& o) {
    tb::prepare_scenario(scenario, topo, tables);
    models::MessageParams mp;
    mp.mtu_bytes = o.mtu_bytes;
    mp.header_bytes = o.header_bytes;
    mp.memory_bytes = o.memory_bytes;
    mp.validate();
    const models::SwitchParams& sw = scenario.point.fabric.sw;
    if (mp.mtu_bytes + mp.header_bytes > sw.buffer_bytes_per_vl)
      throw std::invalid_argument("a packet of MTU " + std::to_string(mp.mtu_bytes) + " + " +
                                  std::to_string(mp.header_bytes) + " header bytes does not fit a " +
                                  std::to_string(sw.buffer_bytes_per_vl) + "-byte VL buffer");
    tb::FabricParams fp = scenario.point.fabric;
    fp.path_seed = scenario.point.seed;
    layer = std::make_unique<models::MessageLayer>(topo.num_hosts, mp);
    fabric = std::make_unique<tb::Fabric>(topo, tables, fp, *layer, tb::make_arbiter_factory(scenario.point.arbiter));
    for (int h = 0; h < topo.num_hosts; ++h) {
      layer->attach(h, &fabric->hca(h));
      targets.push_back(std::make_unique<models::HcaTlmTarget>(("hca_tlm_" + std::to_string(h)).c_str(), h, *layer));
      initiators.push_back(std::make_unique<models::HcaTlmInitiator>(
          ("hca_mem_" + std::to_string(h)).c_str(), h, topo.num_hosts, *layer,
          o.at_writes ? models::HcaTlmInitiator::Style::At : models::HcaTlmInitiator::Style::Lt));
    }
  }
  void check_host(int h) const {
    if (h < 0 || h >= topo.num_hosts)
      throw Error("host " + std::to_string(h) + " does not exist (the fabric has " + std::to_string(topo.num_hosts) +
                  " hosts)");
  }
  models::Switch& sw(int s) const {
    if (s < 0 || s >= topo.num_switches)
      throw Error("switch " + std::to_string(s) + " does not exist (the fabric has " +
                  std::to_string(topo.num_switches) + " switches)");
    return fabric->sw(s);
  }
};

namespace {

template <class Load>
std::unique_ptr<Fabric::Impl> made(Load&& load, const MessageOptions& msg) {
  auto impl = std::make_unique<Fabric::Impl>();
  try {
    impl->scenario = load();
    impl->build(msg);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
  return impl;
}

}  // namespace

Fabric::Fabric(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Fabric::~Fabric() = default;

std::unique_ptr<Fabric> Fabric::from_file(const std::string& path, const std::vector<std::string>& overrides,
                                          const MessageOptions& msg) {
  return std::unique_ptr<Fabric>(new Fabric(made([&] { return tb::load_scenario(path, overrides); }, msg)));
}

std::unique_ptr<Fabric> Fabric::from_yaml(const std::string& yaml, const std::vector<std::string>& overrides,
                                          const MessageOptions& msg) {
  return std::unique_ptr<Fabric>(
      new Fabric(made([&] { return tb::load_scenario_text(yaml, "<yaml>", overrides); }, msg)));
}

int Fabric::num_hosts() const { return impl_->topo.num_hosts; }
int Fabric::num_switches() const { return impl_->topo.num_switches; }
std::string Fabric::routing() const { return impl_->tables.algorithm; }

TargetSocket& Fabric::hca_target(int host) {
  impl_->check_host(host);
  return impl_->targets[host]->socket;
}

InitiatorSocket& Fabric::hca_initiator(int host) {
  impl_->check_host(host);
  return impl_->initiators[host]->socket;
}

sc_core::sc_event& Fabric::arrival_event(int host) {
  impl_->check_host(host);
  return impl_->initiators[host]->written_event();
}

uint64_t Fabric::arrivals(int host, int from) const {
  impl_->check_host(host);
  impl_->check_host(from);
  return impl_->initiators[host]->written(from);
}

std::vector<std::string> Fabric::delivery_error_log() const {
  std::vector<std::string> log;
  for (const auto& i : impl_->initiators) log.insert(log.end(), i->errors().begin(), i->errors().end());
  return log;
}

void Fabric::enable_counters() {
  for (int s = 0; s < num_switches(); ++s) impl_->fabric->sw(s).enable_counters();
}

int Fabric::switch_ports(int sw) const { return impl_->sw(sw).num_ports(); }
int Fabric::num_vls() const { return impl_->fabric->switch_params().num_vls; }

PortVlCounters Fabric::counters(int sw, int port, int vl) const {
  models::Switch& s = impl_->sw(sw);
  if (port < 1 || port > s.num_ports() || vl < 0 || vl >= num_vls())
    throw Error("switch " + std::to_string(sw) + ": no port " + std::to_string(port) + " VL " + std::to_string(vl) +
                " (ports 1.." + std::to_string(s.num_ports()) + ", VLs 0.." + std::to_string(num_vls() - 1) + ")");
  if (!s.counters()) throw Error("switch counters are off: call enable_counters() before sc_start");
  s.account_waits(models::now_ps());
  const models::PortVlCounters& c = s.counters()->at(port, vl);
  PortVlCounters r;
  r.grant_packets = c.grant_packets;
  r.grant_bytes = c.grant_bytes;
  r.credit_stall_ps = c.credit_stall_ps;
  r.output_busy_stall_ps = c.output_busy_stall_ps;
  r.head_wait_ps = c.head_wait_ps;
  r.hol_blocked_ps = c.hol_blocked_ps;
  r.max_occupancy_bytes = c.max_occupancy_bytes;
  return r;
}

int Fabric::head_stall(int sw, int port, int vl) const {
  models::Switch& s = impl_->sw(sw);
  if (port < 1 || port > s.num_ports() || vl < 0 || vl >= num_vls())
    throw Error("switch " + std::to_string(sw) + ": no port " + std::to_string(port) + " VL " + std::to_string(vl));
  return s.head_stall(port, vl, models::now_ps());
}

std::string Fabric::arbiter_kind(int sw) const {
  impl_->sw(sw);
  return impl_->fabric->arbiter(sw).kind();
}

Results Fabric::results() const {
  Results r;
  r.now_ns = static_cast<double>(models::now_ps()) / models::kPsPerNs;
  const models::FabricMonitor& m = impl_->fabric->monitor();
  r.packets_injected = m.injected;
  r.packets_delivered = m.delivered;
  r.messages_posted = impl_->layer->messages_posted();
  r.messages_completed = impl_->layer->messages_completed();
  r.packets_checked = impl_->layer->packets_checked();
  for (const auto& i : impl_->initiators) r.delivery_errors += i->errors().size();
  return r;
}

void Fabric::check() const {
  try {
    impl_->fabric->check_conservation();
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
  const std::vector<std::string> log = delivery_error_log();
  if (!log.empty())
    throw Error(std::to_string(log.size()) + " delivered message(s) could not be written into the platform's memory; " +
                "the first: " + log.front());
}

}  // namespace ibsc
