// The HCA's receiving side through TLM-2.0 (models/hca_tlm_initiator.h): a delivered message
// is written into the platform's memory at the address the sender named, at its delivery
// cycle, in the loosely-timed (b_transport), approximately-timed (nb_transport) and DMI
// styles; a write the memory refuses is reported, never lost. One elaboration per case.
#include <boost/test/unit_test.hpp>

#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <memory>

#include "models/hca_tlm_initiator.h"
#include "models/hca_tlm_target.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/mpi/mpi_host.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
testing::ScStrict strict;
constexpr Picos kNs = 1000;

// The idle chain of test_mpi.cpp: 3 switches, host 0 on the first, host 1 on the last, 1X SDR
// links (4 ns per byte), 20 m cables (100 ns fly), 100 ns routing delay. A 10000-byte message
// (MTU 1024) from host 0 at t = 0 is delivered when its last byte arrives:
//   T = (k + 1) fly + k routing + N x 4 ns = 400 + 300 + 40000 = 40700 ns.
constexpr int kChain = 3;
constexpr uint32_t kN = 10000;
constexpr uint64_t kAddr = 0x2340;  // where host 0 asks the bytes to land in host 1's memory
constexpr Picos kDelivery = (kChain + 1) * 100 * kNs + kChain * 100 * kNs + kN * 4 * kNs;
static_assert(kDelivery == 40700 * kNs);

// The platform's memory: b_transport, nb_transport (END_REQ at once, BEGIN_RESP after
// `latency` on the backward path) and, if asked, DMI; a write beyond its size is refused with
// TLM_ADDRESS_ERROR_RESPONSE.
struct Memory : sc_core::sc_module {
  tlm_utils::simple_target_socket<Memory> socket{"socket"};
  std::vector<uint8_t> bytes;
  sc_core::sc_time latency;
  bool grant_dmi = false;
  Picos write_at = models::kNever;  // when the last write reached it
  int transports = 0;
  tlm::tlm_generic_payload* pending = nullptr;
  sc_core::sc_event respond;

