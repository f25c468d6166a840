#include "models/hca_tlm_target.h"

#include <cstring>
#include <memory>

namespace ibsc::models {

HcaTlmTarget::HcaTlmTarget(sc_core::sc_module_name name, int host, MessageLayer& layer)
    : sc_module(name), socket("socket"), host_(host), layer_(layer), done_("done"), peq_(this, &HcaTlmTarget::peq_cb) {
  socket.register_b_transport(this, &HcaTlmTarget::b_transport);
  socket.register_nb_transport_fw(this, &HcaTlmTarget::nb_transport_fw);
  socket.register_transport_dbg(this, &HcaTlmTarget::transport_dbg);
}

bool HcaTlmTarget::start(tlm::tlm_generic_payload& gp, std::function<void(const Message&)> done) {
  const uint64_t addr = gp.get_address() & ((uint64_t{1} << kTlmHostShift) - 1);
  const uint64_t host = gp.get_address() >> kTlmHostShift;
  const unsigned len = gp.get_data_length();
  if (gp.get_byte_enable_ptr()) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  if (gp.get_streaming_width() < len) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (gp.is_read()) {
    if ((host != 0 && host != static_cast<uint64_t>(host_)) || addr > layer_.memory_bytes() ||
        len > layer_.memory_bytes() - addr) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return false;
    }
    std::memcpy(gp.get_data_ptr(), layer_.memory(host_) + addr, len);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }
  if (!gp.is_write()) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return false;
  }
  try {
    layer_.post(host_, static_cast<int>(std::min<uint64_t>(host, INT32_MAX)), addr, gp.get_data_ptr(), len,
                std::move(done));
  } catch (const std::invalid_argument&) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);  // OK once complete
  return true;
}

void HcaTlmTarget::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  sc_core::wait(delay);  // the host's local time catches up before the fabric sees the message
  delay = sc_core::SC_ZERO_TIME;
  auto finished = std::make_shared<bool>(false);
  if (!start(gp, [this, finished](const Message&) {
        *finished = true;
        done_.notify(sc_core::SC_ZERO_TIME);
      }))
    return;
  if (gp.is_read()) return;
  while (!*finished) sc_core::wait(done_);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum HcaTlmTarget::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                 sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    if (gp.has_mm()) gp.acquire();
    peq_.notify(gp, phase, delay);  // posted after the annotated delay
    phase = tlm::END_REQ;
    delay = sc_core::SC_ZERO_TIME;
    return tlm::TLM_UPDATED;
  }
  if (phase == tlm::END_RESP) {
    if (gp.has_mm()) gp.release();
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_ERROR("ibsc/hca_tlm_target", "nb_transport_fw: unexpected phase");
  return tlm::TLM_COMPLETED;
}

void HcaTlmTarget::peq_cb(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase) {
  if (phase != tlm::BEGIN_REQ) return;
  // The response: at once for a read or a refused request, at the message's completion for a write.
  auto respond = [this](tlm::tlm_generic_payload& g) {
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    // Read before the call: an initiator without a memory manager may free the payload as soon
    // as it has its response (MpiHost does), so g must not be touched after a completed call.
    const bool mm = g.has_mm();
    const tlm::tlm_sync_enum s = socket->nb_transport_bw(g, ph, t);
    // Ended now (TLM_COMPLETED, or END_RESP returned); otherwise END_RESP comes on the forward path.
    if ((s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::END_RESP)) && mm) g.release();
  };
  tlm::tlm_generic_payload* g = &gp;
  const bool posted = start(gp, [g, respond](const Message&) {
    g->set_response_status(tlm::TLM_OK_RESPONSE);
    respond(*g);
  });
  if (!posted || gp.is_read()) respond(gp);
}

unsigned int HcaTlmTarget::transport_dbg(tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address() & ((uint64_t{1} << kTlmHostShift) - 1);
  if (addr >= layer_.memory_bytes()) return 0;
  const unsigned n = static_cast<unsigned>(std::min<uint64_t>(gp.get_data_length(), layer_.memory_bytes() - addr));
  if (gp.is_read()) std::memcpy(gp.get_data_ptr(), layer_.memory(host_) + addr, n);
  else if (gp.is_write()) std::memcpy(layer_.memory(host_) + addr, gp.get_data_ptr(), n);
  else return 0;
  return n;
}

}  // namespace ibsc::models
