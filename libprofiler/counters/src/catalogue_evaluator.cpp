#include "catalogue_evaluator.hpp"

namespace rocprof::counters {

result<counter_value> catalogue_evaluator::value_of(std::string_view name) const {
  const std::string key(name);
  if (const auto hit = cache_.find(key); hit != cache_.end()) return hit->second;
  if (const auto b = catalogue_.base_index_.find(key); b != catalogue_.base_index_.end()) {
    auto value = get_(catalogue_.base_[b->second]);
    if (value) cache_.emplace(key, *value);
    return value;
  }
  const auto d = catalogue_.derived_index_.find(key);
  if (d == catalogue_.derived_index_.end()) return error{catalogue_.unavailable_message(name)};
  auto value = evaluate_derived(key, catalogue_.derived_[d->second]);
  if (value) return value;
  // Say which counter and where in its expression; the offset belongs to that expression, so
  // it does not travel further up.
  const auto& f = value.failure();
  std::string where;
  if (f.offset != std::string::npos) where = " (offset " + std::to_string(f.offset) + ")";
  return error{"counter '" + key + "'" + where + ": " + f.message};
}

result<counter_value> catalogue_evaluator::evaluate_derived(
    const std::string& name, const agent_catalogue::derived_counter& d) const {
  const auto& def = catalogue_.definition_of(d);
  auto value = evaluate(*def.parsed, *this);
  if (value) cache_.emplace(name, *value);
  return value;
}

}  // namespace rocprof::counters
