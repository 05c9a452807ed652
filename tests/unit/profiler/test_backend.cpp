// A real backend plugin for the loader tests: its manifest lists the kinds it records, it
// registers one GPU agent, remembers the kinds the core enables, and on request makes one
// traced API call that launches a "kernel" (a KERNEL_DISPATCH record carrying the call's
// correlation id), as a GPU backend would. It also offers fake native counters
// (test_backend_counters.hpp), so the core's counter API is tested without a GPU.
#include <rocprofiler-sdk/backend/backend_abi.h>

#include <cstring>
#include <utility>

#include "test_backend_counters.hpp"

namespace {

const rocprof_core_services_t* g_core = nullptr;
rocprofiler_agent_id_t g_agent{};
rocprof_enabled_kinds_t g_kinds{};
int g_starts = 0;

rocprofiler_status_t start(void*, const rocprof_enabled_kinds_t* kinds) {
  g_kinds = *kinds;
  ++g_starts;
  return ROCPROFILER_STATUS_SUCCESS;
}
uint64_t g_samples_at_stop = 0;  // test_backend_emit_pc_sample_at_stop
// One aggregated sample, as the CUDA backend's sampler emits it.
void emit_pc_sample(uint64_t offset, uint64_t samples) {
  rocprofiler_pc_sampling_record_aggregated_v0_t rec{};
  rec.size = sizeof(rec);
  rec.agent_id = g_agent;
  rec.pc.code_object_id = 1;
  rec.pc.code_object_offset = offset;
  rec.dispatch_id = 7;
  rec.sample_count = samples;
  rec.not_issued_count = samples / 2;
  rec.warp_state = ROCPROFILER_PC_SAMPLING_WARP_STATE_LONG_SCOREBOARD;
  rec.reason_not_issued = ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT;
  rec.attribution = ROCPROFILER_PC_SAMPLING_ATTRIBUTION_DISPATCH;
  g_core->emit_pc_sampling_record(g_agent, ROCPROFILER_PC_SAMPLING_RECORD_AGGREGATED_V0_SAMPLE,
                                  &rec);
}
void stop(void*) {
  // Like CUPTI's last range, handed over at cuptiPCSamplingStop: after the context stopped.
  if (g_samples_at_stop != 0 && g_kinds.pc_sampling_count > 0)
    emit_pc_sample(0x2a0, g_samples_at_stop);
  g_samples_at_stop = 0;
  std::memset(&g_kinds, 0, sizeof(g_kinds));
}
void flush(void*) {}
void shutdown(void*) {
  g_core = nullptr;
}

const char* operation_name(void*, int, uint32_t kind, rocprofiler_tracing_operation_t op) {
  if (kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API && op == 211) return "cudaLaunchKernel";
  return nullptr;
}
int32_t operation_count(void*, int, uint32_t kind) {
  return kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API ? 212 : 0;
}

// Its one agent was registered with the backend.
uint64_t discover_agents(void*, const char** why) {
  if (g_agent.handle != 0) return 1;
  *why = "no test agent";
  return 0;
}

// PC sampling as an NVIDIA agent offers it: stochastic-style, cycles, powers of two 2^5..2^31.
uint64_t pc_sampling_configurations(void*, rocprofiler_agent_id_t agent,
                                    rocprofiler_pc_sampling_configuration_t* out,
                                    uint64_t capacity) {
  if (g_agent.handle == 0 || agent.handle != g_agent.handle) return 0;
  if (out != nullptr && capacity >= 1)
    out[0] = {sizeof(rocprofiler_pc_sampling_configuration_t),
              ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC,
              ROCPROFILER_PC_SAMPLING_UNIT_CYCLES,
              32,
              uint64_t{1} << 31,
              ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2};
  return 1;
}

int pc_sampling_loss(void*, rocprofiler_agent_id_t agent, rocprofiler_pc_sampling_loss_t* loss) {
  if (agent.handle != g_agent.handle) return 0;
  loss->total_samples = 100;
  loss->dropped_samples = 2;
  loss->unattributed_samples = 3;
  return 1;
}

// Two sampled PCs of kernel 7 with their text (as the CUDA backend reports nvdisasm's SASS).
void pc_sampling_instructions(void*, rocprofiler_pc_sampling_instruction_cb_t cb, void* data) {
  for (const auto& [offset, text] : {std::pair<uint64_t, const char*>{0x1c0, "FFMA R4, R7, R4, R6"},
                                     {0xa0, "@!P0 BRA `(.L_x_0)"}}) {
    rocprofiler_pc_sampling_instruction_t inst{};
    inst.size = sizeof(inst);
    inst.pc.code_object_id = 4;
    inst.pc.code_object_offset = offset;
    inst.kernel_id = 7;
    inst.text = text;
    cb(&inst, data);
  }
}

constexpr rocprofiler_buffer_tracing_kind_t k_buffer_kinds[] = {
    ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API};
constexpr rocprofiler_callback_tracing_kind_t k_callback_kinds[] = {
    ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API};

}  // namespace

