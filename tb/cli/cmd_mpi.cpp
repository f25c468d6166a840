#include "tb/cli/cmd_mpi.h"

#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "tb/cli/cmd_run.h"
#include "tb/mpi/mpi_run.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tb/stats/output_files.h"
#include "tb/waves/wave_probe.h"

namespace ibsc::tb {
namespace {

struct MpiOptions {
  std::string scenario;
  std::vector<std::string> sets;
  WorkloadConfig work;
  std::string style = "at";
  std::string trace_file, write_trace_file, json_file;
  models::MessageParams msg;
};

int run(MpiOptions& o) {
  Scenario s = load_scenario(o.scenario, o.sets);
  routing::Topology topo;
  routing::TableSet tables;
  prepare_scenario(s, topo, tables);
  if (o.work.kind == "trace") {
    if (o.trace_file.empty()) throw std::invalid_argument("--workload trace needs --trace FILE");
    o.work.trace = read_trace(o.trace_file);
  } else if (!o.trace_file.empty()) throw std::invalid_argument("--trace is for --workload trace");
  if (!o.write_trace_file.empty()) check_writable(o.write_trace_file);
  if (!o.json_file.empty()) check_writable(o.json_file);
  std::vector<TraceRecord> trace;
  FabricParams fp = s.point.fabric;
  fp.path_seed = s.point.seed;
  const MpiRunResult r =
      run_mpi(topo, tables, fp, o.msg, o.work, o.style == "lt" ? MpiHost::Style::Lt : MpiHost::Style::At,
              o.write_trace_file.empty() ? nullptr : &trace, s.point.arbiter);
  std::printf("ibsc mpi: %s on %d hosts (%s), %u bytes per message, %s sends, MTU %u\n", o.work.kind.c_str(),
              topo.num_hosts, tables.algorithm.c_str(), o.work.bytes, o.style.c_str(), o.msg.mtu_bytes);
  std::printf("completion: %.3f ns; %llu messages, %llu bytes, %llu packets checked\n", r.completion_ns,
              static_cast<unsigned long long>(r.messages), static_cast<unsigned long long>(r.bytes),
              static_cast<unsigned long long>(r.packets_checked));
  for (const auto& e : r.errors) std::printf("data error: %s\n", e.c_str());
  std::printf("data: %s\n", r.errors.empty() ? "intact" : "CORRUPTED");
  std::printf("sends complete at: %s\n", r.ack_completion ? "ACK (transport.mode: reorder)" : "delivery");
  if (fp.transport.enabled())
    std::printf("transport: %llu out-of-order arrivals, %llu ACKs, %llu NACKs, %llu packets re-sent\n",
                static_cast<unsigned long long>(r.transport.out_of_order_arrivals),
                static_cast<unsigned long long>(r.transport.acks), static_cast<unsigned long long>(r.transport.nacks),
                static_cast<unsigned long long>(r.transport.resent_packets));
  if (s.point.arbiter.name != "model") {
    std::string on;
    for (int sw : r.rtl_switches) on += (on.empty() ? "" : ", ") + std::to_string(sw);
    std::printf("switch arbiter: %s%s; Verilated RTL in %zu switch(es)%s, %llu RTL arbitration cycles\n",
                s.point.arbiter.name.c_str(), s.point.arbiter.rtl_switches.empty() ? " in every switch" : "",
                r.rtl_switches.size(), on.empty() ? "" : (" (" + on + ")").c_str(),
                static_cast<unsigned long long>(r.rtl_cycles));
  }
  if (!o.write_trace_file.empty()) write_trace(o.write_trace_file, trace);
  if (!o.json_file.empty()) {
    nlohmann::ordered_json j;
    j["workload"] = o.work.kind;
    j["hosts"] = topo.num_hosts;
    j["bytes_per_message"] = o.work.bytes;
    j["style"] = o.style;
    j["mtu_bytes"] = o.msg.mtu_bytes;
    j["completion_ns"] = r.completion_ns;
    j["host_end_ns"] = r.host_end_ns;
    j["messages"] = r.messages;
    j["bytes"] = r.bytes;
    j["packets_checked"] = r.packets_checked;
    j["data_intact"] = r.errors.empty();
    j["completion_at"] = r.ack_completion ? "ack" : "delivery";
    if (fp.transport.enabled())
      j["transport"] = {{"out_of_order_arrivals", r.transport.out_of_order_arrivals},
                        {"acks", r.transport.acks},
                        {"nacks", r.transport.nacks},
                        {"resent_packets", r.transport.resent_packets}};
    if (s.point.arbiter.name != "model")
      j["switch_arbiter"] = {
          {"name", s.point.arbiter.name}, {"rtl_switches", r.rtl_switches}, {"rtl_cycles", r.rtl_cycles}};
    write_file_atomically(o.json_file, j.dump(2) + "\n");
  }
  return r.errors.empty() ? 0 : 3;
}

}  // namespace

void add_mpi_command(CLI::App& app) {
  auto o = std::make_shared<MpiOptions>();
  CLI::App* c = app.add_subcommand("mpi", "Run an MPI-like workload through the HCAs' TLM-2.0 sockets");
  c->add_option("scenario", o->scenario, "Scenario YAML file (its fabric)")->required()->check(CLI::ExistingFile);
  add_set_option(*c, o->sets);
  c->add_option("--workload", o->work.kind, "all-to-all, allreduce, ring, halo or trace (default allreduce)")
      ->check(CLI::IsMember(workload_kinds()));
  c->add_option("--bytes", o->work.bytes, "Bytes per message (default 4096)")->check(CLI::Range(1u, 1u << 30));
  c->add_option("--iterations", o->work.iterations, "halo: exchanges (default 4)")->check(CLI::Range(1, 1 << 20));
  c->add_option("--style", o->style, "lt: blocking b_transport sends; at: nb_transport, many outstanding (default)")
      ->check(CLI::IsMember({"lt", "at"}));
  c->add_option("--mtu", o->msg.mtu_bytes, "Payload bytes per packet (default 1024)")->check(CLI::Range(1u, 4096u));
  c->add_option("--header-bytes", o->msg.header_bytes, "Wire bytes added per packet (default 0)")
      ->check(CLI::Range(0u, 128u));
  c->add_option("--trace", o->trace_file, "trace: message trace file (time_ns src dst bytes per line)")
      ->check(CLI::ExistingFile);
  c->add_option("--compression", o->work.compression, "trace: time-compression factor, > 1 posts sooner (default 1)")
      ->check(CLI::PositiveNumber);
  c->add_option("--write-trace", o->write_trace_file,
                "Write every message posted as a trace (the collectives' generator)");
  c->add_option("--json", o->json_file, "Write the result as JSON");
  c->callback([o]() { throw CLI::RuntimeError(run(*o)); });
}

}  // namespace ibsc::tb
