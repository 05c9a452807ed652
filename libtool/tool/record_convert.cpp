#include "record_convert.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api_args_convert.hpp"
#include "pc_sample_convert.hpp"
#include "record_batch.hpp"
#include "tool_state.hpp"

namespace rocprof::tool {
namespace {

using trace::api_domain;

// The core interns marker messages, domains and operation names: a pointer names one string
// for the whole run, so each callback thread caches pointer -> string id and takes the
// definitions lock only for text it has not seen yet.
// The last answer of each lookup is kept too: consecutive records of a batch come from one
// thread's block and mostly repeat the message and the operation of the previous one.
struct string_cache {
  uint32_t generation = UINT32_MAX;
  std::unordered_map<const void*, trace::string_id> by_pointer;
  std::map<std::pair<uint32_t, int32_t>, trace::string_id> operation_names;
  const void* last_pointer = nullptr;
  trace::string_id last_pointer_id = trace::empty_string;
  std::pair<uint32_t, int32_t> last_operation{UINT32_MAX, 0};
  trace::string_id last_operation_id = trace::empty_string;
  api_args_memo api_args;  // CUDA API argument texts by argument bytes
};

// Not inline: the caller keeps the returned reference in a register, where an inlined
// thread_local access in this shared library recomputed the address (__tls_get_addr) at every
// use, three times per record.
__attribute__((noinline)) string_cache& thread_cache(tool_state& tool) {
  thread_local string_cache cache;
  const uint32_t generation = tool.generation.load(std::memory_order_acquire);
  if (cache.generation != generation) {
    cache = string_cache{};
    cache.generation = generation;
  }
  return cache;
}

trace::string_id intern_pointer(tool_state& tool, string_cache& cache, const char* text) {
  if (text == nullptr || *text == '\0') return trace::empty_string;
  if (text == cache.last_pointer) return cache.last_pointer_id;
  auto found = cache.by_pointer.find(text);
  const auto id = found != cache.by_pointer.end() ? found->second : tool.defs->intern(text);
  if (found == cache.by_pointer.end()) cache.by_pointer.emplace(text, id);
  cache.last_pointer = text;
  cache.last_pointer_id = id;
  return id;
}

trace::string_id operation_name(tool_state& tool, string_cache& cache,
                                rocprofiler_buffer_tracing_kind_t kind, int32_t operation) {
  const auto key = std::make_pair(static_cast<uint32_t>(kind), operation);
  if (key == cache.last_operation) return cache.last_operation_id;
  auto found = cache.operation_names.find(key);
  if (found != cache.operation_names.end()) {
    cache.last_operation = key;
    cache.last_operation_id = found->second;
    return found->second;
  }
  const char* name = nullptr;
  uint64_t length = 0;
  trace::string_id id = trace::empty_string;
  if (rocprofiler_query_buffer_tracing_kind_operation_name(kind, operation, &name, &length) ==
          ROCPROFILER_STATUS_SUCCESS &&
      name != nullptr)
    id = tool.defs->intern(std::string_view(name, static_cast<size_t>(length)));
  cache.operation_names.emplace(key, id);
  return id;
}

bool api_domain_of(uint32_t kind, api_domain* out) {
  switch (kind) {
    case ROCPROFILER_BUFFER_TRACING_HSA_CORE_API:
      *out = api_domain::hsa_core;
      return true;
    case ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API:
      *out = api_domain::hsa_amd_ext;
      return true;
    case ROCPROFILER_BUFFER_TRACING_HSA_IMAGE_EXT_API:
      *out = api_domain::hsa_image_ext;
      return true;
    case ROCPROFILER_BUFFER_TRACING_HSA_FINALIZE_EXT_API:
      *out = api_domain::hsa_finalize_ext;
      return true;
    case ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API:
    case ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT:
      *out = api_domain::hip_runtime;
      return true;
    case ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API:
    case ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT:
      *out = api_domain::hip_compiler;
      return true;
    case ROCPROFILER_BUFFER_TRACING_RCCL_API:
      *out = api_domain::rccl;
      return true;
    case ROCPROFILER_BUFFER_TRACING_ROCDECODE_API:
    case ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT:
      *out = api_domain::rocdecode;
      return true;
    case ROCPROFILER_BUFFER_TRACING_ROCJPEG_API:
      *out = api_domain::rocjpeg;
      return true;
    case ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API:
      *out = api_domain::cuda_runtime;
      return true;
    case ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API:
      *out = api_domain::cuda_driver;
      return true;
    default:
      return false;
  }
}

trace::correlation correlation_of(const rocprofiler_correlation_id_t& id) {
  trace::correlation out;
  out.internal = id.internal;
  out.external = id.external.value;
  out.ancestor = id.ancestor;
  return out;
}

trace::correlation correlation_of(const rocprofiler_async_correlation_id_t& id) {
  trace::correlation out;
  out.internal = id.internal;
  out.external = id.external.value;
  return out;
}

// With --kernel-rename the external id of async records is the message pointer of the
// innermost enclosing ROCTx range (pushed by the rename context, see services.cpp).
trace::string_id region_of(tool_state& tool, string_cache& cache, trace::correlation& corr) {
  if (!tool.settings.kernel_rename || corr.external == 0) return trace::empty_string;
  const auto id = intern_pointer(tool, cache, reinterpret_cast<const char*>(corr.external));
  corr.external = id;
  return id;
}

// The time window of each thread seen in one batch, handed to the definitions at the end of
// the batch: one lock per thread and batch instead of one per record (that lock and its map
// lookup were the largest cost of converting a marker record).
class thread_windows {
 public:
  void observe(int64_t tid, uint64_t start_ns, uint64_t end_ns) {
    if (last_ >= windows_.size() || windows_[last_].tid != tid) {
      auto found = index_.find(tid);
      if (found == index_.end()) {
        found = index_.emplace(tid, windows_.size()).first;
        windows_.push_back(window{tid, 0, 0});
      }
      last_ = found->second;
    }
    window& w = windows_[last_];
    widen_thread_window(w.start_ns, w.end_ns, start_ns, end_ns);
  }
  void hand_to(definitions_builder& defs) const {
    for (const window& w : windows_)
      defs.observe_thread(w.tid, w.start_ns, w.end_ns);
  }

