// The thin, replaceable wrapper over CUPTI's PM sampling target API (cupti_pmsampling.h):
// device-wide counters sampled by the GPU at a fixed interval. The sampler talks to the GPU
// only through this interface, so its decode loop is unit-tested with a synthetic
// implementation on machines without a GPU (the pattern of cupti_api.hpp).
#pragma once

#include <cupti.h>
#include <cupti_pmsampling.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cupti_loader.hpp"

namespace rocprof::cuda {

class pm_sampling_api {
 public:
  virtual ~pm_sampling_api() = default;
  virtual const char* result_string(CUptiResult r) = 0;
  // cuptiProfilerInitialize (harmless when done already).
  virtual CUptiResult initialize() = 0;
  virtual CUptiResult chip_name(size_t device_index, std::string& chip) = 0;
  virtual CUptiResult counter_availability(size_t device_index, std::vector<uint8_t>& image) = 0;
  virtual CUptiResult enable(size_t device_index, CUpti_PmSampling_Object** object) = 0;
  virtual CUptiResult disable(CUpti_PmSampling_Object* object) = 0;
  // GPU-time trigger every interval_ns, KEEP_OLDEST (an overflow is reported, never hidden).
  virtual CUptiResult set_config(CUpti_PmSampling_Object* object,
                                 const std::vector<uint8_t>& config, size_t hardware_buffer_bytes,
                                 uint64_t interval_ns) = 0;
  virtual CUptiResult counter_data_size(CUpti_PmSampling_Object* object,
                                        const std::vector<const char*>& metrics, size_t max_samples,
                                        size_t& size) = 0;
  virtual CUptiResult counter_data_initialize(CUpti_PmSampling_Object* object,
                                              std::vector<uint8_t>& image) = 0;
  virtual CUptiResult start(CUpti_PmSampling_Object* object) = 0;
  virtual CUptiResult stop(CUpti_PmSampling_Object* object) = 0;
  // Moves what the hardware buffer holds into the counter data image.
  virtual CUptiResult decode(CUpti_PmSampling_Object* object, std::vector<uint8_t>& image,
                             CUpti_PmSampling_DecodeStopReason& reason, bool& overflow) = 0;
  virtual CUptiResult completed_samples(const std::vector<uint8_t>& image, size_t& completed) = 0;
  virtual CUptiResult sample_span(CUpti_PmSampling_Object* object,
                                  const std::vector<uint8_t>& image, size_t index, uint64_t& start,
                                  uint64_t& end) = 0;
  // cuptiGetTimestamp: the clock sample spans are in.
  virtual uint64_t timestamp() = 0;
};

// The production implementation over the loaded libcupti; nullptr (with `why`) when an entry
// point is missing (a CUPTI without PM sampling).
std::unique_ptr<pm_sampling_api> open_pm_sampling(const cupti_library& lib, std::string& why);

}  // namespace rocprof::cuda
