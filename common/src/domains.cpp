#include "rocprof/config/domains.hpp"

#include <algorithm>

#include "rocprof/config/values.hpp"

namespace rocprof::config {

const std::vector<backend_spec>& backends() {
  static const std::vector<backend_spec> table = {
      {"cuda", "CUDA", "CUDA_INJECTION64_PATH", "rocprof_cuda_list_metrics_json",
       "rocprof_cuda_count_metric_passes", "rocprof_cuda_counter_source"},
  };
  return table;
}

const backend_spec* find_backend(std::string_view name) {
  for (const auto& backend : backends()) {
    if (backend.name == name) return &backend;
  }
  return nullptr;
}

bool collects(const option_spec& spec) {
  return spec.collects || !spec.kinds.empty();
}

std::vector<const option_spec*> aggregates_in_expansion_order() {
  std::vector<const option_spec*> out;
  for (const auto& spec : schema()) {
    if (!spec.expands.empty()) out.push_back(&spec);
  }
  std::stable_sort(out.begin(), out.end(), [](const option_spec* a, const option_spec* b) {
    return a->expansion_step < b->expansion_step;
  });
  return out;
}

std::string setting_name(const option_spec& spec) {
  constexpr std::string_view prefix = "ROCPROF_";
  std::string_view env = spec.env;
  if (env.substr(0, prefix.size()) == prefix) env.remove_prefix(prefix.size());
  return to_lower(env);
}

}  // namespace rocprof::config
