// Entry from the profiler core (backend_abi.h): the manifest of the kinds this plugin records,
// which the core reads to know that it loads this plugin for them, and
// rocprof_backend_register. The core registers the plugin when a context configures one of
// those kinds, when InitializeInjection asks for it, or for an agent listing.
#include <rocprofiler-sdk/backend/backend_abi.h>

#include <cupti.h>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "abi_sink.hpp"
#include "agent_listing.hpp"
#include "api_args.hpp"
#include "callback_names.hpp"
#include "counters/counter_sets.hpp"
#include "device_info.hpp"
#include "notices.hpp"
#include "pc_sampler.hpp"
#include "plugin_state.hpp"
#include "pm_sampling/device_samplers.hpp"
#include "rocprof/common/c_boundary.hpp"

namespace rocprof::cuda {
namespace {

// What the CUDA (CUPTI) paths emit: API calls of both CUDA layers and GPU activity. The
// schema's rows served by "cuda" name the same buffer kinds (a test holds them together).
constexpr rocprofiler_buffer_tracing_kind_t k_buffer_kinds[] = {
    ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API, ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API,
    ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,  ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
    ROCPROFILER_BUFFER_TRACING_MEMORY_SET,       ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION};
constexpr rocprofiler_callback_tracing_kind_t k_callback_kinds[] = {
    ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API,
    ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,  ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY,
    ROCPROFILER_CALLBACK_TRACING_MEMORY_SET,       ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION};

}  // namespace
}  // namespace rocprof::cuda

extern "C" {
__attribute__((
    visibility("default"))) extern const rocprof_backend_manifest_t rocprof_backend_manifest;
const rocprof_backend_manifest_t rocprof_backend_manifest = {
    sizeof(rocprof_backend_manifest_t),
    ROCPROF_BACKEND_ABI_VERSION,
    1,  // counters (--pmc) come to this backend
    "cuda",
    rocprof::cuda::k_buffer_kinds,
    sizeof(rocprof::cuda::k_buffer_kinds) / sizeof(rocprof::cuda::k_buffer_kinds[0]),
    rocprof::cuda::k_callback_kinds,
    sizeof(rocprof::cuda::k_callback_kinds) / sizeof(rocprof::cuda::k_callback_kinds[0]),
    "CUDA_INJECTION64_PATH",  // the driver calls InitializeInjection at cuInit
};
}

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
  if (sink->enabled(cuda_domain::runtime_api) || sink->enabled(cuda_domain::driver_api))
    note_cuda_api_requested();
  if (verbose_diagnostics())
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
    if (verbose_diagnostics()) std::fprintf(stderr, "rocprofv3 [cuda]: core stop\n");
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
  if (!ok || operation <= 0) return nullptr;
  const auto cbid = static_cast<uint32_t>(operation);
  // Before libcupti is loaded (a tool choosing operations at start-up), the headers' names:
  // loading it here would come before the application's own copy (injection_pending).
  const cupti_library* lib = cupti_if_loaded();
  if (lib == nullptr) return header_callback_name(domain, cbid);
  const char* name = nullptr;
  if (lib->fn.cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS) return nullptr;
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

rocprofiler_status_t backend_iterate_args(void*, int is_buffer_kind, uint32_t kind,
                                          rocprofiler_tracing_operation_t operation,
                                          const void* params, uint64_t params_size,
                                          int32_t max_deref, rocprof_backend_arg_cb_t callback,
                                          void* data) {
  return guarded_status("cuda backend iterate_args", [&] {
    bool ok = false;
    const CUpti_CallbackDomain domain = domain_of(is_buffer_kind, kind, ok);
    if (!ok) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
    if (operation <= 0 || params == nullptr) return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
    return iterate_api_args(
        domain == CUPTI_CB_DOMAIN_RUNTIME_API ? api_domain::runtime : api_domain::driver,
        static_cast<uint32_t>(operation), params, params_size, max_deref, callback, data);
  });
}

// Runs in the process that lists agents (the CLI's), never in a profiled application: it
// initialises the CUDA driver (cuInit), which the tracing paths leave to the application.
uint64_t discover_agents(const char** why) {
  static std::string reason;  // read by the core after we return
  abi_sink* sink = g_core_sink.load();
  if (sink == nullptr) {
    reason = "not registered with a profiler core";
    *why = reason.c_str();
    return 0;
  }
  const uint64_t registered = register_listed_agents(query_devices(), *sink, reason);
  if (registered == 0) *why = reason.c_str();
  return registered;
}

