// The CUDA backend's device sampler entry points (backend_abi.h): one pm_sampler per running
// sampler handle, at most one per device (PM sampling is device-wide).
#pragma once

#include <rocprofiler-sdk/backend/backend_abi.h>

namespace rocprof::cuda {

// Fills device_sampler_start / drain / stop of the ABI table.
void install_device_samplers(rocprof_backend_t* out);

}  // namespace rocprof::cuda
