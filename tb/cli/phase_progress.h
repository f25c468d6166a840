// Progress of a long phase that has no steps of its own to report (routing a fabric, checking
// its tables): silent when the phase ends within a few seconds, so quick commands print as
// before; otherwise a line on stderr when it has run 3 s, one every 15 s after, and one when it
// ends, with the elapsed time, as a run prints its load points. A helper thread does the
// printing; the phase itself is not touched.
#pragma once
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace ibsc::tb {

class PhaseProgress {
 public:
  // `what`: "ibsc route: routing dor on 5432 switches" (printed as is, then ": 3 s ..."); "":
  // silent (--quiet).
  explicit PhaseProgress(std::string what, std::chrono::milliseconds first = std::chrono::seconds(3),
                         std::chrono::milliseconds every = std::chrono::seconds(15));
  ~PhaseProgress();  // joins the thread; prints "...: done in X s" if anything was printed
  PhaseProgress(const PhaseProgress&) = delete;
  PhaseProgress& operator=(const PhaseProgress&) = delete;

 private:
  void watch(std::chrono::milliseconds first, std::chrono::milliseconds every);
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  bool printed_ = false;
  std::thread thread_;
};

}  // namespace ibsc::tb
