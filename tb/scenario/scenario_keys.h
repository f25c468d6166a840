// The scenario keys: every key a scenario may set, declared once (tb/scenario/param_key.h) with its
// type, default, range or choices, unit, help and echo policy, in reading order. tb/scenario/scenario.cpp
// reads each through KeyReader; `ibsc keys --markdown` prints them as the README's table.
//
// Adding a key:
//  1. one declaration in tb/scenario/scenario_keys.cpp, where it is read (the order of the README table),
//     its default taken from the parameter struct's field, e.g.
//       int_key("switch.output_request_queue", sw.output_request_queue, 0, 64, "packets",
//               "requests an output port queues").when_set(),
//     (.when_set() for a new key, so results.json of older scenarios keeps its bytes);
//  2. the reading line in tb/scenario/scenario.cpp:
//       sw.output_request_queue = r.get<int>("switch.output_request_queue");
//     (a choice: an enum with its name table, routing/enum_names.h, declared as
//     choice_key("key", field, "help") and read with r.get<TheEnum>("key"));
//  3. checks beyond the range in the struct's validate(), as throw ParamError("key", "key must ...");
//  4. regenerate the README table: cmake -DIBSC=build/tb/ibsc -DREADME=README.md -DUPDATE=ON
//     -P tests/tb/readme_keys.cmake.
#pragma once
#include <vector>

#include "tb/scenario/param_key.h"

namespace ibsc::tb {

const std::vector<Key>& scenario_keys();

}  // namespace ibsc::tb
