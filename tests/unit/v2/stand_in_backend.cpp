// A stand-in GPU backend for the v2 library's tests: what a GPU backend would report for a
// small program, without a GPU. Its manifest lists the CUDA API kinds, kernels, copies and
// memsets; it registers one GPU agent ("sm_90"); the test drives it through the functions at
// the end (found with dlsym on the loaded plugin).
#include <rocprofiler-sdk/backend/backend_abi.h>

#include <cstring>

namespace {

const rocprof_core_services_t* g_core = nullptr;
rocprofiler_agent_id_t g_agent{};

// CUPTI's runtime callback ids of the two calls the stand-in makes.
constexpr int32_t k_cuda_launch_kernel = 211;
constexpr int32_t k_cuda_memcpy_async = 41;

rocprofiler_status_t start(void*, const rocprof_enabled_kinds_t*) {
  return ROCPROFILER_STATUS_SUCCESS;
}
void stop(void*) {}
void flush(void*) {}
void shutdown(void*) {
  g_core = nullptr;
}

const char* operation_name(void*, int, uint32_t kind, rocprofiler_tracing_operation_t op) {
  const bool api = kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API ||
                   kind == ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API;
  if (api && op == k_cuda_launch_kernel) return "cudaLaunchKernel";
  if (api && op == k_cuda_memcpy_async) return "cudaMemcpyAsync";
  return nullptr;
}
int32_t operation_count(void*, int, uint32_t kind) {
  return kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API ? 212 : 0;
}
uint64_t discover_agents(void*, const char**) {
  return 1;
}

constexpr rocprofiler_buffer_tracing_kind_t k_buffer_kinds[] = {
    ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API, ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API,
    ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
    ROCPROFILER_BUFFER_TRACING_MEMORY_SET};
constexpr rocprofiler_callback_tracing_kind_t k_callback_kinds[] = {
    ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API};

template <typename Record>
void stamp(Record& r, const rocprof_api_scope_t& scope) {
  r.size = sizeof(r);
  r.correlation_id.internal = scope.correlation_id.internal;
  r.thread_id = g_core->thread_id();
  r.start_timestamp = g_core->timestamp();
  r.end_timestamp = r.start_timestamp + 1000;
}

// Ends a traced call: its API record (when traced) and the call's scope.
void end_call(rocprof_api_scope_t& scope) {
  if (g_core->buffer_kind_enabled(ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API, scope.operation)) {
    rocprofiler_buffer_tracing_cuda_api_record_t api{};
    api.size = sizeof(api);
    api.kind = ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API;
    api.operation = scope.operation;
    api.correlation_id = scope.correlation_id;
    api.start_timestamp = scope.start_timestamp;
    api.end_timestamp = g_core->timestamp();
    api.thread_id = g_core->thread_id();
    g_core->emit_buffer_record(ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API, &api,
                               ROCPROF_EMIT_FILL_EXTERNAL);
  }
  g_core->api_exit(&scope, nullptr);
}

}  // namespace

