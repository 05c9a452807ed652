#include "native_counters.hpp"

#include <nlohmann/json.hpp>

namespace rocprof::cli {

void native_listing::index() {
  by_name_.clear();
  for (size_t i = 0; i < counters.size(); ++i)
    by_name_.emplace(counters[i].name, i);
  full_names_.clear();
}

const native_counter* native_listing::base_of(std::string_view full_name,
                                              std::string* suffix) const {
  // A base name may itself contain dots (LTS.TriageCompute.lts__...): try every split, longest
  // base first, and take the first whose suffix set lists the rest.
  const native_counter* recognised = nullptr;
  std::string rest;
  size_t dot = full_name.size();
  while (true) {
    const auto it = by_name_.find(std::string(full_name.substr(0, dot)));
    if (it != by_name_.end()) {
      const native_counter& base = counters[it->second];
      const std::string candidate(full_name.substr(dot));
      if (recognised == nullptr) {
        recognised = &base;
        rest = candidate;
      }
      if (base.suffix_set < suffix_sets.size()) {
        for (const auto& s : suffix_sets[base.suffix_set]) {
          if (s == candidate) {
            if (suffix != nullptr) *suffix = candidate;
            return &base;
          }
        }
      }
    }
    if (dot == 0) break;
    dot = full_name.rfind('.', dot - 1);
    if (dot == std::string_view::npos) break;
  }
  if (suffix != nullptr) *suffix = rest;
  return recognised;
}

bool native_listing::has(std::string_view full_name) const {
  std::string suffix;
  const native_counter* base = base_of(full_name, &suffix);
  if (base == nullptr || base->suffix_set >= suffix_sets.size()) return false;
  for (const auto& s : suffix_sets[base->suffix_set])
    if (s == suffix) return true;
  return false;
}

std::string native_listing::why_not(std::string_view full_name) const {
  std::string suffix;
  const native_counter* base = base_of(full_name, &suffix);
  if (base == nullptr || has(full_name)) return {};
  if (suffix.empty())
    return "'" + base->name +
           "' is a base metric: add one of its roll-ups or sub-metrics (.sum, .avg, .max, ...)";
  return "'" + suffix + "' is not a roll-up or sub-metric of " + base->name;
}

const std::vector<std::string>& native_listing::full_names() const {
  if (full_names_.empty()) {
    for (const auto& c : counters) {
      if (c.suffix_set >= suffix_sets.size()) continue;
      for (const auto& s : suffix_sets[c.suffix_set])
        full_names_.push_back(c.name + s);
    }
  }
  return full_names_;
}

native_listing parse_native_listing(std::string_view json) {
  native_listing out;
  const auto doc = nlohmann::json::parse(json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    out.error = "the backend's counter listing is not JSON";
    return out;
  }
  const auto text = [](const nlohmann::json& node, const char* key) {
    const auto it = node.find(key);
    return it != node.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  out.chip = text(doc, "chip");
  out.architecture = text(doc, "architecture");
  out.error = text(doc, "error");
  if (const auto it = doc.find("max_hardware_metrics_per_pass");
      it != doc.end() && it->is_number_unsigned())
    out.max_per_pass = it->get<size_t>();
  if (const auto sets = doc.find("sub_metric_sets"); sets != doc.end() && sets->is_array()) {
    for (const auto& set : *sets) {
      std::vector<std::string> suffixes;
      if (set.is_array())
        for (const auto& s : set)
          if (s.is_string()) suffixes.push_back(s.get<std::string>());
      out.suffix_sets.push_back(std::move(suffixes));
    }
  }
  if (const auto metrics = doc.find("metrics"); metrics != doc.end() && metrics->is_array()) {
    for (const auto& m : *metrics) {
      if (!m.is_object()) continue;
      native_counter c;
      c.name = text(m, "name");
      c.type = text(m, "type");
      c.description = text(m, "description");
      c.block = text(m, "hw_unit");
      c.unit = text(m, "dimension_unit");
      if (const auto set = m.find("sub_metric_set"); set != m.end() && set->is_number_unsigned())
        c.suffix_set = set->get<size_t>();
      if (!c.name.empty()) out.counters.push_back(std::move(c));
    }
  }
  if (out.error.empty() && out.counters.empty()) out.error = "the backend lists no counter";
  out.index();
  return out;
}

const native_listing& native_listings::of(const std::string& chip) {
  auto it = listings_.find(chip);
  if (it == listings_.end()) it = listings_.emplace(chip, backend_->list(chip)).first;
  return it->second;
}

}  // namespace rocprof::cli
