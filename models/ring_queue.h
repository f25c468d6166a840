// FIFO on a growable ring buffer: the queues on the hot path (VL buffers, credit trains)
// never allocate once warmed up, unlike std::deque, which allocates and frees chunks as it
// moves; only a queue told to (release_storage) gives its storage back.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace ibsc::models {

template <class T>
class RingQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& back() { return buf_[(head_ + size_ - 1) & mask_]; }
  const T& back() const { return buf_[(head_ + size_ - 1) & mask_]; }
  T& operator[](size_t i) { return buf_[(head_ + i) & mask_]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & mask_]; }
  void push_back(const T& v) {
    if (__builtin_expect(size_ == cap_, 0)) grow();
    buf_[(head_ + size_) & mask_] = v;
    ++size_;
  }
  // A new last element, to be filled in place by the caller (its fields written one by one,
  // rather than a whole record built elsewhere and copied).
  T& emplace_back() {
    if (__builtin_expect(size_ == cap_, 0)) grow();
    T& slot = buf_[(head_ + size_) & mask_];
    ++size_;
    return slot;
  }
  void pop_front() {
    head_ = (head_ + 1) & mask_;
    --size_;
  }
  void clear() { head_ = size_ = 0; }
  // Removes element i, keeping the order of the others (cold: a scheduler passing a head).
  void erase_at(size_t i) {
    for (; i + 1 < size_; ++i) (*this)[i] = (*this)[i + 1];
    --size_;
  }

  class const_iterator {
   public:
    const_iterator(const RingQueue* q, size_t i) : q_(q), i_(i) {}
    const T& operator*() const { return (*q_)[i_]; }
    const T* operator->() const { return &(*q_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    const RingQueue* q_;
    size_t i_;
  };
  // Gives the storage back (only when empty): for queues idle far longer than they are busy.
  void release_storage() {
    if (size_ == 0) {
      buf_.reset();
      head_ = mask_ = cap_ = 0;
    }
  }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

 private:
  // Out of line: inlined, it would make every push_back's caller save registers it rarely needs.
  [[gnu::noinline]] void grow() {
    const uint32_t cap = cap_ ? cap_ * 2 : 8;
    std::unique_ptr<T[]> n(new T[cap]);
    for (uint32_t i = 0; i < size_; ++i) n[i] = buf_[(head_ + i) & mask_];
    buf_ = std::move(n);
    head_ = 0;
    cap_ = cap;
    mask_ = cap - 1;
  }
  // 24 bytes: the queues sit inside per-VL records that should stay within a cache line.
  std::unique_ptr<T[]> buf_;
  uint32_t head_ = 0, size_ = 0, mask_ = 0, cap_ = 0;
};

}  // namespace ibsc::models
