#include "tb/mpi/mpi_host.h"

#include <stdexcept>

#include "models/hca_tlm_target.h"

namespace ibsc::tb {

MpiHost::MpiHost(sc_core::sc_module_name name, int rank, int ranks, Style style, models::MessageLayer& layer,
                 std::function<void(MpiHost&)> body, std::vector<TraceRecord>* trace)
    : sc_module(name),
      socket("socket"),
      rank_(rank),
      ranks_(ranks),
      style_(style),
      layer_(layer),
      body_(std::move(body)),
      trace_(trace),
      answered_("answered") {
  socket.register_nb_transport_bw(this, &MpiHost::nb_transport_bw);
  SC_THREAD(main);
}

void MpiHost::main() {
  body_(*this);
  wait_sends();
  finished_ = true;
  end_ps_ = models::now_ps();
}

void MpiHost::check_ok(const tlm::tlm_generic_payload& gp, const char* what) {
  if (!gp.is_response_ok())
    throw std::runtime_error(std::string(name()) + ": " + what + " refused: " + gp.get_response_string());
}

void MpiHost::send(int dst, uint64_t addr, const std::vector<uint8_t>& data) {
  if (trace_) trace_->push_back({models::now_ps() / 1000.0, rank_, dst, static_cast<uint32_t>(data.size())});
  bytes_sent_ += data.size();
  pending_.emplace_back();
  Pending& p = pending_.back();
  p.data = data;
  tlm::tlm_generic_payload& gp = p.gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(models::tlm_host_address(dst, addr));
  gp.set_data_ptr(p.data.data());
  gp.set_data_length(static_cast<unsigned>(p.data.size()));
  gp.set_streaming_width(static_cast<unsigned>(p.data.size()));
  gp.set_byte_enable_ptr(nullptr);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  if (style_ == Style::Lt) {
    socket->b_transport(gp, delay);
    check_ok(gp, "write");
    pending_.pop_back();
    return;
  }
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  const tlm::tlm_sync_enum s = socket->nb_transport_fw(gp, phase, delay);
  if (s == tlm::TLM_COMPLETED) {  // refused at once
    check_ok(gp, "write");
    pending_.pop_back();
  }
}

tlm::tlm_sync_enum MpiHost::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time&) {
  if (phase != tlm::BEGIN_RESP) throw std::logic_error(std::string(name()) + ": unexpected phase on the backward path");
  check_ok(gp, "write");
  for (auto it = pending_.begin(); it != pending_.end(); ++it)
    if (&it->gp == &gp) {
      pending_.erase(it);
      break;
    }
  answered_.notify(sc_core::SC_ZERO_TIME);
  return tlm::TLM_COMPLETED;  // no END_RESP needed
}

void MpiHost::wait_sends() {
  while (!pending_.empty()) sc_core::wait(answered_);
}

void MpiHost::wait_from(int src, uint64_t count) {
  while (layer_.arrivals(rank_, src) < count) sc_core::wait(layer_.arrival_event(rank_));
}

std::vector<uint8_t> MpiHost::read(uint64_t addr, uint32_t bytes) {
  std::vector<uint8_t> out(bytes);
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(models::tlm_host_address(rank_, addr));
  gp.set_data_ptr(out.data());
  gp.set_data_length(bytes);
  gp.set_streaming_width(bytes);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(gp, delay);
  check_ok(gp, "read");
  return out;
}

void MpiHost::wait_until_ns(double t_ns) {
  const models::Picos t = static_cast<models::Picos>(t_ns * 1000.0 + 0.5);
  if (t > models::now_ps()) sc_core::wait(models::to_sc(t - models::now_ps()));
}

}  // namespace ibsc::tb
