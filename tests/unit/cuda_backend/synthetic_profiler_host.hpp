// A profiler_host_api for tests of what needs a GPU (evaluating a counter data image): it
// records the parameters handed to CUPTI and answers with prepared values.
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "metrics/profiler_host_api.hpp"

namespace rocprof::cuda::test {

// Every host-API call refused; tests override what they need.
class stub_profiler_host : public profiler_host_api {
 public:
  const char* result_string(CUptiResult) override { return "CUPTI_ERROR_SYNTHETIC"; }
  CUptiResult supported_chips(CUpti_Profiler_Host_GetSupportedChips_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult initialize(CUpti_Profiler_Host_Initialize_Params* p) override {
    p->pHostObject = reinterpret_cast<CUpti_Profiler_Host_Object*>(this);
    return CUPTI_SUCCESS;
  }
  CUptiResult deinitialize(CUpti_Profiler_Host_Deinitialize_Params*) override {
    return CUPTI_SUCCESS;
  }
  CUptiResult base_metrics(CUpti_Profiler_Host_GetBaseMetrics_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult sub_metrics(CUpti_Profiler_Host_GetSubMetrics_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult metric_properties(CUpti_Profiler_Host_GetMetricProperties_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult config_add_metrics(CUpti_Profiler_Host_ConfigAddMetrics_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult config_image_size(CUpti_Profiler_Host_GetConfigImageSize_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult config_image(CUpti_Profiler_Host_GetConfigImage_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult num_passes(CUpti_Profiler_Host_GetNumOfPasses_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult max_metrics_per_pass(
      CUpti_Profiler_Host_GetMaxNumHardwareMetricsPerPass_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult range_name(CUpti_Profiler_Host_GetRangeName_Params*) override {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
};

class synthetic_profiler_host final : public stub_profiler_host {
 public:
  // What the last evaluate / range_name call received.
  CUpti_Profiler_Host_Object* evaluated_object = nullptr;
  const uint8_t* evaluated_image = nullptr;
  size_t evaluated_image_size = 0;
  size_t evaluated_range = 0;
  std::vector<std::string> evaluated_names;
  size_t named_range = 0;
  std::string delimiter;
  // What they answer.
  CUptiResult evaluate_result = CUPTI_SUCCESS;
  std::vector<double> values;  // written to pMetricValues, one per name
  CUptiResult range_name_result = CUPTI_SUCCESS;
  std::string name = "0";  // handed out malloc'd, as CUPTI does
  int initialized = 0;
  int deinitialized = 0;

  CUptiResult initialize(CUpti_Profiler_Host_Initialize_Params* p) override {
    ++initialized;
    return stub_profiler_host::initialize(p);
  }
  CUptiResult deinitialize(CUpti_Profiler_Host_Deinitialize_Params*) override {
    ++deinitialized;
    return CUPTI_SUCCESS;
  }
  CUptiResult evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p) override {
    evaluated_object = p->pHostObject;
    evaluated_image = p->pCounterDataImage;
    evaluated_image_size = p->counterDataImageSize;
    evaluated_range = p->rangeIndex;
    evaluated_names.assign(p->ppMetricNames, p->ppMetricNames + p->numMetrics);
    if (evaluate_result == CUPTI_SUCCESS)
      for (size_t i = 0; i < p->numMetrics && i < values.size(); ++i)
        p->pMetricValues[i] = values[i];
    return evaluate_result;
  }
  CUptiResult range_name(CUpti_Profiler_Host_GetRangeName_Params* p) override {
    named_range = p->rangeIndex;
    delimiter = p->delimiter != nullptr ? p->delimiter : "";
    if (range_name_result != CUPTI_SUCCESS) return range_name_result;
    char* copy = static_cast<char*>(std::malloc(name.size() + 1));
    std::memcpy(copy, name.c_str(), name.size() + 1);
    p->pRangeName = copy;
    return CUPTI_SUCCESS;
  }
};

}  // namespace rocprof::cuda::test
