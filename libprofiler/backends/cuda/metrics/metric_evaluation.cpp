#include "metric_evaluation.hpp"

#include <cstdlib>

namespace rocprof::cuda {

host_status evaluate_range(profiler_host_api& api, const metric_config& config,
                           counter_data_view counter_data, size_t range_index,
                           std::vector<double>& values) {
  return evaluate_range(api, config.host, counter_data, range_index, config.metrics, values);
}

host_status evaluate_range(profiler_host_api& api, const host_object& host,
                           counter_data_view counter_data, size_t range_index,
                           const std::vector<std::string>& metrics, std::vector<double>& values) {
  values.assign(metrics.size(), 0.0);
  if (!host) return host_status::refused("no profiler host object to evaluate in");
  if (metrics.empty()) return {};
  std::vector<const char*> names = c_names(metrics);
  auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
  p.pHostObject = host.get();
  p.pCounterDataImage = counter_data.data;
  p.counterDataImageSize = counter_data.size;
  p.rangeIndex = range_index;
  p.ppMetricNames = names.data();
  p.numMetrics = names.size();
  p.pMetricValues = values.data();
  const CUptiResult r = api.evaluate(&p);
  if (r != CUPTI_SUCCESS)
    return host_status::failure(api, r,
                                "EvaluateToGpuValues(range " + std::to_string(range_index) + ")");
  return {};
}

host_status range_name(profiler_host_api& api, counter_data_view counter_data, size_t range_index,
                       std::string& name, const char* delimiter) {
  name.clear();
  auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_GetRangeName_Params);
  p.pCounterDataImage = counter_data.data;
  p.counterDataImageSize = counter_data.size;
  p.rangeIndex = range_index;
  p.delimiter = delimiter;
  const CUptiResult r = api.range_name(&p);
  if (r != CUPTI_SUCCESS)
    return host_status::failure(api, r, "GetRangeName(range " + std::to_string(range_index) + ")");
  if (p.pRangeName != nullptr) {
    name = p.pRangeName;
    // cupti_profiler_host.h: the caller frees the name CUPTI allocated (a C API: malloc).
    std::free(const_cast<char*>(p.pRangeName));
  }
  return {};
}

}  // namespace rocprof::cuda
