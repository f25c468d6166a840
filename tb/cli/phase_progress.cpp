#include "tb/cli/phase_progress.h"

#include <cstdio>

namespace ibsc::tb {

PhaseProgress::PhaseProgress(std::string what, std::chrono::milliseconds first, std::chrono::milliseconds every)
    : what_(std::move(what)), start_(std::chrono::steady_clock::now()) {
  thread_ = std::thread([this, first, every] { watch(first, every); });
}

void PhaseProgress::watch(std::chrono::milliseconds first, std::chrono::milliseconds every) {
  std::unique_lock<std::mutex> lock(m_);
  if (what_.empty()) return;  // quiet
  auto next = start_ + first;
  while (!cv_.wait_until(lock, next, [this] { return done_; })) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "%s: %.0f s ...\n", what_.c_str(), s);
    std::fflush(stderr);
    printed_ = true;
    next += every;
  }
}

PhaseProgress::~PhaseProgress() {
  {
    std::lock_guard<std::mutex> lock(m_);
    done_ = true;
  }
  cv_.notify_one();
  thread_.join();
  if (printed_) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "%s: done in %.1f s\n", what_.c_str(), s);
  }
}

}  // namespace ibsc::tb
