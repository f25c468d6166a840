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
// Looked up without a copy: 2,048 switches with equal tables copy none.
std::shared_ptr<const std::vector<Vl>> shared_table(const std::vector<Vl>& table) {
  Registry& r = registry();
  forget_unused(r);
  auto it = r.find(table);
  if (it != r.end())
    if (auto t = it->second.lock()) return t;
  auto t = std::make_shared<const std::vector<Vl>>(table);
  r[table] = t;
  return t;
}
}  // namespace

void Sl2VlLookup::configure(const routing::Sl2VlTable& table) {
  ports_ = static_cast<uint32_t>(table.num_ports()) + 1;
  vl2vl_ = table.key() == routing::Sl2VlTable::Key::InputVl;
  // The routing table's layout is already the look-up's: [in port][out port][SL or VL].
  table_ = shared_table(table.flat());
  data_ = table_->data();
}

size_t Sl2VlLookup::shared_tables() {
  Registry& r = registry();
  forget_unused(r);
  return r.size();
}

}  // namespace ibsc::models
