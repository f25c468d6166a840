// The switch arbiter interface is public (a user's own arbiter implements it): it lives with
// the installed headers, api/include/ibsc/switch_arbiter.h.
#pragma once
#include "ibsc/switch_arbiter.h"
