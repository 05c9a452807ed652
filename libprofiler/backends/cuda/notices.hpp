// The plugin's one-line notices to the user (CUPTI not found, no driver or GPU, another CUPTI
// subscriber, no GPU agents). They are for whoever set the plugin up: rocprofv3 (which names it
// in CUDA_INJECTION64_PATH), anyone whose process calls InitializeInjection, a tool that asked
// for the CUDA API domains, or ROCPROF_CUDA_VERBOSE. A third-party tool that only asked for
// vendor-neutral kinds (kernel dispatches, memory copies) on a machine without a working CUDA
// stack hears nothing: for it, no NVIDIA GPU is not news.
#pragma once

#include "backend_sink.hpp"

namespace rocprof::cuda {

// A context asked for CUDA_RUNTIME_API or CUDA_DRIVER_API (callback or buffer tracing).
void note_cuda_api_requested();
// The process was set up to inject the plugin: CUDA_INJECTION64_PATH names it, or
// InitializeInjection was called.
void note_injection_requested();

// ROCPROF_CUDA_VERBOSE is set: the plugin prints its diagnostics (how records were matched,
// the sizes it chose, what it left out) besides the notices.
bool verbose_diagnostics();

bool notices_wanted();
// Also when `sink` traces the CUDA API domains.
bool notices_wanted(backend_sink& sink);

}  // namespace rocprof::cuda
