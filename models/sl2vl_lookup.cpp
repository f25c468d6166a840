#include "models/sl2vl_lookup.h"

#include <iterator>
#include <map>

namespace ibsc::models {

namespace {
using Registry = std::map<std::vector<Vl>, std::weak_ptr<const std::vector<Vl>>>;
Registry& registry() {
  static Registry r;
  return r;
}
void forget_unused(Registry& r) {
  for (auto it = r.begin(); it != r.end();) it = it->second.expired() ? r.erase(it) : std::next(it);
}
std::shared_ptr<const std::vector<Vl>> shared_table(std::vector<Vl> table) {
  Registry& r = registry();
  forget_unused(r);
  auto& slot = r[table];
  if (auto t = slot.lock()) return t;
  auto t = std::make_shared<const std::vector<Vl>>(std::move(table));
  slot = t;
  return t;
}
}  // namespace

void Sl2VlLookup::configure(const routing::Sl2VlTable& table) {
  ports_ = static_cast<uint32_t>(table.num_ports()) + 1;
  vl2vl_ = table.key() == routing::Sl2VlTable::Key::InputVl;
  std::vector<Vl> flat;
  flat.reserve(ports_ * ports_ * kNumSls);
  for (size_t in = 0; in < ports_; ++in)
    for (size_t out = 0; out < ports_; ++out)
      for (int k = 0; k < kNumSls; ++k) flat.push_back(table.get(static_cast<int>(in), static_cast<int>(out), k));
  table_ = shared_table(std::move(flat));
  data_ = table_->data();
}

size_t Sl2VlLookup::shared_tables() {
  Registry& r = registry();
  forget_unused(r);
  return r.size();
}

}  // namespace ibsc::models
