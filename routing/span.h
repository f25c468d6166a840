// A read-only run of contiguous elements (C++17 has no std::span): the candidates of an LFT
// entry, the path records of a host pair.
#pragma once
#include <cstddef>

namespace ibsc::routing {

template <class T>
struct Span {
  const T* b = nullptr;
  const T* e = nullptr;
  const T* begin() const { return b; }
  const T* end() const { return e; }
  size_t size() const { return static_cast<size_t>(e - b); }
  bool empty() const { return b == e; }
  const T& operator[](size_t i) const { return b[i]; }
  const T& front() const { return *b; }
  const T& back() const { return e[-1]; }
};

}  // namespace ibsc::routing
