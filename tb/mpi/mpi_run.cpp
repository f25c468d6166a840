#include "tb/mpi/mpi_run.h"

#include <memory>
#include <stdexcept>

#include "models/hca_tlm_target.h"
#include "models/verilated_arbiter.h"
#include "tb/fabric/arbiter_factory.h"

namespace ibsc::tb {

MpiRunResult run_mpi(const routing::Topology& topo, const routing::TableSet& tables, const FabricParams& fp,
                     models::MessageParams msg, const WorkloadConfig& work, MpiHost::Style style,
                     std::vector<TraceRecord>* trace_out, const ArbiterChoice& arbiter) {
  const int hosts = topo.num_hosts;
  work.validate(hosts);
  msg.memory_bytes = std::max(msg.memory_bytes, workload_memory_bytes(work, hosts));
  if (msg.mtu_bytes + msg.header_bytes > fp.sw.buffer_bytes_per_vl)
    throw std::invalid_argument("a packet of MTU " + std::to_string(msg.mtu_bytes) + " + " +
                                std::to_string(msg.header_bytes) + " header bytes does not fit a " +
                                std::to_string(fp.sw.buffer_bytes_per_vl) + "-byte VL buffer");
  if (fp.sw.escape_queue_bytes > 0 && msg.mtu_bytes + msg.header_bytes > fp.sw.escape_queue_bytes)
    throw std::invalid_argument("a packet of MTU " + std::to_string(msg.mtu_bytes) + " + " +
                                std::to_string(msg.header_bytes) + " header bytes does not fit the " +
                                std::to_string(fp.sw.escape_queue_bytes) +
                                "-byte escape queue (switch.escape_queue_bytes): the escape channel could not take it");
  models::MessageLayer layer(hosts, msg);
  Fabric fabric(topo, tables, fp, layer, make_arbiter_factory(arbiter));
  std::vector<std::unique_ptr<models::HcaTlmTarget>> targets;
  std::vector<std::unique_ptr<MpiHost>> ranks;
  const auto body = make_workload(work);
  for (int h = 0; h < hosts; ++h) {
    layer.attach(h, &fabric.hca(h));
    targets.push_back(std::make_unique<models::HcaTlmTarget>(("tlm_" + std::to_string(h)).c_str(), h, layer));
    ranks.push_back(
        std::make_unique<MpiHost>(("rank_" + std::to_string(h)).c_str(), h, hosts, style, layer, body, trace_out));
    ranks.back()->socket.bind(targets.back()->socket);
  }
  sc_core::sc_start();  // returns when nothing is left to happen
  MpiRunResult r;
  for (const auto& rk : ranks) {
    if (!rk->finished()) {
      const std::string cycle = fabric.deadlock_cycle();
      throw std::runtime_error("workload " + work.kind + ": rank " + std::to_string(rk->rank()) +
                               " did not finish: the fabric went still with " +
                               std::to_string(fabric.count_in_fabric()) + " packets in it" +
                               (cycle.empty() ? "" : "; cycle of waiting channels: " + cycle));
    }
    r.host_end_ns.push_back(rk->end_ps() / 1000.0);
    r.completion_ns = std::max(r.completion_ns, rk->end_ps() / 1000.0);
    r.bytes += rk->bytes_sent();
    r.errors.insert(r.errors.end(), rk->errors.begin(), rk->errors.end());
  }
  fabric.check_conservation();
  if (layer.messages_completed() != layer.messages_posted() || fabric.monitor().in_flight() != 0)
    throw std::runtime_error("workload " + work.kind + ": " + std::to_string(layer.messages_posted()) +
                             " messages posted, " + std::to_string(layer.messages_completed()) + " delivered");
  r.ack_completion = fp.transport.mode == models::TransportMode::Reorder;
  r.transport = fabric.transport_counters();
  for (int sw = 0; sw < topo.num_switches; ++sw)
    if (const auto* rtl = dynamic_cast<const models::VerilatedArbiter*>(&fabric.arbiter(sw))) {
      r.rtl_switches.push_back(sw);
      r.rtl_cycles += rtl->cycles();
    }
  r.messages = layer.messages_posted();
  r.packets_checked = layer.packets_checked();
  return r;
}

}  // namespace ibsc::tb
