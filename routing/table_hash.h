// A 64-bit fingerprint of a whole table set: every LFT entry (plain, per input VL, and the
// compact pool's arrays with each switch's DLID -> column), every SL2VL / VL2VL entry, LIDs,
// host SL2VLs and every path record. Two table sets with equal fingerprints program the same
// fabric; tests pin the fingerprints of the routings so that a faster build of the tables is
// held to the same bits. Shared path rows and pools are hashed once each.
#pragma once
#include <cstdint>

#include "routing/tables.h"

namespace ibsc::routing {

uint64_t table_fingerprint(const TableSet& ts);

}  // namespace ibsc::routing
