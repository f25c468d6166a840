// A virtual platform of 16 hosts, each a CPU (TLM-2.0 initiator) with its own memory (a TLM-2.0
// target with two ports: the CPU's and the HCA's), joined by an IBSC InfiniBand fabric. The
// CPUs run an allreduce (sum) of a vector of 64-bit words by recursive doubling: in round k each
// CPU reads its vector from its memory, sends it through its HCA to rank ^ 2^k, into that
// host's inbox; the partner's HCA writes it into the partner's memory (its TLM initiator) and
// raises the arrival event; the CPU reads the partner's vector from its own memory, adds, and
// writes the sum back. At the end every memory must hold the sum over all ranks.
//   virtual_platform fabric.yaml
#include <ibsc/ibsc.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdio>
#include <cstring>
#include <vector>

constexpr int kWords = 512;           // 4 KB per message
constexpr uint64_t kVector = 0x1000;  // where a CPU keeps its vector, in its memory
constexpr uint64_t kInbox = 0x8000;   // where partners' vectors arrive, in its memory

// A memory: b_transport reads and writes, 10 ns per access, from the CPU and from the HCA.
struct Memory : sc_core::sc_module {
  tlm_utils::simple_target_socket<Memory> socket{"socket"};  // the CPU's port
  tlm_utils::simple_target_socket<Memory> dma{"dma"};        // the HCA's port
  std::vector<uint8_t> bytes = std::vector<uint8_t>(1 << 16);
  explicit Memory(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_b_transport(this, &Memory::access);
    dma.register_b_transport(this, &Memory::access);
  }
  void access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    if (gp.get_address() + gp.get_data_length() > bytes.size()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint8_t* at = bytes.data() + gp.get_address();
    if (gp.is_write()) std::memcpy(at, gp.get_data_ptr(), gp.get_data_length());
    else std::memcpy(gp.get_data_ptr(), at, gp.get_data_length());
    delay += sc_core::sc_time(10, sc_core::SC_NS);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Cpu : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Cpu> mem{"mem"};  // to its memory
  tlm_utils::simple_initiator_socket<Cpu> nic{"nic"};  // to its HCA
  int rank, ranks;
  ibsc::Fabric& fabric;
  double done_ns = -1;
  Cpu(sc_core::sc_module_name n, int r, int rs, ibsc::Fabric& f) : sc_module(n), rank(r), ranks(rs), fabric(f) {
    SC_THREAD(run);
  }
  SC_HAS_PROCESS(Cpu);

  void transport(tlm_utils::simple_initiator_socket<Cpu>& s, tlm::tlm_command cmd, uint64_t addr,
                 std::vector<uint64_t>& v) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(v.data()));
    gp.set_data_length(kWords * 8);
    gp.set_streaming_width(kWords * 8);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    s->b_transport(gp, delay);
    if (!gp.is_response_ok()) SC_REPORT_FATAL("cpu", gp.get_response_string().c_str());
    wait(delay);
  }

  void run() {
    std::vector<uint64_t> mine(kWords), theirs(kWords);
    for (int k = 1; k < ranks; k <<= 1) {
      const int partner = rank ^ k;
      transport(mem, tlm::TLM_READ_COMMAND, kVector, mine);
      // The round's slot in the partner's inbox: messages of different rounds never overlap.
      const uint64_t slot = kInbox + static_cast<uint64_t>(__builtin_ctz(k)) * kWords * 8;
      transport(nic, tlm::TLM_WRITE_COMMAND, ibsc::address(partner, slot), mine);    // returns when delivered
      while (fabric.arrivals(rank, partner) == 0) wait(fabric.arrival_event(rank));  // a new partner each round
      transport(mem, tlm::TLM_READ_COMMAND, slot, theirs);                           // the HCA wrote it there
      for (int i = 0; i < kWords; ++i) mine[i] += theirs[i];
      transport(mem, tlm::TLM_WRITE_COMMAND, kVector, mine);
    }
    done_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  }
};

int sc_main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: virtual_platform FABRIC.yaml\n");
    return 2;
  }
  ibsc::MessageOptions msg;
  msg.header_bytes = 26;
  std::unique_ptr<ibsc::Fabric> fabric;
  try {
    fabric = ibsc::Fabric::from_file(argv[1], {}, msg);
  } catch (const ibsc::Error& e) {
    std::fprintf(stderr, "virtual_platform: %s\n", e.what());
    return 2;
  }
  const int n = fabric->num_hosts();
  std::vector<std::unique_ptr<Memory>> mems;
  std::vector<std::unique_ptr<Cpu>> cpus;
  for (int h = 0; h < n; ++h) {
    mems.push_back(std::make_unique<Memory>(("mem_" + std::to_string(h)).c_str()));
    cpus.push_back(std::make_unique<Cpu>(("cpu_" + std::to_string(h)).c_str(), h, n, *fabric));
    cpus[h]->mem.bind(mems[h]->socket);
    cpus[h]->nic.bind(fabric->hca_target(h));
    fabric->hca_initiator(h).bind(mems[h]->dma);
    // Rank h's vector: word i holds h * 1000 + i.
    for (int i = 0; i < kWords; ++i) {
      const uint64_t v = static_cast<uint64_t>(h) * 1000 + i;
      std::memcpy(mems[h]->bytes.data() + kVector + 8 * i, &v, 8);
    }
  }
  fabric->enable_counters();
  sc_core::sc_start();
  fabric->check();

  // Every memory holds sum over h of (h * 1000 + i) = 1000 * n(n-1)/2 + n * i.
  int wrong = 0;
  double last = 0;
  for (int h = 0; h < n; ++h) {
    last = std::max(last, cpus[h]->done_ns);
    for (int i = 0; i < kWords; ++i) {
      uint64_t v;
      std::memcpy(&v, mems[h]->bytes.data() + kVector + 8 * i, 8);
      const uint64_t want = 1000ull * n * (n - 1) / 2 + static_cast<uint64_t>(n) * i;
      if (v != want && wrong++ < 5)
        std::printf("host %d word %d: %llu, expected %llu\n", h, i, (unsigned long long)v, (unsigned long long)want);
    }
  }
  const ibsc::Results r = fabric->results();
  uint64_t grants = 0;
  for (int s = 0; s < fabric->num_switches(); ++s)
    for (int p = 1; p <= fabric->switch_ports(s); ++p)
      for (int vl = 0; vl < fabric->num_vls(); ++vl) grants += fabric->counters(s, p, vl).grant_packets;
  std::printf("IBSC %s: allreduce of %d bytes on %d hosts (%s routing) done at %.1f ns\n", IBSC_VERSION, kWords * 8, n,
              fabric->routing().c_str(), last);
  std::printf("%llu messages, %llu packets delivered, %llu switch grants, %llu packets checked\n",
              (unsigned long long)r.messages_completed, (unsigned long long)r.packets_delivered,
              (unsigned long long)grants, (unsigned long long)r.packets_checked);
  std::printf("data: %s\n", wrong ? "WRONG" : "correct");
  return wrong || last < 0 ? 1 : 0;
}