  Memory(sc_core::sc_module_name n, size_t size, sc_core::sc_time lat) : sc_module(n), bytes(size), latency(lat) {
    socket.register_b_transport(this, &Memory::b_transport);
    socket.register_nb_transport_fw(this, &Memory::nb_transport_fw);
    socket.register_get_direct_mem_ptr(this, &Memory::get_dmi);
    SC_HAS_PROCESS(Memory);
    SC_THREAD(responder);
  }
  void access(tlm::tlm_generic_payload& gp) {
    ++transports;
    write_at = models::now_ps();
    if (gp.get_address() + gp.get_data_length() > bytes.size()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    std::memcpy(bytes.data() + gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    access(gp);
    delay += latency;
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;
    BOOST_REQUIRE(phase == tlm::BEGIN_REQ);
    access(gp);
    pending = &gp;
    respond.notify(latency);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  void responder() {
    while (true) {
      sc_core::wait(respond);
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
      BOOST_TEST(socket->nb_transport_bw(*pending, phase, zero) == tlm::TLM_COMPLETED);
    }
  }
  bool get_dmi(tlm::tlm_generic_payload&, tlm::tlm_dmi& d) {
    if (!grant_dmi) return false;
    d.set_dmi_ptr(bytes.data());
    d.set_start_address(0);
    d.set_end_address(bytes.size() - 1);
    d.allow_read_write();
    d.set_write_latency(latency);
    return true;
  }
};

// Host 1's platform waiting for the HCA's completion event.
struct Waiter : sc_core::sc_module {
  models::HcaTlmInitiator& init;
  Picos& t;
  Waiter(sc_core::sc_module_name n, models::HcaTlmInitiator& i, Picos& at) : sc_module(n), init(i), t(at) {
    SC_HAS_PROCESS(Waiter);
    SC_THREAD(main);
  }
  void main() {
    sc_core::wait(init.written_event());
    t = models::now_ps();
  }
};

struct Outcome {
  Picos written = models::kNever;  // host 1's completion event
  Picos sent = models::kNever;     // host 0's send returned
  std::vector<uint8_t> data;       // what host 0 sent
};

// Host 0 sends kN bytes to kAddr in host 1 (sender style `send`); host 1's HCA writes them
// into `mem` in `style`.
Outcome run(Memory& mem, models::HcaTlmInitiator::Style style, tb::MpiHost::Style send, uint64_t addr = kAddr,
            models::HcaTlmInitiator** out = nullptr) {
  routing::Topology topo = testing::chain(kChain, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  models::MessageParams mp;
  mp.memory_bytes = 1 << 16;
  auto layer = std::make_unique<models::MessageLayer>(2, mp);
  auto fabric = std::make_unique<tb::Fabric>(topo, tables, tb::FabricParams{}, *layer, tb::make_arbiter_factory({}));
  Outcome o;
  o.data.resize(kN);
  for (uint32_t i = 0; i < kN; ++i) o.data[i] = static_cast<uint8_t>(i * 31 + 5);
  auto t0 = std::make_unique<models::HcaTlmTarget>("tlm_0", 0, *layer);
  auto init1 = std::make_unique<models::HcaTlmInitiator>("hca_1_mem", 1, 2, *layer, style);
  init1->socket.bind(mem.socket);
  tb::MpiHost h0("rank_0", 0, 2, send, *layer, [&](tb::MpiHost& h) {
    h.send(1, addr, o.data);
    h.wait_sends();
    o.sent = models::now_ps();
  });
  h0.socket.bind(t0->socket);
  Waiter waiter("waiter", *init1, o.written);
  layer->attach(0, &fabric->hca(0));
  layer->attach(1, &fabric->hca(1));
  sc_core::sc_start();
  fabric->check_conservation();
  BOOST_TEST(init1->written(0) == 1u);
  BOOST_TEST(init1->writes() == 1u);
  if (out) *out = init1.release();  // kept for the caller's checks (the process ends after them)
  return o;
}

bool holds(const Memory& m, const Outcome& o) {
  return std::equal(o.data.begin(), o.data.end(), m.bytes.begin() + kAddr);
}

}  // namespace

// b_transport into a memory that takes 10 ns: the write reaches it at the delivery cycle, and
// the completion follows its annotated delay. The sender (LT) returns at delivery.
BOOST_AUTO_TEST_CASE(lt_write_lands_at_delivery) {
  Memory mem("mem", 1 << 16, sc_core::sc_time(10, sc_core::SC_NS));
  const Outcome o = run(mem, models::HcaTlmInitiator::Style::Lt, tb::MpiHost::Style::Lt);
  BOOST_TEST(holds(mem, o));
  BOOST_TEST(mem.write_at == kDelivery);
  BOOST_TEST(mem.transports == 1);
  BOOST_TEST(o.written == kDelivery + 10 * kNs);
  BOOST_TEST(o.sent == kDelivery);
}

// nb_transport: BEGIN_REQ at the delivery cycle, END_REQ at once, BEGIN_RESP 25 ns later on the
// backward path, which is the completion. The sender uses nb_transport too.
BOOST_AUTO_TEST_CASE(at_write_lands_at_delivery) {
  Memory mem("mem", 1 << 16, sc_core::sc_time(25, sc_core::SC_NS));
  const Outcome o = run(mem, models::HcaTlmInitiator::Style::At, tb::MpiHost::Style::At);
  BOOST_TEST(holds(mem, o));
  BOOST_TEST(mem.write_at == kDelivery);
  BOOST_TEST(o.written == kDelivery + 25 * kNs);
  BOOST_TEST(o.sent == kDelivery);
}

// The memory grants DMI: the bytes are copied through its pointer (no transport call), and the
// completion follows its granted write latency.
BOOST_AUTO_TEST_CASE(dmi_write_lands_at_delivery) {
  Memory mem("mem", 1 << 16, sc_core::sc_time(5, sc_core::SC_NS));
  mem.grant_dmi = true;
  models::HcaTlmInitiator* init = nullptr;
  const Outcome o = run(mem, models::HcaTlmInitiator::Style::Lt, tb::MpiHost::Style::Lt, kAddr, &init);
  BOOST_TEST(holds(mem, o));
  BOOST_TEST(mem.transports == 0);
  BOOST_TEST(init->dmi_writes() == 1u);
  BOOST_TEST(o.written == kDelivery + 5 * kNs);
}

// A memory of 16 KB and a message for 0x2340 + 10000 bytes beyond it: the memory answers
// TLM_ADDRESS_ERROR_RESPONSE; the HCA reports it (the host, the sender, the address) and still
// completes, so the platform is not left waiting.
BOOST_AUTO_TEST_CASE(address_error_reported) {
  Memory mem("mem", 16384, sc_core::SC_ZERO_TIME);
  models::HcaTlmInitiator* init = nullptr;
  const Outcome o = run(mem, models::HcaTlmInitiator::Style::Lt, tb::MpiHost::Style::Lt, kAddr, &init);
  BOOST_TEST(mem.transports == 1);
  BOOST_TEST(o.written == kDelivery);
  BOOST_TEST_REQUIRE(init->errors().size() == 1u);
  BOOST_TEST(init->errors()[0] ==
             "hca_1_mem: host 1 could not write the message from host 0 (10000 bytes at address 9024) into its "
             "memory: TLM_ADDRESS_ERROR_RESPONSE");
}
