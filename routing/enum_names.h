// Names of a choice enum, written once. Next to each enum E that a scenario key or a CLI option
// chooses, one table of its values and their words, found by argument-dependent look-up:
//   enum class LineCoding { Ib8b10b, Ib64b66b };
//   inline constexpr EnumName<LineCoding> kLineCodingNames[] = {
//       {LineCoding::Ib8b10b, "8b10b"},
//       {LineCoding::Ib64b66b, "64b66b"},
//   };
//   constexpr const auto& enum_names(LineCoding) { return kLineCodingNames; }
// enum_name, parse_enum and enum_choices read only that table, so the scenario reader's
// choices, error messages, results.json and `ibsc keys` all say the same words, in the table's
// order. Adding a value is one enumerator and one row. Plain C++17 (routing/ and models/ use it).
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "routing/input_file.h"

namespace ibsc {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

// The word for e; std::logic_error when the table lacks e (a row forgotten).
template <class E>
std::string enum_name(E e) {
  for (const EnumName<E>& n : enum_names(E{}))
    if (n.value == e) return n.name;
  throw std::logic_error("enum_name: a value without a name in its table");
}

// The value named `word`; nullopt when no row has it.
template <class E>
std::optional<E> parse_enum(std::string_view word) {
  for (const EnumName<E>& n : enum_names(E{}))
    if (word == n.name) return n.value;
  return std::nullopt;
}

// Every word, in the table's order.
template <class E>
std::vector<std::string> enum_choices() {
  std::vector<std::string> words;
  for (const EnumName<E>& n : enum_names(E{})) words.emplace_back(n.name);
  return words;
}

// "a, b, c": the choices for a message.
template <class E>
std::string enum_choice_list() {
  std::string list;
  for (const EnumName<E>& n : enum_names(E{})) list += (list.empty() ? "" : ", ") + std::string(n.name);
  return list;
}

// The value named `word`; std::invalid_argument "'word' is not one of: a, b" when no row has it
// (a name given in code or on a command line; the scenario reader names the key itself).
template <class E>
E enum_value(std::string_view word) {
  if (const std::optional<E> v = parse_enum<E>(word)) return *v;
  throw std::invalid_argument("'" + routing::printable(word) + "' is not one of: " + enum_choice_list<E>());
}

}  // namespace ibsc