extern "C" {

__attribute__((
    visibility("default"))) extern const rocprof_backend_manifest_t rocprof_backend_manifest;
const rocprof_backend_manifest_t rocprof_backend_manifest = {sizeof(rocprof_backend_manifest_t),
                                                             ROCPROF_BACKEND_ABI_VERSION,
                                                             0,
                                                             "v2standin",
                                                             k_buffer_kinds,
                                                             5,
                                                             k_callback_kinds,
                                                             2,
                                                             nullptr};  // no injection variable

__attribute__((visibility("default"))) rocprofiler_status_t rocprof_backend_register(
    const rocprof_core_services_t* core, rocprof_backend_t* out) {
  if (core->abi_version != ROCPROF_BACKEND_ABI_VERSION)
    return ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
  g_core = core;
  out->name = "v2standin";
  out->start = start;
  out->stop = stop;
  out->flush = flush;
  out->shutdown = shutdown;
  out->operation_name = operation_name;
  out->operation_count = operation_count;
  out->discover_agents = discover_agents;
  rocprofiler_agent_v0_t gpu{};
  gpu.size = sizeof(gpu);
  gpu.wave_front_size = 32;
  gpu.name = "sm_90";
  gpu.vendor_name = "NVIDIA";
  gpu.product_name = "Stand-in GPU";
  gpu.model_name = "stand-in";
  g_agent = core->register_agent(&gpu);
  return g_agent.handle != 0 ? ROCPROFILER_STATUS_SUCCESS : ROCPROFILER_STATUS_ERROR;
}

// Reports one loaded "cubin" (its bytes in memory) holding one kernel, kernel_id.
__attribute__((visibility("default"))) void v2_standin_load_module(uint64_t code_object_id,
                                                                   uint64_t kernel_id,
                                                                   const char* kernel_name,
                                                                   const void* bytes,
                                                                   uint64_t size) {
  rocprofiler_callback_tracing_code_object_load_data_t load{};
  load.size = sizeof(load);
  load.code_object_id = code_object_id;
  load.agent_id = g_agent;
  load.uri = "memory://1#offset=0x1000&size=16";
  load.load_base = reinterpret_cast<uint64_t>(bytes);
  load.load_size = size;
  load.storage_type = ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
  load.storage_file = -1;
  load.memory_base = reinterpret_cast<uint64_t>(bytes);
  load.memory_size = size;
  g_core->report_code_object(ROCPROFILER_CODE_OBJECT_LOAD, ROCPROFILER_CALLBACK_PHASE_LOAD, &load);
  rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t sym{};
  sym.size = sizeof(sym);
  sym.kernel_id = kernel_id;
  sym.code_object_id = code_object_id;
  sym.kernel_name = kernel_name;
  sym.arch_vgpr_count = 32;
  g_core->report_code_object(ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER,
                             ROCPROFILER_CALLBACK_PHASE_LOAD, &sym);
}

// cudaLaunchKernel of kernel_id: the API call and the kernel's record (grid 1024 x 1 x 1,
// blocks of 256). Returns the call's correlation id.
__attribute__((visibility("default"))) uint64_t v2_standin_launch(uint64_t kernel_id) {
  rocprof_api_scope_t scope;
  g_core->api_enter(&scope, ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, k_cuda_launch_kernel,
                    nullptr);
  rocprofiler_buffer_tracing_kernel_dispatch_record_t rec{};
  stamp(rec, scope);
  rec.kind = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
  rec.operation = ROCPROFILER_KERNEL_DISPATCH_COMPLETE;
  rec.dispatch_info.size = sizeof(rec.dispatch_info);
  rec.dispatch_info.agent_id = g_agent;
  rec.dispatch_info.kernel_id = kernel_id;
  rec.dispatch_info.grid_size = rocprofiler_dim3_t{1024, 1, 1};
  rec.dispatch_info.workgroup_size = rocprofiler_dim3_t{256, 1, 1};
  rec.dispatch_info.group_segment_size = 4096;
  rec.stream_id.handle = 7;
  if (g_core->buffer_kind_enabled(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, -1))
    g_core->emit_buffer_record(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, &rec,
                               ROCPROF_EMIT_FILL_EXTERNAL);
  end_call(scope);
  return scope.correlation_id.internal;
}

// cudaMemcpyAsync host -> device of `bytes`.
__attribute__((visibility("default"))) uint64_t v2_standin_copy(uint64_t bytes) {
  rocprof_api_scope_t scope;
  g_core->api_enter(&scope, ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, k_cuda_memcpy_async,
                    nullptr);
  rocprofiler_buffer_tracing_memory_copy_record_t rec{};
  stamp(rec, scope);
  rec.kind = ROCPROFILER_BUFFER_TRACING_MEMORY_COPY;
  rec.operation = ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE;
  rec.dst_agent_id = g_agent;
  rec.bytes = bytes;
  rec.stream_id.handle = 7;
  if (g_core->buffer_kind_enabled(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, -1))
    g_core->emit_buffer_record(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, &rec,
                               ROCPROF_EMIT_FILL_EXTERNAL);
  end_call(scope);
  return scope.correlation_id.internal;
}

}  // extern "C"
