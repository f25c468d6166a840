#include "models/hca_tlm_initiator.h"

#include <cstring>

namespace ibsc::models {

HcaTlmInitiator::HcaTlmInitiator(sc_core::sc_module_name name, int host, int hosts, MessageLayer& layer, Style style)
    : sc_module(name),
      socket("socket"),
      host_(host),
      layer_(layer),
      style_(style),
      queued_("queued"),
      written_("written"),
      responded_("responded"),
      written_from_(hosts, 0) {
  socket.register_nb_transport_bw(this, &HcaTlmInitiator::nb_transport_bw);
  socket.register_invalidate_direct_mem_ptr(this, &HcaTlmInitiator::invalidate_direct_mem_ptr);
  layer_.on_delivery(host, [this](const Message& m) { delivered(m); });
  SC_HAS_PROCESS(HcaTlmInitiator);
  SC_THREAD(run);
}

void HcaTlmInitiator::delivered(const Message& m) {
  const uint8_t* at = layer_.memory(host_) + m.addr;
  queue_.push_back({m.src, m.addr, m.delivered_at, std::vector<uint8_t>(at, at + m.bytes)});
  queued_.notify(sc_core::SC_ZERO_TIME);
}

void HcaTlmInitiator::run() {
  while (true) {
    while (queue_.empty()) sc_core::wait(queued_);
    Delivery d = std::move(queue_.front());
    queue_.pop_front();
    if (d.at > now_ps()) sc_core::wait(to_sc(d.at - now_ps()));  // not before its delivery cycle
    if (socket.size() > 0) write(d);
    ++written_from_[d.src];
    written_.notify(sc_core::SC_ZERO_TIME);
  }
}

void HcaTlmInitiator::write(Delivery& d) {
  ++writes_;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  if (write_dmi(d, delay)) {
    sc_core::wait(delay);
    return;
  }
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(d.addr);
  gp.set_data_ptr(d.bytes.data());
  gp.set_data_length(static_cast<unsigned>(d.bytes.size()));
  gp.set_streaming_width(static_cast<unsigned>(d.bytes.size()));
  gp.set_byte_enable_ptr(nullptr);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  transport(gp, delay);
  sc_core::wait(delay);
  if (!gp.is_response_ok())
    errors_.push_back(std::string(name()) + ": host " + std::to_string(host_) +
                      " could not write the message from host " + std::to_string(d.src) + " (" +
                      std::to_string(d.bytes.size()) + " bytes at address " + std::to_string(d.addr) +
                      ") into its memory: " + gp.get_response_string());
  if (gp.is_dmi_allowed() && !dmi_valid_) dmi_asked_ = false;  // the target offers DMI: ask again
}

// A DMI pointer with write access covering the range takes the bytes; asked for once (and again
// when the target hints at it or invalidates it). False: the socket's transport must do it.
bool HcaTlmInitiator::write_dmi(Delivery& d, sc_core::sc_time& latency) {
  if (d.bytes.empty()) return false;
  if (!dmi_asked_) {
    dmi_asked_ = true;
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(d.addr);
    dmi_.init();
    dmi_valid_ = socket->get_direct_mem_ptr(gp, dmi_) && dmi_.is_write_allowed();
  }
  const uint64_t last = d.addr + d.bytes.size() - 1;
  if (!dmi_valid_ || d.addr < dmi_.get_start_address() || last > dmi_.get_end_address()) return false;
  std::memcpy(dmi_.get_dmi_ptr() + (d.addr - dmi_.get_start_address()), d.bytes.data(), d.bytes.size());
  ++dmi_writes_;
  latency = dmi_.get_write_latency();
  return true;
}

// One write through the socket in the chosen style; `delay`: the time, from now, it is done.
void HcaTlmInitiator::transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (style_ == Style::Lt) {
    socket->b_transport(gp, delay);
    return;
  }
  response_ = false;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  const tlm::tlm_sync_enum s = socket->nb_transport_fw(gp, phase, delay);
  if (s == tlm::TLM_COMPLETED) return;
  if (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {  // answered at once
    tlm::tlm_phase end = tlm::END_RESP;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    socket->nb_transport_fw(gp, end, zero);
    return;
  }
  while (!response_) sc_core::wait(responded_);  // BEGIN_RESP on the backward path, at its time
  delay = sc_core::SC_ZERO_TIME;
}

tlm::tlm_sync_enum HcaTlmInitiator::nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase,
                                                    sc_core::sc_time& delay) {
  if (phase == tlm::END_REQ) return tlm::TLM_ACCEPTED;
  if (phase != tlm::BEGIN_RESP) {
    errors_.push_back(std::string(name()) + ": unexpected phase on the backward path");
    return tlm::TLM_COMPLETED;
  }
  response_ = true;
  responded_.notify(delay);
  return tlm::TLM_COMPLETED;  // no END_RESP needed
}

void HcaTlmInitiator::invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) {
  dmi_valid_ = false;
  dmi_asked_ = false;
}

}  // namespace ibsc::models
