// The thin, replaceable wrapper over CUPTI's profiler host API (cupti_profiler_host.h): metric
// enumeration, config images, pass counting and evaluation. It needs no GPU, so CI runs the
// catalogue against the real libcupti; tests substitute a synthetic one where a GPU would be
// needed (evaluation of a counter data image). Same style as cupti_api.hpp.
#pragma once

#include <cupti_profiler_host.h>

#include "cupti_check.hpp"
#include "cupti_table.hpp"

namespace rocprof::cuda {

// A zeroed CUPTI parameter struct with its structSize set (CUPTI reads structSize to know
// which fields the caller knows): auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_..._Params);
template <class Params>
Params host_params(size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}
#define ROCPROF_HOST_PARAMS(type) ::rocprof::cuda::host_params<type>(type##_STRUCT_SIZE)

class profiler_host_api {
 public:
  virtual ~profiler_host_api() = default;
  virtual const char* result_string(CUptiResult r) = 0;
  virtual CUptiResult supported_chips(CUpti_Profiler_Host_GetSupportedChips_Params* p) = 0;
  virtual CUptiResult initialize(CUpti_Profiler_Host_Initialize_Params* p) = 0;
  virtual CUptiResult deinitialize(CUpti_Profiler_Host_Deinitialize_Params* p) = 0;
  virtual CUptiResult base_metrics(CUpti_Profiler_Host_GetBaseMetrics_Params* p) = 0;
  virtual CUptiResult sub_metrics(CUpti_Profiler_Host_GetSubMetrics_Params* p) = 0;
  virtual CUptiResult metric_properties(CUpti_Profiler_Host_GetMetricProperties_Params* p) = 0;
  virtual CUptiResult config_add_metrics(CUpti_Profiler_Host_ConfigAddMetrics_Params* p) = 0;
  virtual CUptiResult config_image_size(CUpti_Profiler_Host_GetConfigImageSize_Params* p) = 0;
  virtual CUptiResult config_image(CUpti_Profiler_Host_GetConfigImage_Params* p) = 0;
  virtual CUptiResult num_passes(CUpti_Profiler_Host_GetNumOfPasses_Params* p) = 0;
  virtual CUptiResult max_metrics_per_pass(
      CUpti_Profiler_Host_GetMaxNumHardwareMetricsPerPass_Params* p) = 0;
  virtual CUptiResult evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p) = 0;
  virtual CUptiResult range_name(CUpti_Profiler_Host_GetRangeName_Params* p) = 0;
};

// The production implementation: forwards to the dlsym'd tables of the loaded libcupti.
class profiler_host_dl_api final : public profiler_host_api {
 public:
  profiler_host_dl_api(const cupti_table& base, const cupti_profiler_host_table& host)
      : get_result_string_{base.cuptiGetResultString}, fn_{host} {}
  const char* result_string(CUptiResult r) override {
    const char* s = nullptr;
    return get_result_string_ != nullptr && get_result_string_(r, &s) == CUPTI_SUCCESS &&
                   s != nullptr
               ? s
               : "unknown";
  }
  CUptiResult supported_chips(CUpti_Profiler_Host_GetSupportedChips_Params* p) override {
    return fn_.cuptiProfilerHostGetSupportedChips(p);
  }
  CUptiResult initialize(CUpti_Profiler_Host_Initialize_Params* p) override {
    return fn_.cuptiProfilerHostInitialize(p);
  }
  CUptiResult deinitialize(CUpti_Profiler_Host_Deinitialize_Params* p) override {
    return fn_.cuptiProfilerHostDeinitialize(p);
  }
  CUptiResult base_metrics(CUpti_Profiler_Host_GetBaseMetrics_Params* p) override {
    return fn_.cuptiProfilerHostGetBaseMetrics(p);
  }
  CUptiResult sub_metrics(CUpti_Profiler_Host_GetSubMetrics_Params* p) override {
    return fn_.cuptiProfilerHostGetSubMetrics(p);
  }
  CUptiResult metric_properties(CUpti_Profiler_Host_GetMetricProperties_Params* p) override {
    return fn_.cuptiProfilerHostGetMetricProperties(p);
  }
  CUptiResult config_add_metrics(CUpti_Profiler_Host_ConfigAddMetrics_Params* p) override {
    return fn_.cuptiProfilerHostConfigAddMetrics(p);
  }
  CUptiResult config_image_size(CUpti_Profiler_Host_GetConfigImageSize_Params* p) override {
    return fn_.cuptiProfilerHostGetConfigImageSize(p);
  }
  CUptiResult config_image(CUpti_Profiler_Host_GetConfigImage_Params* p) override {
    return fn_.cuptiProfilerHostGetConfigImage(p);
  }
  CUptiResult num_passes(CUpti_Profiler_Host_GetNumOfPasses_Params* p) override {
    return fn_.cuptiProfilerHostGetNumOfPasses(p);
  }
  CUptiResult max_metrics_per_pass(
      CUpti_Profiler_Host_GetMaxNumHardwareMetricsPerPass_Params* p) override {
    return fn_.cuptiProfilerHostGetMaxNumHardwareMetricsPerPass(p);
  }
  CUptiResult evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p) override {
    return fn_.cuptiProfilerHostEvaluateToGpuValues(p);
  }
  CUptiResult range_name(CUpti_Profiler_Host_GetRangeName_Params* p) override {
    return fn_.cuptiProfilerHostGetRangeName(p);
  }

 private:
  decltype(&::cuptiGetResultString) get_result_string_;
  cupti_profiler_host_table fn_;
};

// ROCPROF_CUPTI_CALL(host_api, host_api.deinitialize(&p)) works with this wrapper too.
inline bool report_cupti_result(profiler_host_api& api, CUptiResult r, const char* expr,
                                const char* file, int line) {
  return r == CUPTI_SUCCESS || report_cupti_failure(api.result_string(r), r, expr, file, line);
}

}  // namespace rocprof::cuda
