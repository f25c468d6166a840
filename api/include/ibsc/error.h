// The one exception type of IBSC's public API (ibsc/ibsc.h, ibsc/cosim.h).
#pragma once
#include <stdexcept>

namespace ibsc {

// Bad scenario (file, line, key in the message), a request the fabric cannot honour, or options
// a co-verification cannot run.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ibsc
