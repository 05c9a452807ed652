// The plugin's process-wide lifecycle, shared by its entry points (plugin_main.cpp,
// backend_entry.cpp). All functions are thread-safe, idempotent and never throw.
#pragma once

#include <functional>

#include "backend_sink.hpp"
#include "cupti_loader.hpp"
#include "metrics/profiler_host_api.hpp"

namespace rocprof::cuda {

// The sink over the profiler core's backend ABI, or nullptr when no core registered us.
backend_sink* core_sink();

// The loaded libcupti (loaded on first use); handle == nullptr when unavailable.
const cupti_library& cupti();
// The loaded libcupti if an earlier cupti() loaded one; never loads it.
const cupti_library* cupti_if_loaded();

// True while CUDA_INJECTION64_PATH names this plugin and the driver has not called
// InitializeInjection yet: the session then waits for it, so that libcupti is looked for after
// the application (PyTorch) has loaded its own copy, and never twice.
bool injection_pending();

// Starts the one CUPTI session with `sink` (nullptr: the coreless sink, if this build has one).
// With restart, a running session is stopped first so that it picks up changed kinds.
bool start_backend(backend_sink* sink, const char* how, bool restart);
// The next session started waits for the first CUDA call after cuInit to run `start_tools`
// (the core's tool initialisation; cupti_session::defer_until_first_call).
void defer_core_tools(std::function<void()> start_tools);
void stop_backend();
void register_exit_flush();
void flush_backend();
// Final flush; a coreless sink finishes (coreless_sink.hpp).
void finish_backend();
// What PC sampling lost on `agent` so far (zeroes when it does not sample).
rocprofiler_pc_sampling_loss_t pc_sampling_losses(uint64_t agent);
// The SASS text of the sampled PCs (nothing when PC sampling did not run).
void pc_sampling_instructions(const std::function<void(uint64_t code_object_id, uint64_t kernel_id,
                                                       uint64_t offset, const char* text)>& each);

// Opens, once, what per-kernel counters need from the loaded libcupti (the profiler host API
// and the range profiler) and hands them to plugin_counter_sets(). False when unavailable.
bool ensure_counter_apis();

// The profiler host API opened by ensure_counter_apis (nullptr before or when unavailable); it
// lives until exit.
profiler_host_api* counter_host_api();

}  // namespace rocprof::cuda