extern "C" {

__attribute__((
    visibility("default"))) extern const rocprof_backend_manifest_t rocprof_backend_manifest;
const rocprof_backend_manifest_t rocprof_backend_manifest = {sizeof(rocprof_backend_manifest_t),
                                                             ROCPROF_BACKEND_ABI_VERSION,
                                                             1,
                                                             "testbackend",
                                                             k_buffer_kinds,
                                                             2,
                                                             k_callback_kinds,
                                                             1,
                                                             nullptr};  // no injection variable

// Non-zero once the core registered this backend.
__attribute__((visibility("default"))) int test_backend_registered(void) {
  return g_core != nullptr ? 1 : 0;
}

__attribute__((visibility("default"))) rocprofiler_status_t rocprof_backend_register(
    const rocprof_core_services_t* core, rocprof_backend_t* out) {
  if (core->abi_version != ROCPROF_BACKEND_ABI_VERSION)
    return ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
  g_core = core;
  out->name = "testbackend";
  out->backend_data = nullptr;
  out->start = start;
  out->stop = stop;
  out->flush = flush;
  out->shutdown = shutdown;
  out->operation_name = operation_name;
  out->operation_count = operation_count;
  out->discover_agents = discover_agents;
  test_counters::install(out);
  test_counters::install_sampler(out);
  out->pc_sampling_configurations = pc_sampling_configurations;
  out->pc_sampling_loss = pc_sampling_loss;
  out->pc_sampling_instructions = pc_sampling_instructions;
  rocprofiler_agent_v0_t gpu{};
  gpu.size = sizeof(gpu);
  gpu.cu_count = 132;
  gpu.wave_front_size = 32;
  gpu.name = "sm_90";
  gpu.vendor_name = "TEST";
  gpu.product_name = "Test GPU";
  gpu.model_name = "test";
  g_agent = core->register_agent(&gpu);
  test_counters::set_agent(g_agent);
  return g_agent.handle != 0 ? ROCPROFILER_STATUS_SUCCESS : ROCPROFILER_STATUS_ERROR;
}

// What a CUDA backend does for a cudaLaunchKernel: API call scope + the kernel's record.
// Returns the call's internal correlation id.
__attribute__((visibility("default"))) uint64_t test_backend_launch(void) {
  rocprof_api_scope_t scope;
  g_core->api_enter(&scope, ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, 211, nullptr);
  rocprofiler_buffer_tracing_kernel_dispatch_record_t rec{};
  rec.size = sizeof(rec);
  rec.kind = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
  rec.operation = ROCPROFILER_KERNEL_DISPATCH_COMPLETE;
  rec.correlation_id.internal = scope.correlation_id.internal;
  rec.thread_id = g_core->thread_id();
  rec.start_timestamp = g_core->timestamp();
  rec.end_timestamp = rec.start_timestamp + 1000;
  rec.dispatch_info.size = sizeof(rec.dispatch_info);
  rec.dispatch_info.agent_id = g_agent;
  rec.dispatch_info.grid_size = rocprofiler_dim3_t{1024, 1, 1};
  rec.graph_id = 5;
  if (g_core->buffer_kind_enabled(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, -1))
    g_core->emit_buffer_record(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, &rec,
                               ROCPROF_EMIT_FILL_EXTERNAL);
  g_core->api_exit(&scope, nullptr);
  return scope.correlation_id.internal;
}

// A launch as a counting GPU backend does it: the dispatch gets its id and correlation id
// first, the counting service is asked before the launch, the values come back after it, and
// the kernel record carries the same ids. Returns the dispatch id.
__attribute__((visibility("default"))) uint64_t test_backend_counted_launch(uint32_t grid_x) {
  static uint64_t next_dispatch = 0;
  rocprof_api_scope_t scope;
  g_core->api_enter(&scope, ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, 211, nullptr);
  rocprofiler_kernel_dispatch_info_t info{};
  info.size = sizeof(info);
  info.agent_id = g_agent;
  info.kernel_id = 7;
  info.dispatch_id = ++next_dispatch;
  info.grid_size = rocprofiler_dim3_t{grid_x, 1, 1};
  info.workgroup_size = rocprofiler_dim3_t{256, 1, 1};
  const rocprofiler_async_correlation_id_t corr{scope.correlation_id.internal,
                                                scope.correlation_id.external};
  const uint64_t start = g_core->timestamp();
  if (g_core->counting_active()) {
    rocprof_counted_dispatch_t counted;
    const uint64_t set = g_core->counting_dispatch_begin(&counted, &info, corr);
    if (counted.config != 0) {
      double values[test_counters::max_set_size] = {};
      const uint64_t n = test_counters::values_for(set, grid_x, values);
      g_core->counting_dispatch_end(&counted, set != 0 ? values : nullptr, n, start,
                                    g_core->timestamp());
    }
  }
  rocprofiler_buffer_tracing_kernel_dispatch_record_t rec{};
  rec.size = sizeof(rec);
  rec.kind = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
  rec.operation = ROCPROFILER_KERNEL_DISPATCH_COMPLETE;
  rec.correlation_id = corr;
  rec.thread_id = g_core->thread_id();
  rec.start_timestamp = start;
  rec.end_timestamp = start + 1000;
  rec.dispatch_info = info;
  if (g_core->buffer_kind_enabled(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, -1))
    g_core->emit_buffer_record(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, &rec,
                               ROCPROF_EMIT_FILL_EXTERNAL);
  g_core->api_exit(&scope, nullptr);
  return info.dispatch_id;
}

__attribute__((visibility("default"))) int test_backend_kernel_dispatch_enabled(void) {
  const unsigned k = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
  return static_cast<int>((g_kinds.buffer_kinds[k / 64] >> (k % 64)) & 1u);
}

// The PC sampling request the core passed with the latest start (interval 0: none).
__attribute__((visibility("default"))) uint64_t test_backend_pc_sampling_interval(void) {
  return g_kinds.pc_sampling_count > 0 ? g_kinds.pc_sampling[0].interval : 0;
}

// What the backend's drain thread does with one aggregated CUPTI sample.
__attribute__((visibility("default"))) void test_backend_emit_pc_sample(uint64_t offset,
                                                                        uint64_t samples) {
  emit_pc_sample(offset, samples);
}

// The next stop emits one sample of `samples` at offset 0x2a0 (the last range's data).
__attribute__((visibility("default"))) void test_backend_emit_pc_sample_at_stop(uint64_t samples) {
  g_samples_at_stop = samples;
}

__attribute__((visibility("default"))) int test_backend_starts(void) {
  return g_starts;
}

// What a GPU backend does at a launch when tools want to be asked for external ids: the core's
// request service (appended to the services table; 0 when this core has none).
__attribute__((visibility("default"))) int test_backend_request(
    rocprofiler_external_correlation_id_request_kind_t kind, rocprofiler_tracing_operation_t op,
    uint64_t internal_id, uint64_t* external) {
  if (g_core->size < sizeof(rocprof_core_services_t) ||
      g_core->request_external_correlation_id == nullptr)
    return 0;
  rocprofiler_user_data_t value{};
  const int answered = g_core->request_external_correlation_id(kind, op, internal_id, &value);
  *external = value.value;
  return answered;
}

}  // extern "C"
