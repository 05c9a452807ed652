#include "pm_sampling/pm_sampling_api.hpp"

#include <dlfcn.h>

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include "cupti_dl_helpers.hpp"

namespace rocprof::cuda {
namespace {

#define ROCPROF_PM_SAMPLING_FUNCTIONS(X)       \
  X(cuptiGetResultString)                      \
  X(cuptiGetTimestamp)                         \
  X(cuptiProfilerInitialize)                   \
  X(cuptiDeviceGetChipName)                    \
  X(cuptiPmSamplingGetCounterAvailability)     \
  X(cuptiPmSamplingEnable)                     \
  X(cuptiPmSamplingDisable)                    \
  X(cuptiPmSamplingSetConfig)                  \
  X(cuptiPmSamplingStart)                      \
  X(cuptiPmSamplingStop)                       \
  X(cuptiPmSamplingDecodeData)                 \
  X(cuptiPmSamplingGetCounterDataSize)         \
  X(cuptiPmSamplingCounterDataImageInitialize) \
  X(cuptiPmSamplingGetCounterDataInfo)         \
  X(cuptiPmSamplingCounterDataGetSampleInfo)

struct pm_table {
#define ROCPROF_MEMBER(name) decltype(&::name) name = nullptr;
  ROCPROF_PM_SAMPLING_FUNCTIONS(ROCPROF_MEMBER)
#undef ROCPROF_MEMBER
};

class pm_sampling_dl_api final : public cupti_profiler_basics<pm_sampling_api, pm_table> {
 public:
  explicit pm_sampling_dl_api(pm_table t) : cupti_profiler_basics{t} {}

  CUptiResult counter_availability(size_t device_index, std::vector<uint8_t>& image) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_GetCounterAvailability_Params);
    p.deviceIndex = device_index;
    return cupti_counter_availability(t_.cuptiPmSamplingGetCounterAvailability, p, image);
  }
  CUptiResult enable(size_t device_index, CUpti_PmSampling_Object** object) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_Enable_Params);
    p.deviceIndex = device_index;
    const CUptiResult r = t_.cuptiPmSamplingEnable(&p);
    *object = p.pPmSamplingObject;
    return r;
  }
  CUptiResult disable(CUpti_PmSampling_Object* object) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_Disable_Params);
    p.pPmSamplingObject = object;
    return t_.cuptiPmSamplingDisable(&p);
  }
  CUptiResult set_config(CUpti_PmSampling_Object* object, const std::vector<uint8_t>& config,
                         size_t hardware_buffer_bytes, uint64_t interval_ns) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_SetConfig_Params);
    p.pPmSamplingObject = object;
    p.configSize = config.size();
    p.pConfig = config.data();
    p.hardwareBufferSize = hardware_buffer_bytes;
    p.samplingInterval = interval_ns;
    p.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    p.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    return t_.cuptiPmSamplingSetConfig(&p);
  }
  CUptiResult counter_data_size(CUpti_PmSampling_Object* object,
                                const std::vector<const char*>& metrics, size_t max_samples,
                                size_t& size) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataSize_Params);
    p.pPmSamplingObject = object;
    // CUPTI only reads the names; its parameter is not const-qualified.
    p.pMetricNames = const_cast<const char**>(metrics.data());
    p.numMetrics = metrics.size();
    p.maxSamples = static_cast<uint32_t>(max_samples);
    const CUptiResult r = t_.cuptiPmSamplingGetCounterDataSize(&p);
    size = p.counterDataSize;
    return r;
  }
  CUptiResult counter_data_initialize(CUpti_PmSampling_Object* object,
                                      std::vector<uint8_t>& image) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params);
    p.pPmSamplingObject = object;
    p.counterDataSize = image.size();
    p.pCounterData = image.data();
    return t_.cuptiPmSamplingCounterDataImageInitialize(&p);
  }
  CUptiResult start(CUpti_PmSampling_Object* object) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_Start_Params);
    p.pPmSamplingObject = object;
    return t_.cuptiPmSamplingStart(&p);
  }
  CUptiResult stop(CUpti_PmSampling_Object* object) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_Stop_Params);
    p.pPmSamplingObject = object;
    return t_.cuptiPmSamplingStop(&p);
  }
  CUptiResult decode(CUpti_PmSampling_Object* object, std::vector<uint8_t>& image,
                     CUpti_PmSampling_DecodeStopReason& reason, bool& overflow) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_DecodeData_Params);
    p.pPmSamplingObject = object;
    p.pCounterDataImage = image.data();
    p.counterDataImageSize = image.size();
    const CUptiResult r = t_.cuptiPmSamplingDecodeData(&p);
    reason = p.decodeStopReason;
    overflow = p.overflow != 0;
    return r;
  }
  CUptiResult completed_samples(const std::vector<uint8_t>& image, size_t& completed) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params);
    p.pCounterDataImage = image.data();
    p.counterDataImageSize = image.size();
    const CUptiResult r = t_.cuptiPmSamplingGetCounterDataInfo(&p);
    completed = p.numCompletedSamples;
    return r;
  }
  CUptiResult sample_span(CUpti_PmSampling_Object* object, const std::vector<uint8_t>& image,
                          size_t index, uint64_t& start, uint64_t& end) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params);
    p.pPmSamplingObject = object;
    p.pCounterDataImage = image.data();
    p.counterDataImageSize = image.size();
    p.sampleIndex = index;
    const CUptiResult r = t_.cuptiPmSamplingCounterDataGetSampleInfo(&p);
    start = p.startTimestamp;
    end = p.endTimestamp;
    return r;
  }
  uint64_t timestamp() override {
    uint64_t t = 0;
    return t_.cuptiGetTimestamp(&t) == CUPTI_SUCCESS ? t : 0;
  }
};

}  // namespace

std::unique_ptr<pm_sampling_api> open_pm_sampling(const cupti_library& lib, std::string& why) {
  if (lib.handle == nullptr) {
    why = "libcupti is not loaded";
    return nullptr;
  }
  pm_table t;
  ROCPROF_PM_SAMPLING_FUNCTIONS(ROCPROF_RESOLVE_CUPTI)
  return std::make_unique<pm_sampling_dl_api>(t);
}

}  // namespace rocprof::cuda