 private:
  struct window {
    int64_t tid;
    uint64_t start_ns;
    uint64_t end_ns;
  };
  std::vector<window> windows_;
  std::unordered_map<int64_t, size_t> index_;
  size_t last_ = 0;
};

struct batch {
  thread_windows threads;
  record_batch records;
};

void convert_api(tool_state& tool, string_cache& cache, int64_t pid, api_domain domain,
                 const rocprofiler_buffer_tracing_api_record_t& in, batch& out) {
  trace::api_record rec;
  rec.domain = domain;
  rec.operation_id = static_cast<uint32_t>(in.operation);
  rec.operation = operation_name(tool, cache, in.kind, in.operation);
  rec.corr = correlation_of(in.correlation_id);
  rec.pid = pid;
  rec.tid = static_cast<int64_t>(in.thread_id);
  rec.start_ns = in.start_timestamp;
  rec.end_ns = in.end_timestamp;
  if (rec.start_ns >= tool.epoch_ns.load(std::memory_order_relaxed))
    out.threads.observe(rec.tid, rec.start_ns, rec.end_ns);
  out.records.of<trace::api_record>().push_back(rec);
}

void convert_marker(tool_state& tool, string_cache& cache, int64_t pid,
                    const rocprofiler_buffer_tracing_marker_api_record_t& in, batch& out) {
  trace::api_record rec;
  switch (in.kind) {
    case ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API:
      rec.domain = api_domain::marker_control;
      break;
    case ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API:
      rec.domain = api_domain::marker_name;
      break;
    default:
      rec.domain = api_domain::marker_core_range;
      break;
  }
  rec.operation_id = static_cast<uint32_t>(in.operation);
  rec.operation = operation_name(tool, cache, in.kind, in.operation);
  rec.message = intern_pointer(tool, cache, in.message);
  rec.marker_domain = intern_pointer(tool, cache, in.domain);
  rec.corr = correlation_of(in.correlation_id);
  if (tool.settings.kernel_rename) rec.corr.external = 0;  // holds a rename pointer, not an id
  rec.pid = pid;
  rec.tid = static_cast<int64_t>(in.thread_id);
  rec.start_ns = in.start_timestamp;
  rec.end_ns = in.end_timestamp;
  if (rec.start_ns < tool.epoch_ns.load(std::memory_order_relaxed)) return;  // parent's
  out.threads.observe(rec.tid, rec.start_ns, rec.end_ns);
  if (in.end_thread_id != 0 && in.end_thread_id != in.thread_id)
    out.threads.observe(static_cast<int64_t>(in.end_thread_id), rec.end_ns, rec.end_ns);
  out.records.of<trace::api_record>().push_back(rec);
}

void convert_dispatch(tool_state& tool, string_cache& cache,
                      const rocprofiler_buffer_tracing_kernel_dispatch_record_t& in, batch& out) {
  trace::kernel_dispatch_record rec;
  fill_dispatch_info(rec, in.dispatch_info);
  rec.stream_id = in.stream_id.handle;
  rec.corr = correlation_of(in.correlation_id);
  rec.region_name = region_of(tool, cache, rec.corr);
  rec.tid = static_cast<int64_t>(in.thread_id);
  rec.start_ns = in.start_timestamp;
  rec.end_ns = in.end_timestamp;
  rec.graph_id = in.graph_id;
  rec.graph_node_id = in.graph_node_id;
  rec.cluster_size = {in.cluster_size.x, in.cluster_size.y, in.cluster_size.z};
  out.records.of<trace::kernel_dispatch_record>().push_back(rec);
}

trace::memory_copy_direction direction_of(rocprofiler_memory_copy_operation_t op) {
  switch (op) {
    case ROCPROFILER_MEMORY_COPY_HOST_TO_HOST:
      return trace::memory_copy_direction::host_to_host;
    case ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE:
      return trace::memory_copy_direction::host_to_device;
    case ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST:
      return trace::memory_copy_direction::device_to_host;
    case ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE:
      return trace::memory_copy_direction::device_to_device;
    case ROCPROFILER_MEMORY_COPY_PEER_TO_PEER:
      return trace::memory_copy_direction::peer_to_peer;
    default:
      return trace::memory_copy_direction::none;
  }
}

void convert_copy(tool_state& tool, string_cache& cache,
                  const rocprofiler_buffer_tracing_memory_copy_record_t& in, batch& out) {
  trace::memory_copy_record rec;
  rec.direction = direction_of(in.operation);
  rec.corr = correlation_of(in.correlation_id);
  rec.region_name = region_of(tool, cache, rec.corr);
  rec.tid = static_cast<int64_t>(in.thread_id);
  rec.start_ns = in.start_timestamp;
  rec.end_ns = in.end_timestamp;
  rec.src_agent_id = in.src_agent_id.handle;
  rec.dst_agent_id = in.dst_agent_id.handle;
  rec.src_address = in.src_address.value;
  rec.dst_address = in.dst_address.value;
  rec.bytes = in.bytes;
  rec.stream_id = in.stream_id.handle;
  out.records.of<trace::memory_copy_record>().push_back(rec);
}

void convert_set(const rocprofiler_buffer_tracing_memory_set_record_t& in, batch& out) {
  trace::memory_set_record rec;
  rec.corr = correlation_of(in.correlation_id);
  rec.tid = static_cast<int64_t>(in.thread_id);
  rec.start_ns = in.start_timestamp;
  rec.end_ns = in.end_timestamp;
  rec.agent_id = in.agent_id.handle;
  rec.address = in.address.value;
  rec.bytes = in.bytes;
  rec.value = in.value;
  rec.stream_id = in.stream_id.handle;
  out.records.of<trace::memory_set_record>().push_back(rec);
}

const char* memory_kind_name(uint32_t kind) {
  switch (kind) {
    case ROCPROFILER_MEMORY_KIND_PAGEABLE:
      return "PAGEABLE";
    case ROCPROFILER_MEMORY_KIND_PINNED:
      return "PINNED";
    case ROCPROFILER_MEMORY_KIND_DEVICE:
      return "DEVICE";
    case ROCPROFILER_MEMORY_KIND_ARRAY:
      return "ARRAY";
    case ROCPROFILER_MEMORY_KIND_MANAGED:
      return "MANAGED";
    case ROCPROFILER_MEMORY_KIND_DEVICE_STATIC:
      return "DEVICE_STATIC";
    case ROCPROFILER_MEMORY_KIND_MANAGED_STATIC:
      return "MANAGED_STATIC";
    default:
      return nullptr;
  }
}

void convert_allocation(tool_state& tool, string_cache& cache,
                        const rocprofiler_buffer_tracing_memory_allocation_record_t& in,
                        batch& out) {
  trace::memory_allocation_record rec;
  switch (in.operation) {
    case ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE:
      rec.operation = trace::memory_allocation_operation::allocate;
      break;
    case ROCPROFILER_MEMORY_ALLOCATION_VMEM_ALLOCATE:
      rec.operation = trace::memory_allocation_operation::vmem_allocate;
      break;
    case ROCPROFILER_MEMORY_ALLOCATION_FREE:
      rec.operation = trace::memory_allocation_operation::free;
      break;
    case ROCPROFILER_MEMORY_ALLOCATION_VMEM_FREE:
      rec.operation = trace::memory_allocation_operation::vmem_free;
      break;
    default:
      break;
  }
  rec.corr = correlation_of(in.correlation_id);
  rec.tid = static_cast<int64_t>(in.thread_id);
  rec.start_ns = in.start_timestamp;
  rec.end_ns = in.end_timestamp;
  rec.agent_id = in.agent_id.handle;
  rec.address = in.address.value;
  rec.size = in.allocation_size;
  rec.stream_id = in.stream_id.handle;
  rec.memory_kind = intern_pointer(tool, cache, memory_kind_name(in.memory_kind));
  out.records.of<trace::memory_allocation_record>().push_back(rec);
}

void convert_scratch(const rocprofiler_buffer_tracing_scratch_memory_record_t& in, batch& out) {
  trace::scratch_memory_record rec;
  switch (in.operation) {
    case ROCPROFILER_SCRATCH_MEMORY_ALLOC:
      rec.operation = trace::scratch_memory_operation::alloc;
      break;
    case ROCPROFILER_SCRATCH_MEMORY_FREE:
      rec.operation = trace::scratch_memory_operation::free;
      break;
    case ROCPROFILER_SCRATCH_MEMORY_ASYNC_RECLAIM:
      rec.operation = trace::scratch_memory_operation::async_reclaim;
      break;
    default:
      break;
  }
  rec.corr = correlation_of(in.correlation_id);
  rec.tid = static_cast<int64_t>(in.thread_id);
  rec.start_ns = in.start_timestamp;
  rec.end_ns = in.end_timestamp;
  rec.agent_id = in.agent_id.handle;
  rec.queue_id = in.queue_id.handle;
  rec.flags = in.flags;
  rec.allocation_size = in.allocation_size;
  out.records.of<trace::scratch_memory_record>().push_back(rec);
}

template <typename T>
const T& payload_as(const rocprofiler_record_header_t* header) {
  return *static_cast<const T*>(header->payload);
}

}  // namespace

void fill_dispatch_info(trace::kernel_dispatch_record& out,
                        const rocprofiler_kernel_dispatch_info_t& info) {
  out.dispatch_id = info.dispatch_id;
  out.kernel_id = info.kernel_id;
  out.agent_id = info.agent_id.handle;
  out.queue_id = info.queue_id.handle;
  out.private_segment_size = info.private_segment_size;
  out.group_segment_size = info.group_segment_size;
  out.workgroup_size = {info.workgroup_size.x, info.workgroup_size.y, info.workgroup_size.z};
  out.grid_size = {info.grid_size.x, info.grid_size.y, info.grid_size.z};
}

trace::string_id kernel_region(tool_state& tool, trace::correlation& corr) {
  return region_of(tool, thread_cache(tool), corr);
}

void convert_records(tool_state& tool, rocprofiler_record_header_t** headers, size_t count,
                     uint64_t drop_count) {
  if (drop_count != 0) tool.defs->add_dropped(drop_count);
  if (tool.finished.load(std::memory_order_acquire) || tool.store == nullptr) return;
  auto& cache = thread_cache(tool);
  const int64_t this_pid = ::getpid();  // per batch: a forked child has its own
  batch out;
  out.records.of<trace::api_record>().reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const rocprofiler_record_header_t* header = headers[i];
    if (header == nullptr || header->payload == nullptr) continue;
    if (header->category == ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING) {
      convert_pc_sample(tool, *header, out.records);
      continue;
    }
    if (header->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
    api_domain domain{};
    switch (header->kind) {
      case ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API:
      case ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API:
      case ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API:
      case ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API:
        convert_marker(tool, cache, this_pid,
                       payload_as<rocprofiler_buffer_tracing_marker_api_record_t>(header), out);
        break;
      case ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH:
        // Sized once per batch: growing it record by record cost a quarter of a kernel
        // record's conversion.
        if (out.records.of<trace::kernel_dispatch_record>().empty())
          out.records.of<trace::kernel_dispatch_record>().reserve(count - i);
        convert_dispatch(tool, cache,
                         payload_as<rocprofiler_buffer_tracing_kernel_dispatch_record_t>(header),
                         out);
        break;
      case ROCPROFILER_BUFFER_TRACING_MEMORY_COPY:
        convert_copy(tool, cache,
                     payload_as<rocprofiler_buffer_tracing_memory_copy_record_t>(header), out);
        break;
      case ROCPROFILER_BUFFER_TRACING_MEMORY_SET:
        convert_set(payload_as<rocprofiler_buffer_tracing_memory_set_record_t>(header), out);
        break;
      case ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION:
        convert_allocation(
            tool, cache, payload_as<rocprofiler_buffer_tracing_memory_allocation_record_t>(header),
            out);
        break;
      case ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY:
        convert_scratch(payload_as<rocprofiler_buffer_tracing_scratch_memory_record_t>(header),
                        out);
        break;
      default:
        if (!api_domain_of(header->kind, &domain)) break;
        convert_api(tool, cache, this_pid, domain,
                    payload_as<rocprofiler_buffer_tracing_api_record_t>(header), out);
        // CUDA API records carry their arguments (the other API kinds have no backend here).
        if (domain == api_domain::cuda_runtime || domain == api_domain::cuda_driver)
          out.records.of<trace::api_record>().back().args =
              convert_api_args(*tool.defs, cache.api_args, *header);
        break;
    }
  }
  const uint64_t epoch = tool.epoch_ns.load(std::memory_order_acquire);
  if (epoch != 0) out.records.drop_before(epoch);
  out.threads.hand_to(*tool.defs);
  tool.store->append(out.records);
}

}  // namespace rocprof::tool