uint64_t backend_discover_agents(void*, const char** why) {
  return c_boundary::guarded_or("cuda backend discover_agents", uint64_t{0},
                                [&] { return discover_agents(why); });
}

// Counters (ABI 3). The why-texts live until the calling thread's next call.
thread_local std::string t_why;

rocprofiler_status_t list_counters(void*, rocprofiler_agent_id_t agent, const char** architecture,
                                   rocprof_backend_counter_cb_t cb, void* user) {
  return guarded_status("cuda backend list_counters", [&] {
    ensure_counter_apis();
    return plugin_counter_sets().list(agent.handle, architecture, cb, user);
  });
}

rocprofiler_status_t describe_counter(void*, rocprofiler_agent_id_t agent, const char* name,
                                      rocprof_backend_counter_cb_t cb, void* user,
                                      const char** why) {
  return guarded_status("cuda backend describe_counter", [&] {
    ensure_counter_apis();
    const rocprofiler_status_t st =
        plugin_counter_sets().describe(agent.handle, name, cb, user, t_why);
    *why = t_why.c_str();
    return st;
  });
}

rocprofiler_status_t create_counter_set(void*, rocprofiler_agent_id_t agent,
                                        const char* const* names, uint64_t count, uint64_t* set,
                                        uint64_t* passes, const char** why) {
  return guarded_status("cuda backend create_counter_set", [&] {
    ensure_counter_apis();
    const std::vector<std::string> metrics(names, names + count);
    const rocprofiler_status_t st =
        plugin_counter_sets().create(agent.handle, metrics, *set, *passes, t_why);
    *why = t_why.c_str();
    return st;
  });
}

// What CUPTI's PC sampling offers on every GPU it supports (cupti-notes §(d); probe: periods
// 2^5..2^31 accepted, 2^4 and 2^32 refused): stochastic-style hardware sampling with stall
// reasons, the interval in cycles, a power of two.
uint64_t pc_sampling_configurations(rocprofiler_agent_id_t agent,
                                    rocprofiler_pc_sampling_configuration_t* out,
                                    uint64_t capacity) {
  abi_sink* sink = g_core_sink.load();
  if (sink == nullptr || !sink->owns_agent(agent.handle)) return 0;
  if (out != nullptr && capacity >= 1) {
    rocprofiler_pc_sampling_configuration_t c{};
    c.size = sizeof(c);
    c.method = ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC;
    c.unit = ROCPROFILER_PC_SAMPLING_UNIT_CYCLES;
    c.min_interval = k_min_pc_sampling_interval;
    c.max_interval = k_max_pc_sampling_interval;
    c.flags = ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2;
    out[0] = c;
  }
  return 1;
}

uint64_t backend_pc_sampling_configurations(void*, rocprofiler_agent_id_t agent,
                                            rocprofiler_pc_sampling_configuration_t* out,
                                            uint64_t capacity) {
  return c_boundary::guarded_or("cuda backend pc_sampling_configurations", uint64_t{0},
                                [&] { return pc_sampling_configurations(agent, out, capacity); });
}

int backend_pc_sampling_loss(void*, rocprofiler_agent_id_t agent,
                             rocprofiler_pc_sampling_loss_t* loss) {
  return c_boundary::guarded_or("cuda backend pc_sampling_loss", 0, [&] {
    abi_sink* sink = g_core_sink.load();
    if (sink == nullptr || !sink->owns_agent(agent.handle)) return 0;
    *loss = pc_sampling_losses(agent.handle);
    return 1;
  });
}

void backend_pc_sampling_instructions(void*, rocprofiler_pc_sampling_instruction_cb_t cb,
                                      void* user_data) {
  c_boundary::guarded_call("cuda backend pc_sampling_instructions", [&] {
    pc_sampling_instructions([&](uint64_t co, uint64_t kernel, uint64_t offset, const char* text) {
      rocprofiler_pc_sampling_instruction_t inst{};
      inst.size = sizeof(inst);
      inst.pc.code_object_id = co;
      inst.pc.code_object_offset = offset;
      inst.kernel_id = kernel;
      inst.text = text;
      cb(&inst, user_data);
    });
  });
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
  out->discover_agents = &backend_discover_agents;
  out->list_counters = &list_counters;
  out->describe_counter = &describe_counter;
  out->create_counter_set = &create_counter_set;
  out->iterate_args = &backend_iterate_args;
  install_device_samplers(out);
  out->pc_sampling_configurations = &backend_pc_sampling_configurations;
  out->pc_sampling_loss = &backend_pc_sampling_loss;
  out->pc_sampling_instructions = &backend_pc_sampling_instructions;
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
