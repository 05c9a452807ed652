// Questions asked of a built catalogue: lookups, why a name is not offered, which base counters
// a request needs, and evaluation for one dispatch. Also the process-wide id registry.
#include <unordered_set>

#include "catalogue_evaluator.hpp"
#include "rocprof/counters/catalogue.hpp"
#include "rocprof/counters/suggest.hpp"

namespace rocprof::counters {

uint64_t counter_id_registry::id_of(std::string_view name) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = ids_.find(std::string(name));
  if (it != ids_.end()) return it->second;
  names_.emplace_back(name);
  const uint64_t id = names_.size();
  ids_.emplace(names_.back(), id);
  return id;
}

std::optional<std::string> counter_id_registry::name_of(uint64_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (id == 0 || id > names_.size()) return std::nullopt;
  return names_[id - 1];
}

const counter_info* agent_catalogue::find(std::string_view name) const {
  const auto it = offered_by_name_.find(std::string(name));
  return it == offered_by_name_.end() ? nullptr : &offered_[it->second];
}

const counter_info* agent_catalogue::find(uint64_t id) const {
  const auto it = offered_by_id_.find(id);
  return it == offered_by_id_.end() ? nullptr : &offered_[it->second];
}

std::string agent_catalogue::why_unavailable(std::string_view name) const {
  if (find(name) != nullptr) return {};
  const auto it = unavailable_.find(std::string(name));
  return it == unavailable_.end() ? std::string() : it->second;
}

std::string agent_catalogue::unavailable_message(std::string_view name) const {
  const std::string quoted = "counter '" + std::string(name) + "'";
  if (const auto reason = why_unavailable(name); !reason.empty())
    return quoted + " is not available on agent " + architecture_ + ": " + reason;
  std::string out = "unknown " + quoted + " on agent " + architecture_;
  const auto close = closest_names(name);
  if (close.empty()) return out + " (no similar names)";
  out += "; closest names: ";
  for (size_t i = 0; i < close.size(); ++i)
    out += (i == 0 ? "" : ", ") + close[i];
  return out;
}

std::vector<std::string> agent_catalogue::closest_names(std::string_view name, size_t limit) const {
  std::vector<std::string_view> names;
  names.reserve(offered_.size());
  for (const auto& info : offered_)
    names.emplace_back(info.name);
  return counters::closest_names(name, names, limit);
}

result<std::vector<std::string>> agent_catalogue::required_base_counters(
    std::string_view name) const {
  return required_base_counters(std::vector<std::string>{std::string(name)});
}

result<std::vector<std::string>> agent_catalogue::required_base_counters(
    const std::vector<std::string>& names) const {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  // Depth-first over references with an explicit stack; derived counters are known acyclic.
  std::vector<std::string> stack(names.rbegin(), names.rend());
  for (const auto& n : names)
    if (find(n) == nullptr) return error{unavailable_message(n)};
  while (!stack.empty()) {
    std::string name = std::move(stack.back());
    stack.pop_back();
    if (!seen.insert(name).second) continue;
    if (const auto b = base_index_.find(name); b != base_index_.end()) {
      if (!base_[b->second].is_constant) out.push_back(name);
      continue;
    }
    const auto d = derived_index_.find(name);
    if (d == derived_index_.end()) return error{unavailable_message(name)};
    const auto refs = definition_of(derived_[d->second]).parsed->references();
    stack.insert(stack.end(), refs.rbegin(), refs.rend());
  }
  return out;
}

namespace {

catalogue_evaluator::base_getter collected(const base_value_lookup& values) {
  return [&values](const base_counter& b) -> result<counter_value> {
    if (b.is_constant) return counter_value::filled(b.dimensions, b.constant_value);
    const counter_value* v = values ? values(b.name) : nullptr;
    if (v == nullptr) return error{"no value was collected for '" + b.name + "'"};
    return *v;
  };
}

}  // namespace

result<counter_value> agent_catalogue::evaluate(std::string_view name,
                                                const base_value_lookup& values) const {
  if (find(name) == nullptr) return error{unavailable_message(name)};
  return catalogue_evaluator(*this, collected(values)).value_of(name);
}

result<std::vector<counter_value>> agent_catalogue::evaluate(
    const std::vector<std::string>& names, const base_value_lookup& values) const {
  catalogue_evaluator evaluator(*this, collected(values));
  std::vector<counter_value> out;
  out.reserve(names.size());
  for (const auto& name : names) {
    if (find(name) == nullptr) return error{unavailable_message(name)};
    auto v = evaluator.value_of(name);
    if (!v) return v.failure();
    out.push_back(std::move(v).value());
  }
  return out;
}

}  // namespace rocprof::counters
