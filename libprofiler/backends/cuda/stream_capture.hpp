// Whether a CUDA call launches its work into a stream that is being captured into a graph. Such
// a launch runs nothing: it records a graph node, and the work appears when the graph is
// launched. The external-correlation-id request (launch_external_id.cpp) asks the tool only for
// work that will run, as rocprofiler-sdk does, which asks when a dispatch reaches a queue.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "cuda_events.hpp"

namespace rocprof::cuda {

// The stream argument of a call in progress, read from its parameter struct through the
// generated argument tables: the argument named `stream` (runtime) or `hStream` (driver). False
// when the call has none (e.g. cudaLaunchKernelExC, whose stream is inside its config).
bool stream_argument(api_domain domain, uint32_t cbid, const void* params, CUstream& stream);

// cuStreamIsCapturing on the call's stream argument, through the driver the application loaded
// (never loads it). False when the call has no stream argument, the driver is not loaded or the
// query fails. Safe inside a CUPTI callback: its own callbacks are ignored (backend_call_scope).
bool launches_into_capture(api_domain domain, uint32_t cbid, const void* params);

}  // namespace rocprof::cuda
