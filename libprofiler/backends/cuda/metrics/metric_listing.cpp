#include "metric_listing.hpp"

#include <map>
#include <memory>
#include <vector>

#include "chip_architecture.hpp"

namespace rocprof::cuda {

nlohmann::json metric_listing(metric_catalogue& catalogue) {
  const host_target& target = catalogue.target();
  nlohmann::json doc;
  doc["chip"] = target.chip;
  doc["architecture"] = architecture_of_chip(target.chip);
  doc["profiler_type"] = profiler_type_name(target.type);
  doc["max_hardware_metrics_per_pass"] = catalogue.max_hardware_metrics_per_pass();

  nlohmann::json counts = nlohmann::json::object();
  nlohmann::json sets = nlohmann::json::array();
  nlohmann::json metrics = nlohmann::json::array();
  std::map<const std::vector<std::string>*, size_t> set_index;
  size_t full = 0;
  for (CUpti_MetricType type : all_metric_types) {
    const std::vector<std::string>& bases = catalogue.base_metrics(type);
    counts[metric_type_name(type)] = bases.size();
    for (const std::string& base : bases) {
      const std::vector<std::string>& subs = catalogue.sub_metrics(base);
      full += subs.size();
      auto [it, added] = set_index.emplace(&subs, sets.size());
      if (added) sets.push_back(subs);
      nlohmann::json m{{"name", base}, {"type", metric_type_name(type)}};
      if (const metric_properties* p = catalogue.properties(base)) {
        m["description"] = p->description;
        m["hw_unit"] = p->hw_unit;
        m["dimension_unit"] = p->dim_unit;
      }
      m["sub_metric_set"] = it->second;
      metrics.push_back(std::move(m));
    }
  }
  counts["base"] = metrics.size();
  counts["full"] = full;
  doc["counts"] = std::move(counts);
  doc["sub_metric_sets"] = std::move(sets);
  doc["metrics"] = std::move(metrics);
  return doc;
}

std::string list_metrics_json(profiler_host_api* api, std::string_view unavailable,
                              std::string_view chip_or_architecture, int profiler_type) {
  nlohmann::json doc;
  try {
    const std::string requested{chip_or_architecture};
    if (api == nullptr) {
      doc["requested"] = requested;
      doc["error"] = unavailable.empty() ? "the CUPTI profiler host API is unavailable"
                                         : std::string{unavailable};
    } else {
      std::vector<std::string> chips;
      const host_status listed = supported_chips(*api, chips);
      host_target target;
      target.chip = resolve_chip(requested);
      target.type = static_cast<CUpti_ProfilerType>(profiler_type);
      std::unique_ptr<metric_catalogue> catalogue;
      host_status st;
      if (requested.empty())
        st = host_status::refused("no chip or architecture named");
      else if (parse_architecture(requested) && chips_of_architecture(requested).empty())
        st = host_status::refused("no chip of architecture '" + requested + "' is known");
      else
        st = metric_catalogue::open(*api, target, catalogue);
      if (catalogue != nullptr) doc = metric_listing(*catalogue);
      doc["requested"] = requested;
      doc["supported_chips"] = chips;
      if (!st.ok()) doc["error"] = st.message;
      if (!listed.ok() && st.ok()) doc["error"] = listed.message;
    }
    return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const std::exception& e) {
    return nlohmann::json{{"error", std::string{"listing failed: "} + e.what()}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
}

}  // namespace rocprof::cuda
