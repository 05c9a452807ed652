#include "abi_sink.hpp"

#include "counters/counter_sets.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>

#include "api_args.hpp"

namespace rocprof::cuda {
namespace {

// The scopes of the traced API calls this thread is inside: CUPTI gives ENTER and EXIT as two
// callbacks, so the scope the core wants "on the caller's stack" lives here instead. Deeper
// nesting than this is not traced (never seen: CUDA nests a runtime call's driver calls only).
// One thread_local block, its address taken once per call (each access to a thread_local of
// this dlopen'ed library is a __tls_get_addr call).
constexpr uint32_t max_scopes = 16;
struct scope_stack {
  rocprof_api_scope_t scopes[max_scopes];
  uint32_t depth = 0;
  uint32_t overflow = 0;
};
thread_local scope_stack t_stack;
// Out of line: the caller keeps the pointer (GCC otherwise recomputes the address after calls).
__attribute__((noinline)) scope_stack* this_thread_scopes() {
  return &t_stack;
}

rocprofiler_callback_tracing_kind_t callback_kind_of(api_domain d) {
  return d == api_domain::runtime ? ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API
                                  : ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API;
}
rocprofiler_buffer_tracing_kind_t buffer_kind_of(api_domain d) {
  return d == api_domain::runtime ? ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API
                                  : ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API;
}

rocprofiler_memory_copy_operation_t operation_of(copy_direction d) {
  switch (d) {
    case copy_direction::host_to_host:
      return ROCPROFILER_MEMORY_COPY_HOST_TO_HOST;
    case copy_direction::host_to_device:
      return ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE;
    case copy_direction::device_to_host:
      return ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST;
    case copy_direction::device_to_device:
      return ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE;
    case copy_direction::peer_to_peer:
      return ROCPROFILER_MEMORY_COPY_PEER_TO_PEER;
    default:
      return ROCPROFILER_MEMORY_COPY_NONE;
  }
}

rocprofiler_dim3_t dim3_of(const dims& d) {
  return rocprofiler_dim3_t{d.x, d.y, d.z};
}

// The buffer record of one API call, without arguments; `ids` as the call's scope had them.
rocprofiler_buffer_tracing_cuda_api_record_t api_record_of(const api_event& e,
                                                           rocprofiler_correlation_id_t ids) {
  rocprofiler_buffer_tracing_cuda_api_record_t r{};
  r.size = sizeof(r);
  r.kind = buffer_kind_of(e.domain);
  r.operation = static_cast<rocprofiler_tracing_operation_t>(e.cbid);
  r.correlation_id = ids;
  r.start_timestamp = e.start_ns;
  r.end_timestamp = e.end_ns;
  r.thread_id = static_cast<rocprofiler_thread_id_t>(e.tid);
  r.return_code = e.return_code;
  return r;
}

rocprofiler_callback_tracing_cuda_api_data_t payload_of(const api_event& e) {
  rocprofiler_callback_tracing_cuda_api_data_t p{};
  p.size = sizeof(p);
  p.function_name = e.name;
  p.args = e.args;
  p.retval = e.retval;
  p.cuda_context = e.cuda_context;
  p.cuda_context_uid = e.cuda_context_uid;
  return p;
}

}  // namespace

void abi_sink::set_kinds(const rocprof_enabled_kinds_t& kinds) {
  kinds_ = rocprof_enabled_kinds_t{};
  std::memcpy(&kinds_, &kinds, kinds.size < sizeof(kinds_) ? kinds.size : sizeof(kinds_));
  // A core that does not say which request services exist may have some: always ask it.
  const bool told = kinds_.size >= offsetof(rocprof_enabled_kinds_t, external_request_kinds) +
                                       sizeof(kinds_.external_request_kinds);
  request_kinds_.store(told ? kinds_.external_request_kinds : ~uint64_t{0},
                       std::memory_order_relaxed);
}

uint64_t abi_sink::pc_sampling_interval() {
  // One CUPTI configuration serves every context of the process: the first request's.
  return kinds_.pc_sampling_count > 0 ? kinds_.pc_sampling[0].interval : 0;
}

void abi_sink::emit_pc_sample(const rocprofiler_pc_sampling_record_aggregated_v0_t& r) {
  if (core_->size < sizeof(rocprof_core_services_t) || core_->emit_pc_sampling_record == nullptr)
    return;
  core_->emit_pc_sampling_record(r.agent_id, ROCPROFILER_PC_SAMPLING_RECORD_AGGREGATED_V0_SAMPLE,
                                 &r);
}

bool abi_sink::launch_time_ids_needed() {
  // A core that does not say which request services exist may have some: keep the hook.
  if (kinds_.size < offsetof(rocprof_enabled_kinds_t, external_request_kinds) +
                        sizeof(kinds_.external_request_kinds))
    return true;
  uint64_t work_requests = 0;
  for (rocprofiler_external_correlation_id_request_kind_t k :
       {ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,
        ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY,
        ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_SET,
        ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_ALLOCATION})
    work_requests |= uint64_t{1} << k;
  // Tools push external ids for ranges from their marker callbacks (the tool's --kernel-rename).
  return (kinds_.external_request_kinds & work_requests) != 0 ||
         callback_kind(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API) ||
         callback_kind(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API);
}

bool abi_sink::owns_agent(uint64_t agent) const {
  std::lock_guard<std::mutex> lock(agents_mutex_);
  for (uint64_t a : gpu_agents_)
    if (a == agent) return true;
  return false;
}

bool abi_sink::buffer_kind(uint32_t kind) const {
  return kind < 64 * ROCPROF_BACKEND_KIND_WORDS &&
         ((kinds_.buffer_kinds[kind / 64] >> (kind % 64)) & 1U) != 0;
}
bool abi_sink::callback_kind(uint32_t kind) const {
  return kind < 64 * ROCPROF_BACKEND_KIND_WORDS &&
         ((kinds_.callback_kinds[kind / 64] >> (kind % 64)) & 1U) != 0;
}

bool abi_sink::enabled(cuda_domain d) {
  switch (d) {
    case cuda_domain::runtime_api:
      return buffer_kind(ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API) ||
             callback_kind(ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API);
    case cuda_domain::driver_api:
      return buffer_kind(ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API) ||
             callback_kind(ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API);
    case cuda_domain::kernel_dispatch:
      return buffer_kind(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH);
    case cuda_domain::memory_copy:
      return buffer_kind(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY);
    case cuda_domain::memory_set:
      return buffer_kind(ROCPROFILER_BUFFER_TRACING_MEMORY_SET);
    case cuda_domain::memory_allocation:
      return buffer_kind(ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION);
    case cuda_domain::code_objects:
      return callback_kind(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT);
    default:
      return false;
  }
}

bool abi_sink::api_traced(api_domain domain, uint32_t cbid) {
  const auto op = static_cast<rocprofiler_tracing_operation_t>(cbid);
  return core_->buffer_kind_enabled(buffer_kind_of(domain), op) != 0 ||
         core_->callback_kind_enabled(callback_kind_of(domain), op) != 0;
}

uint64_t abi_sink::external_id() {
  return core_->external_correlation_id(rocprofiler_context_id_t{0}).value;
}

abi_sink::abi_sink(const rocprof_core_services_t* core) : core_{core} {
  constexpr size_t needed =
      offsetof(rocprof_core_services_t, api_enter_at) + sizeof(core->api_enter_at);
  if (core_ != nullptr && core_->size >= needed) api_enter_at_ = core_->api_enter_at;
}

void abi_sink::api_enter(api_event& e) {
  scope_stack& stack = *this_thread_scopes();
  if (stack.depth >= max_scopes) {
    ++stack.overflow;
    e.correlation_id = core_->next_correlation_id();
    return;
  }
  // The core fills every field it reads later (a scope of the stack is reused as is).
  rocprof_api_scope_t& scope = stack.scopes[stack.depth++];
  scope.size = sizeof(scope);
  rocprofiler_callback_tracing_cuda_api_data_t payload = payload_of(e);
  const auto kind = callback_kind_of(e.domain);
  const auto op = static_cast<rocprofiler_tracing_operation_t>(e.cbid);
  // The call's start is e.start_ns, read by the callback: the core need not read it again.
  if (api_enter_at_ != nullptr && e.start_ns != 0)
    api_enter_at_(&scope, kind, op, &payload, e.start_ns);
  else
    core_->api_enter(&scope, kind, op, &payload);
  e.correlation_id = scope.correlation_id.internal;
  e.external_id = scope.correlation_id.external.value;
}

void abi_sink::api_exit(const api_event& e) {
  scope_stack& stack = *this_thread_scopes();
  if (stack.overflow > 0) {
    --stack.overflow;
    return;
  }
  if (stack.depth == 0) return;
  rocprof_api_scope_t& scope = stack.scopes[--stack.depth];
  rocprofiler_callback_tracing_cuda_api_data_t payload = payload_of(e);
  core_->api_exit(&scope, &payload);
  const rocprofiler_buffer_tracing_kind_t kind = buffer_kind_of(e.domain);
  const auto op = static_cast<rocprofiler_tracing_operation_t>(e.cbid);
  if (core_->buffer_kind_enabled(kind, op) == 0) return;
  rocprofiler_buffer_tracing_cuda_api_record_t r = api_record_of(e, scope.correlation_id);
  // The arguments by value: what CUPTI's parameter struct holds stays valid in the copy.
  const api_signature* sig = e.args != nullptr ? find_signature(e.domain, e.cbid) : nullptr;
  if (sig != nullptr && sig->params_size <= sizeof(r.args)) {
    std::memcpy(r.args, e.args, sig->params_size);
    r.args_size = sig->params_size;
  }
  core_->emit_buffer_record(kind, &r, 0);
}

void abi_sink::emit(const kernel_event& e) {
  rocprofiler_buffer_tracing_kernel_dispatch_record_t r{};
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
  r.operation = ROCPROFILER_KERNEL_DISPATCH_COMPLETE;
  r.correlation_id.internal = e.correlation_id;
  r.correlation_id.external.value = e.external_id;
  r.thread_id = static_cast<rocprofiler_thread_id_t>(e.tid);
  r.start_timestamp = e.start_ns;
  r.end_timestamp = e.end_ns;
  rocprofiler_kernel_dispatch_info_t& d = r.dispatch_info;
  d.size = sizeof(d);
  d.agent_id.handle = e.agent_id;
  d.queue_id.handle = e.queue_id;
  d.kernel_id = e.kernel_id;
  d.dispatch_id = e.dispatch_id;
  d.private_segment_size = e.private_segment_size;
  d.group_segment_size = e.group_segment_size;
  d.workgroup_size = dim3_of(e.workgroup);
  d.grid_size = dim3_of(e.grid);
  r.stream_id.handle = e.stream_id;
  r.graph_id = e.graph_id;
  r.graph_node_id = e.graph_node_id;
  r.cluster_size = dim3_of(e.cluster);
  r.dynamic_shared_memory_size = e.dynamic_shared_memory;
  core_->emit_buffer_record(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, &r, 0);
}

void abi_sink::emit(const memcpy_event& e) {
  rocprofiler_buffer_tracing_memory_copy_record_t r{};
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_MEMORY_COPY;
  r.operation = operation_of(e.direction);
  r.correlation_id.internal = e.correlation_id;
  r.correlation_id.external.value = e.external_id;
  r.thread_id = static_cast<rocprofiler_thread_id_t>(e.tid);
  r.start_timestamp = e.start_ns;
  r.end_timestamp = e.end_ns;
  r.dst_agent_id.handle = e.dst_agent_id;
  r.src_agent_id.handle = e.src_agent_id;
  r.bytes = e.bytes;
  r.stream_id.handle = e.stream_id;
  r.src_memory_kind = e.src_memory_kind;
  r.dst_memory_kind = e.dst_memory_kind;
  r.graph_id = e.graph_id;
  r.graph_node_id = e.graph_node_id;
  core_->emit_buffer_record(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, &r, 0);
}

void abi_sink::emit(const memset_event& e) {
  rocprofiler_buffer_tracing_memory_set_record_t r{};
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_MEMORY_SET;
  r.operation = ROCPROFILER_MEMORY_SET_MEMSET;
  r.correlation_id.internal = e.correlation_id;
  r.correlation_id.external.value = e.external_id;
  r.thread_id = static_cast<rocprofiler_thread_id_t>(e.tid);
  r.start_timestamp = e.start_ns;
  r.end_timestamp = e.end_ns;
  r.agent_id.handle = e.agent_id;
  r.bytes = e.bytes;
  r.value = e.value;
  r.memory_kind = e.memory_kind;
  r.stream_id.handle = e.stream_id;
  r.graph_id = e.graph_id;
  r.graph_node_id = e.graph_node_id;
  core_->emit_buffer_record(ROCPROFILER_BUFFER_TRACING_MEMORY_SET, &r, 0);
}

void abi_sink::emit(const allocation_event& e) {
  rocprofiler_buffer_tracing_memory_allocation_record_t r{};
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION;
  r.operation = e.operation == allocation_op::allocate ? ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE
                                                       : ROCPROFILER_MEMORY_ALLOCATION_FREE;
  r.correlation_id.internal = e.correlation_id;
  r.correlation_id.external.value = e.external_id;
  r.thread_id = static_cast<rocprofiler_thread_id_t>(e.tid);
  r.start_timestamp = e.timestamp_ns;
  r.end_timestamp = e.timestamp_ns;
  r.agent_id.handle = e.agent_id;
  r.address.value = e.address;
  r.allocation_size = e.bytes;
  r.memory_kind = e.memory_kind_id;
  r.stream_id.handle = e.stream_id;
  core_->emit_buffer_record(ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION, &r, 0);
}

uint64_t abi_sink::counting_begin(rocprof_counted_dispatch_t& d,
                                  const rocprofiler_kernel_dispatch_info_t& info,
                                  uint64_t correlation_id, uint64_t external_id) {
  rocprofiler_async_correlation_id_t corr{};
  corr.internal = correlation_id;
  corr.external.value = external_id;
  return core_->counting_dispatch_begin(&d, &info, corr);
}

void abi_sink::counting_end(const rocprof_counted_dispatch_t& d, const double* values,
                            uint64_t count, uint64_t start_ns, uint64_t end_ns) {
  core_->counting_dispatch_end(&d, values, count, start_ns, end_ns);
}

uint64_t abi_sink::register_gpu(const gpu_agent& a) {
  // Once per device: an agent listing (discover_agents, or PC sampling, which needs agents at
  // tool initialisation) may come before the session's own when CUDA creates a context.
  std::lock_guard<std::mutex> lock(agents_mutex_);
  if (const uint64_t known = plugin_counter_sets().agent_of_device(a.device_ordinal)) return known;
  if (static_cast<size_t>(a.device_ordinal) < gpu_agents_.size() &&
      gpu_agents_[static_cast<size_t>(a.device_ordinal)] != 0)
    return gpu_agents_[static_cast<size_t>(a.device_ordinal)];
  rocprofiler_agent_v0_t g{};
  g.size = sizeof(g);
  g.type = ROCPROFILER_AGENT_TYPE_GPU;
  g.wave_front_size = a.warp_size;
  g.cu_count = a.sm_count;
  g.simd_per_cu = 4;  // SM sub-partitions (SMSPs) per SM on every architecture since Volta
  g.simd_count = a.sm_count * g.simd_per_cu;
  g.lds_size_in_kb = a.shared_mem_per_sm / 1024;
  g.max_waves_per_cu = a.warp_size != 0 ? a.max_threads_per_sm / a.warp_size : 0;
  g.gfx_target_version = 10 * a.compute_major + a.compute_minor;
  g.vendor_id = 0x10de;
  g.location_id = (a.pci_bus << 8) | (a.pci_device << 3);
  g.domain = a.pci_domain;
  g.max_engine_clk_fcompute = a.clock_khz / 1000;
  g.workgroup_max_size = a.max_threads_per_block;
  g.workgroup_max_lds_size = a.shared_mem_per_block;
  g.max_engine_clk_fcompute_khz = a.clock_khz;
  g.grid_max_size = a.max_grid_dim[0];
  g.local_mem_size = a.total_memory;
  g.workgroup_max_dim = {a.max_block_dim[0], a.max_block_dim[1], a.max_block_dim[2]};
  g.grid_max_dim = {a.max_grid_dim[0], a.max_grid_dim[1], a.max_grid_dim[2]};
  const std::string model = "sm_" + std::to_string(10 * a.compute_major + a.compute_minor);
  g.name = a.name.c_str();
  g.vendor_name = "NVIDIA";
  g.product_name = a.name.c_str();
  g.model_name = model.c_str();
  g.logical_node_type_id = a.device_ordinal;
  g.runtime_visibility.cuda = 1;
  for (int i = 0; i < 16; ++i)
    g.uuid.bytes[i] = a.uuid_bytes[i];
  const uint64_t id = core_->register_agent(&g).handle;
  if (id != 0) plugin_counter_sets().add_agent(id, a);  // its counters, when asked for
  const auto ordinal = static_cast<size_t>(a.device_ordinal);
  if (ordinal < 4096) {
    if (gpu_agents_.size() <= ordinal) gpu_agents_.resize(ordinal + 1, 0);
    gpu_agents_[ordinal] = id;
  }
  return id;
}

uint64_t abi_sink::cpu_agent_id() {
  // The ABI has no "CPU agent" service (ABI_REQUESTS.md): ask the core's public API, once.
  std::call_once(cpu_once_, [this] {
    using query_fn = rocprofiler_status_t (*)(
        rocprofiler_agent_version_t, rocprofiler_query_available_agents_cb_t, size_t, void*);
    auto query =
        reinterpret_cast<query_fn>(dlsym(RTLD_DEFAULT, "rocprofiler_query_available_agents"));
    if (query == nullptr) return;
    query(
        ROCPROFILER_AGENT_INFO_VERSION_0,
        [](rocprofiler_agent_version_t, const void** agents, size_t n, void* user) {
          auto* out = static_cast<std::atomic<uint64_t>*>(user);
          for (size_t i = 0; i < n; ++i) {
            const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
            if (a->type == ROCPROFILER_AGENT_TYPE_CPU) {
              out->store(a->id.handle);
              break;
            }
          }
          return ROCPROFILER_STATUS_SUCCESS;
        },
        sizeof(rocprofiler_agent_v0_t), &cpu_agent_);
  });
  return cpu_agent_.load();
}

void abi_sink::code_object_loaded(const code_object_event& e) {
  // The cubin lives in driver memory: a MEMORY code object. Its CRC and load order have no
  // field in the load payload (ABI_REQUESTS.md), so they ride in the URI's fragment.
  char uri[160];
  std::snprintf(uri, sizeof(uri), "memory://%d#offset=0x%llx&size=%llu&crc=0x%llx&module=%u",
                static_cast<int>(getpid()), static_cast<unsigned long long>(e.cubin_address),
                static_cast<unsigned long long>(e.size), static_cast<unsigned long long>(e.crc),
                e.module_id);
  rocprofiler_callback_tracing_code_object_load_data_t d{};
  d.size = sizeof(d);
  d.code_object_id = e.code_object_id;
  d.agent_id.handle = e.agent_id;
  d.uri = uri;
  d.load_size = e.size;
  d.storage_type = ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
  d.storage_file = -1;
  d.memory_base = e.cubin_address;
  d.memory_size = e.size;
  core_->report_code_object(ROCPROFILER_CODE_OBJECT_LOAD, ROCPROFILER_CALLBACK_PHASE_LOAD, &d);
}

void abi_sink::kernel_symbol(const kernel_symbol_event& e) {
  rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t d{};
  d.size = sizeof(d);
  d.kernel_id = e.kernel_id;
  d.code_object_id = e.code_object_id;
  d.kernel_name = e.mangled_name;
  d.group_segment_size = e.static_shared_memory;
  d.private_segment_size = e.local_memory_per_thread;
  d.arch_vgpr_count = e.registers_per_thread;
  core_->report_code_object(ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER,
                            ROCPROFILER_CALLBACK_PHASE_LOAD, &d);
}

bool abi_sink::request_external_id(cuda_domain work, uint32_t operation, uint64_t internal_id,
                                   uint64_t* external) {
  // Appended to the ABI: a core that predates the member has no requests.
  constexpr size_t needed = offsetof(rocprof_core_services_t, request_external_correlation_id) +
                            sizeof(core_->request_external_correlation_id);
  if (core_->size < needed || core_->request_external_correlation_id == nullptr) return false;
  rocprofiler_external_correlation_id_request_kind_t kind =
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE;
  switch (work) {
    case cuda_domain::kernel_dispatch:
      kind = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH;
      break;
    case cuda_domain::memory_copy:
      kind = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY;
      break;
    case cuda_domain::memory_set:
      kind = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_SET;
      break;
    case cuda_domain::memory_allocation:
      kind = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_ALLOCATION;
      break;
    default:
      return false;
  }
  // Asked at every launch: no call into the core when no context requested this kind of work.
  if ((request_kinds_.load(std::memory_order_relaxed) & (uint64_t{1} << kind)) == 0) return false;
  rocprofiler_user_data_t value{};
  if (core_->request_external_correlation_id(
          kind, static_cast<rocprofiler_tracing_operation_t>(operation), internal_id, &value) == 0)
    return false;
  *external = value.value;
  return true;
}

void abi_sink::dropped(uint64_t count) {
  // CUPTI counts drops per context and stream, not per kind: charge the first enabled kind.
  for (rocprofiler_buffer_tracing_kind_t k :
       {ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
        ROCPROFILER_BUFFER_TRACING_MEMORY_SET, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION}) {
    if (buffer_kind(k)) {
      core_->report_dropped(k, count);
      return;
    }
  }
}

void abi_sink::emit_api_record(const api_event& e) {
  const rocprofiler_buffer_tracing_kind_t kind = buffer_kind_of(e.domain);
  const auto op = static_cast<rocprofiler_tracing_operation_t>(e.cbid);
  if (core_->buffer_kind_enabled(kind, op) == 0) return;
  // No external id and no ancestor: both belong to the calling thread's state at the call,
  // which an activity record does not carry.
  rocprofiler_correlation_id_t ids{};
  ids.internal = e.correlation_id;
  const rocprofiler_buffer_tracing_cuda_api_record_t r = api_record_of(e, ids);
  core_->emit_buffer_record(kind, &r, 0);
}

bool abi_sink::api_callbacks_requested() {
  return callback_kind(ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API) ||
         callback_kind(ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API);
}

}  // namespace rocprof::cuda
