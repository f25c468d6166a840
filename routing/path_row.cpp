#include "routing/path_row.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace ibsc::routing {

void PathRow::assign(size_t n) {
  d_ = std::make_shared<Data>();
  hidden_ = kNone;
  d_->size = n;
  d_->one.assign(n, PathRecord{});
}

void PathRow::assign(std::vector<PathRecord> one) {
  d_ = std::make_shared<Data>();
  hidden_ = kNone;
  d_->size = one.size();
  d_->one = std::move(one);
}

PathRow::Data& PathRow::own() {
  if (!d_) throw std::logic_error("path row written before assign()");
  if (d_.use_count() > 1) d_ = std::make_shared<Data>(*d_);
  if (hidden_ != kNone) {  // the private copy leaves it out for real
    const size_t h = hidden_;
    hidden_ = kNone;
    clear(h);
  }
  return *d_;
}

void PathRow::to_lists(Data& d) const {
  d.at.resize(d.size);
  d.count.resize(d.size);
  d.many.clear();
  d.many.reserve(d.size);
  for (size_t q = 0; q < d.size; ++q) {
    d.at[q] = static_cast<uint32_t>(d.many.size());
    d.count[q] = d.one[q].dlid != 0;
    if (d.count[q]) d.many.push_back(d.one[q]);
  }
  d.one.clear();
  d.one.shrink_to_fit();
}

void PathRow::set(size_t dst, PathRecord r) {
  Data& d = own();
  if (d.at.empty() && r.dlid != 0) {
    d.one[dst] = r;
    return;
  }
  set(dst, &r, &r + (r.dlid != 0));
}

void PathRow::set(size_t dst, const PathRecord* b, const PathRecord* e) {
  Data& d = own();
  const size_t n = static_cast<size_t>(e - b);
  if (n > 255) throw std::invalid_argument("over 255 path records for one host pair");
  if (d.at.empty()) {
    if (n <= 1) {
      d.one[dst] = n ? *b : PathRecord{};
      if (!n || b->dlid != 0) return;
    }
    to_lists(d);
  }
  // In place when the new list fits the old one's room; else at the end (the old room is left
  // unused: rows with alternates are built once, destination by destination).
  if (n > d.count[dst]) d.at[dst] = static_cast<uint32_t>(d.many.size()), d.many.resize(d.many.size() + n);
  std::copy(b, e, d.many.begin() + d.at[dst]);
  d.count[dst] = static_cast<uint8_t>(n);
}

void PathRow::add(size_t dst, PathRecord r) {
  Data& d = own();
  if (d.at.empty()) {
    if (d.one[dst].dlid == 0 && r.dlid != 0) {
      d.one[dst] = r;
      return;
    }
    to_lists(d);
  }
  const size_t n = d.count[dst];
  if (n == 255) throw std::invalid_argument("over 255 path records for one host pair");
  if (d.at[dst] + n != d.many.size()) {  // not last: move the list to the end first
    const size_t from = d.at[dst];
    d.at[dst] = static_cast<uint32_t>(d.many.size());
    for (size_t i = 0; i < n; ++i) d.many.push_back(d.many[from + i]);
  }
  d.many.push_back(r);
  ++d.count[dst];
}

void PathRow::set_sl(size_t dst, size_t i, Sl sl) {
  Data& d = own();
  if (i >= (*this)[dst].size())
    throw std::out_of_range("path record " + std::to_string(i) + " of destination " + std::to_string(dst));
  (d.at.empty() ? d.one[dst] : d.many[d.at[dst] + i]).sl = sl;
}

}  // namespace ibsc::routing
