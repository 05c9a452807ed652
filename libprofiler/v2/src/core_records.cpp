// Core buffer records -> neutral events (core_sdk.hpp).
#include <unordered_map>

#include "core_sdk.hpp"

namespace rocprof::v2::core_port {
namespace {

const char* cached_operation_name(rocprofiler_buffer_tracing_kind_t kind, int32_t operation) {
  // Delivery threads only: a per-thread cache spares the core's lookup per record.
  thread_local std::unordered_map<uint64_t, const char*> cache;
  const uint64_t key = (static_cast<uint64_t>(kind) << 32) | static_cast<uint32_t>(operation);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  return cache.emplace(key, kind_operation_name(kind, operation)).first->second;
}

uint64_t volume(const rocprofiler_dim3_t& d) {
  return static_cast<uint64_t>(d.x) * d.y * d.z;
}

template <typename Record>
void fill_common(core_event& e, const Record& r) {
  e.begin_ns = r.start_timestamp;
  e.end_ns = r.end_timestamp;
  e.thread_id = r.thread_id;
  e.operation = static_cast<uint32_t>(r.operation);
  e.correlation_id = r.correlation_id.internal;
  e.external_id = r.correlation_id.external.value;
}

}  // namespace

bool convert_record(const rocprofiler_record_header_t& header, core_event& e) {
  if (header.category != ROCPROFILER_BUFFER_CATEGORY_TRACING) return false;
  const auto kind = static_cast<rocprofiler_buffer_tracing_kind_t>(header.kind);
  switch (kind) {
    case ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API:
    case ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API: {
      const auto& r = *static_cast<const rocprofiler_buffer_tracing_api_record_t*>(header.payload);
      fill_common(e, r);
      e.what = kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API ? event_class::runtime_api
                                                                   : event_class::driver_api;
      e.name = cached_operation_name(kind, r.operation);
      return true;
    }
    case ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API: {
      const auto& r =
          *static_cast<const rocprofiler_buffer_tracing_marker_api_record_t*>(header.payload);
      fill_common(e, r);
      e.what = event_class::marker;
      e.name = r.message != nullptr ? r.message : cached_operation_name(kind, r.operation);
      return true;
    }
    case ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH: {
      const auto& r =
          *static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(header.payload);
      fill_common(e, r);
      e.what = event_class::kernel;
      e.agent_id = r.dispatch_info.agent_id.handle;
      e.queue_id = r.stream_id.handle != 0 ? r.stream_id.handle : r.dispatch_info.queue_id.handle;
      e.kernel_id = r.dispatch_info.kernel_id;
      e.grid_size = volume(r.dispatch_info.grid_size);
      e.workgroup_size = volume(r.dispatch_info.workgroup_size);
      e.lds_size = r.dispatch_info.group_segment_size;
      e.scratch_size = r.dispatch_info.private_segment_size;
      return true;
    }
    case ROCPROFILER_BUFFER_TRACING_MEMORY_COPY: {
      const auto& r =
          *static_cast<const rocprofiler_buffer_tracing_memory_copy_record_t*>(header.payload);
      fill_common(e, r);
      e.what = event_class::memory_copy;
      e.name = cached_operation_name(kind, r.operation);
      e.agent_id = r.dst_agent_id.handle != 0 ? r.dst_agent_id.handle : r.src_agent_id.handle;
      e.queue_id = r.stream_id.handle;
      e.bytes = r.bytes;
      return true;
    }
    case ROCPROFILER_BUFFER_TRACING_MEMORY_SET: {
      const auto& r =
          *static_cast<const rocprofiler_buffer_tracing_memory_set_record_t*>(header.payload);
      fill_common(e, r);
      e.what = event_class::memory_set;
      e.name = cached_operation_name(kind, r.operation);
      e.agent_id = r.agent_id.handle;
      e.queue_id = r.stream_id.handle;
      e.bytes = r.bytes;
      return true;
    }
    default:
      return false;
  }
}

}  // namespace rocprof::v2::core_port
