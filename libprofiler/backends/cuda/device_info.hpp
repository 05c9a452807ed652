// GPU agents from the CUDA driver, opened with dlopen("libcuda.so.1") so the plugin never links
// the driver. One checked-call macro for driver calls (ROCPROF_CU_CALL) mirrors the CUPTI one.
#pragma once

#include <string>
#include <vector>

#include "cuda_events.hpp"

namespace rocprof::cuda {

// Formats the 16 UUID bytes as nvidia-smi does: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
std::string format_uuid(const unsigned char bytes[16]);

struct device_query {
  std::vector<gpu_agent> devices;
  std::string error;  // why nothing could be queried (no driver, no device, ...); empty if fine
};

// Needs an initialised driver (cuInit done): call it from a CUPTI resource callback or later.
device_query query_devices();

}  // namespace rocprof::cuda
