// Entry from the profiler core: rocprof_backend_register (backend_abi.h). The core loads the
// plugin when a context configures a CUDA kind, a GPU activity kind or counters.
#include <rocprofiler-sdk/backend/backend_abi.h>

#include <cupti.h>
#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "abi_sink.hpp"
#include "plugin_state.hpp"
#include "rocprof/common/c_boundary.hpp"

namespace rocprof::cuda {
namespace {

std::atomic<abi_sink*> g_core_sink{nullptr};

using c_boundary::guarded_call;

// The core calls these through the ABI table: each runs its body through the C-boundary guard.
template <typename Fn>
rocprofiler_status_t guarded_status(const char* where, Fn&& fn) {
  return c_boundary::guarded_or(where, ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES,
                                ROCPROFILER_STATUS_ERROR, std::forward<Fn>(fn));
}

rocprofiler_status_t start(const rocprof_enabled_kinds_t* kinds) {
  abi_sink* sink = g_core_sink.load();
  if (sink == nullptr || kinds == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  sink->set_kinds(*kinds);
  if (std::getenv("ROCPROF_CUDA_VERBOSE") != nullptr)
    std::fprintf(stderr, "rocprofv3 [cuda]: core start: buffer kinds 0x%llx 0x%llx%s\n",
                 static_cast<unsigned long long>(kinds->buffer_kinds[0]),
                 static_cast<unsigned long long>(kinds->buffer_kinds[1]),
                 injection_pending() ? " (waiting for InitializeInjection)" : "");
  // Under CUDA_INJECTION64_PATH the driver calls InitializeInjection at cuInit, which starts
  // the session then; starting now would load libcupti before the application loads its own.
  if (injection_pending()) return ROCPROFILER_STATUS_SUCCESS;
  // A CUPTI conflict or a missing libcupti is reported once and is not an error of the core:
  // the CPU-side domains keep working.
  start_backend(sink, "profiler core", true);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t backend_start(void*, const rocprof_enabled_kinds_t* kinds) {
  return guarded_status("cuda backend start", [&] { return start(kinds); });
}

void backend_stop(void*) {
  guarded_call("cuda backend stop", [] {
    if (std::getenv("ROCPROF_CUDA_VERBOSE") != nullptr)
      std::fprintf(stderr, "rocprofv3 [cuda]: core stop\n");
    stop_backend();
  });
}
void backend_flush(void*) {
  guarded_call("cuda backend flush", [] { flush_backend(); });
}
void backend_shutdown(void*) {
  guarded_call("cuda backend shutdown", [] {
    stop_backend();
    // The sink stays allocated: CUPTI's threads may still be winding down.
    g_core_sink.store(nullptr);
  });
}

CUpti_CallbackDomain domain_of(int is_buffer_kind, uint32_t kind, bool& ok) {
  ok = true;
  if (is_buffer_kind != 0) {
    if (kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API) return CUPTI_CB_DOMAIN_RUNTIME_API;
    if (kind == ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API) return CUPTI_CB_DOMAIN_DRIVER_API;
  } else {
    if (kind == ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API) return CUPTI_CB_DOMAIN_RUNTIME_API;
    if (kind == ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API) return CUPTI_CB_DOMAIN_DRIVER_API;
  }
  ok = false;
  return CUPTI_CB_DOMAIN_INVALID;
}

const char* operation_name(int is_buffer_kind, uint32_t kind,
                           rocprofiler_tracing_operation_t operation) {
  bool ok = false;
  const CUpti_CallbackDomain domain = domain_of(is_buffer_kind, kind, ok);
  const cupti_library& lib = cupti();
  if (!ok || lib.handle == nullptr || operation <= 0) return nullptr;
  const char* name = nullptr;
  if (lib.fn.cuptiGetCallbackName(domain, static_cast<uint32_t>(operation), &name) != CUPTI_SUCCESS)
    return nullptr;
  return name;
}

const char* backend_operation_name(void*, int is_buffer_kind, uint32_t kind,
                                   rocprofiler_tracing_operation_t operation) {
  return c_boundary::guarded_or("cuda backend operation_name", static_cast<const char*>(nullptr),
                                [&] { return operation_name(is_buffer_kind, kind, operation); });
}

int32_t backend_operation_count(void*, int is_buffer_kind, uint32_t kind) {
  bool ok = false;
  const CUpti_CallbackDomain domain = domain_of(is_buffer_kind, kind, ok);
  if (!ok) return 0;
  return domain == CUPTI_CB_DOMAIN_RUNTIME_API ? static_cast<int32_t>(CUPTI_RUNTIME_TRACE_CBID_SIZE)
                                               : static_cast<int32_t>(CUPTI_DRIVER_TRACE_CBID_SIZE);
}

rocprofiler_status_t register_backend(const rocprof_core_services_t* core, rocprof_backend_t* out) {
  if (core == nullptr || out == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  if (core->abi_version != ROCPROF_BACKEND_ABI_VERSION)
    return ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
  // One sink per process, kept for the process's lifetime (CUPTI callbacks may outlive stop).
  static abi_sink* sink = new abi_sink{core};
  g_core_sink.store(sink);
  out->size = sizeof(*out);
  out->name = "cuda";
  out->backend_data = nullptr;
  out->start = &backend_start;
  out->stop = &backend_stop;
  out->flush = &backend_flush;
  out->shutdown = &backend_shutdown;
  out->operation_name = &backend_operation_name;
  out->operation_count = &backend_operation_count;
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // namespace

backend_sink* core_sink() {
  return g_core_sink.load();
}

}  // namespace rocprof::cuda

extern "C" __attribute__((visibility("default"))) rocprofiler_status_t rocprof_backend_register(
    const rocprof_core_services_t* core, rocprof_backend_t* out) {
  using namespace rocprof::cuda;
  return guarded_status(__func__, [&] { return register_backend(core, out); });
}
