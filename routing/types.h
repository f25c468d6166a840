// Basic IBA identifiers shared by the routing library and the fabric model.
#pragma once
#include <cstdint>

namespace ibsc {

using Lid = uint16_t;     // local identifier (unicast range 1..0xBFFF)
using PortNum = uint8_t;  // physical port number; 0 is a switch's management port
using Sl = uint8_t;       // service level, 0..15
using Vl = uint8_t;       // virtual lane, 0..14 data, 15 management

constexpr int kNumSls = 16;
constexpr int kMaxDataVls = 15;
constexpr uint32_t kMaxMtuBytes = 4096;  // the largest IBA MTU: the longest packet here
constexpr Vl kManagementVl = 15;
constexpr PortNum kNoPort = 0xFF;

}  // namespace ibsc
