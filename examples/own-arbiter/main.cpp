// Runs an incast through the fabric of a scenario with the switch arbiter it names (see
// oldest_first.cpp): every host but 0 writes 16 KB to host 0 at time 0 through its HCA's TLM
// socket; prints when each sender's write completed, and the grants of host 0's switch.
//   own_arbiter incast.yaml [key=value ...]    e.g. switch.arbiter=model for IBSC's default
//   own_arbiter --cosim REFERENCE [...]         co-verifies the RTL arbiter (cosim.cpp)
#include <ibsc/ibsc.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdio>

constexpr unsigned kBytes = 16384;

struct Sender : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Sender> nic{"nic"};
  int host;
  double done_ns = -1;
  std::vector<uint8_t> data = std::vector<uint8_t>(kBytes);
  Sender(sc_core::sc_module_name n, int h) : sc_module(n), host(h) { SC_THREAD(run); }
  SC_HAS_PROCESS(Sender);
  void run() {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(ibsc::address(0, static_cast<uint64_t>(host) * kBytes));  // each its own slot
    gp.set_data_ptr(data.data());
    gp.set_data_length(kBytes);
    gp.set_streaming_width(kBytes);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    nic->b_transport(gp, delay);  // returns when the write has been delivered
    if (!gp.is_response_ok()) SC_REPORT_FATAL("sender", gp.get_response_string().c_str());
    done_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  }
};

int run_cosim(int argc, char** argv);  // cosim.cpp

int sc_main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: own_arbiter SCENARIO.yaml [key=value ...]\n"
                 "       own_arbiter --cosim REFERENCE [--cycles N] [--seed S] [--vcd FILE]\n");
    return 2;
  }
  if (std::string(argv[1]) == "--cosim") return run_cosim(argc - 1, argv + 1);
  std::unique_ptr<ibsc::Fabric> fabric;
  try {
    fabric = ibsc::Fabric::from_file(argv[1], std::vector<std::string>(argv + 2, argv + argc));
  } catch (const ibsc::Error& e) {
    std::fprintf(stderr, "own_arbiter: %s\n", e.what());
    return 2;
  }
  std::vector<std::unique_ptr<Sender>> senders;
  for (int h = 1; h < fabric->num_hosts(); ++h) {
    senders.push_back(std::make_unique<Sender>(("sender_" + std::to_string(h)).c_str(), h));
    senders.back()->nic.bind(fabric->hca_target(h));
  }
  fabric->enable_counters();
  sc_core::sc_start();
  fabric->check();
  uint64_t grants = 0;
  for (int p = 1; p <= fabric->switch_ports(0); ++p)
    for (int vl = 0; vl < fabric->num_vls(); ++vl) grants += fabric->counters(0, p, vl).grant_packets;
  std::printf("arbiter: %s\n", fabric->arbiter_kind(0).c_str());
  std::printf("completions (ns):");
  for (const auto& s : senders) std::printf(" %.0f", s->done_ns);
  std::printf("\nswitch 0 grants: %llu; messages %llu of %d delivered\n", (unsigned long long)grants,
              (unsigned long long)fabric->results().messages_completed, fabric->num_hosts() - 1);
  for (const auto& s : senders)
    if (s->done_ns < 0) return 1;
  return 0;
}
