#include "routing/digest.h"

#include <cstdio>

namespace ibsc::routing {

std::string digest_hex(std::string_view bytes) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(bytes.data(), bytes.size())));
  return hex;
}

}  // namespace ibsc::routing
