#include "metric_config.hpp"

#include <utility>

namespace rocprof::cuda {
namespace {

CUptiResult add_metrics(profiler_host_api& api, host_object& host,
                        const std::vector<std::string>& metrics) {
  std::vector<const char*> names = c_names(metrics);
  auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  p.pHostObject = host.get();
  p.ppMetricNames = names.data();
  p.numMetrics = names.size();
  return api.config_add_metrics(&p);
}

// Why a set was refused: each metric tried alone (each in a fresh host object, since a refusal
// spoils the object it happened in). Only on the error path.
host_status explain_refusal(profiler_host_api& api, const host_target& target,
                            const std::vector<std::string>& metrics, CUptiResult set_result) {
  host_status st = host_status::failure(api, set_result, "ConfigAddMetrics");
  std::string rejected;
  for (const std::string& m : metrics)
    if (!try_metrics(api, target, {m}).ok()) rejected += (rejected.empty() ? "" : ", ") + m;
  st.message = (rejected.empty() ? "each metric is valid on " + target.chip +
                                       " but CUPTI cannot schedule them together"
                                 : "not metrics of " + target.chip + " (" +
                                       profiler_type_name(target.type) + "): " + rejected) +
               " [" + st.message + "]";
  return st;
}

}  // namespace

host_status try_metrics(profiler_host_api& api, const host_target& target,
                        const std::vector<std::string>& metrics) {
  host_object scratch;
  host_status st = host_object::open(api, target, scratch);
  if (!st.ok()) return st;
  if (const CUptiResult r = add_metrics(api, scratch, metrics); r != CUPTI_SUCCESS)
    return host_status::failure(api, r, "ConfigAddMetrics");
  return st;
}

host_status count_passes(profiler_host_api& api, const std::vector<uint8_t>& image,
                         size_t& passes) {
  passes = 0;
  auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  p.configImageSize = image.size();
  // CUPTI only reads the image; its parameter is not const-qualified.
  p.pConfigImage = const_cast<uint8_t*>(image.data());
  const CUptiResult r = api.num_passes(&p);
  if (r != CUPTI_SUCCESS) return host_status::failure(api, r, "GetNumOfPasses");
  passes = p.numOfPasses;
  return {};
}

host_status build_metric_config(profiler_host_api& api, const host_target& target,
                                const std::vector<std::string>& metrics, metric_config& out) {
  out = metric_config{};
  if (metrics.empty()) return host_status::refused("no metrics to configure");
  host_object host;
  host_status st = host_object::open(api, target, host);
  if (!st.ok()) return st;
  if (const CUptiResult r = add_metrics(api, host, metrics); r != CUPTI_SUCCESS)
    return explain_refusal(api, target, metrics, r);

  auto size = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = host.get();
  if (const CUptiResult r = api.config_image_size(&size); r != CUPTI_SUCCESS)
    return host_status::failure(api, r, "GetConfigImageSize");
  std::vector<uint8_t> image(size.configImageSize);
  auto get = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  get.pHostObject = host.get();
  get.configImageSize = image.size();
  get.pConfigImage = image.data();
  if (const CUptiResult r = api.config_image(&get); r != CUPTI_SUCCESS)
    return host_status::failure(api, r, "GetConfigImage");

  size_t passes = 0;
  st = count_passes(api, image, passes);
  if (!st.ok()) return st;
  out.target = target;
  out.metrics = metrics;
  out.image = std::move(image);
  out.passes = passes;
  out.host = std::move(host);
  return {};
}

}  // namespace rocprof::cuda
