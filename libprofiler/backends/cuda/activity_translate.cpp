#include "activity_translate.hpp"

namespace rocprof::cuda {
namespace {

uint32_t u32(int32_t v) {
  return v > 0 ? static_cast<uint32_t>(v) : 0U;
}

}  // namespace

copy_direction direction_of(uint8_t copy_kind) {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
      return copy_direction::host_to_device;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
      return copy_direction::device_to_host;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
      return copy_direction::device_to_device;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return copy_direction::host_to_host;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return copy_direction::peer_to_peer;
    default:
      return copy_direction::none;
  }
}

const char* memory_kind_name(uint32_t memory_kind) {
  switch (memory_kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
      return "PAGEABLE";
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
      return "PINNED";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
      return "DEVICE";
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
      return "ARRAY";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
      return "MANAGED";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
      return "DEVICE_STATIC";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
      return "MANAGED_STATIC";
    default:
      return "UNKNOWN";
  }
}

kernel_event translate(const CUpti_ActivityKernel10& k) {
  kernel_event e;
  e.queue_id = k.contextId;
  e.stream_id = k.streamId;
  e.start_ns = k.start;
  e.end_ns = k.end;
  e.group_segment_size = u32(k.staticSharedMemory) + u32(k.dynamicSharedMemory);
  e.dynamic_shared_memory = u32(k.dynamicSharedMemory);
  e.private_segment_size = k.localMemoryPerThread;
  e.arch_vgpr_count = k.registersPerThread;
  e.workgroup = {u32(k.blockX), u32(k.blockY), u32(k.blockZ)};
  // rocprofv3 counts the grid in work-items, CUDA in blocks.
  e.grid = {u32(k.gridX) * e.workgroup.x, u32(k.gridY) * e.workgroup.y,
            u32(k.gridZ) * e.workgroup.z};
  e.cluster = {k.clusterX, k.clusterY, k.clusterZ};
  e.graph_id = k.graphId;
  e.graph_node_id = k.graphNodeId;
  return e;
}

memcpy_event translate(const CUpti_ActivityMemcpy6& m) {
  memcpy_event e;
  e.direction = direction_of(m.copyKind);
  e.src_memory_kind = m.srcKind;
  e.dst_memory_kind = m.dstKind;
  e.start_ns = m.start;
  e.end_ns = m.end;
  e.bytes = m.bytes;
  e.queue_id = m.contextId;
  e.stream_id = m.streamId;
  e.graph_id = m.graphId;
  e.graph_node_id = m.graphNodeId;
  return e;
}

memcpy_event translate(const CUpti_ActivityMemcpyPtoP4& m) {
  memcpy_event e;
  e.direction = copy_direction::peer_to_peer;
  e.src_memory_kind = m.srcKind;
  e.dst_memory_kind = m.dstKind;
  e.start_ns = m.start;
  e.end_ns = m.end;
  e.bytes = m.bytes;
  e.queue_id = m.contextId;
  e.stream_id = m.streamId;
  e.graph_id = m.graphId;
  e.graph_node_id = m.graphNodeId;
  return e;
}

memset_event translate(const CUpti_ActivityMemset4& m) {
  memset_event e;
  e.start_ns = m.start;
  e.end_ns = m.end;
  e.bytes = m.bytes;
  e.value = m.value;
  e.memory_kind = m.memoryKind;
  e.queue_id = m.contextId;
  e.stream_id = m.streamId;
  e.graph_id = m.graphId;
  e.graph_node_id = m.graphNodeId;
  return e;
}

allocation_event translate(const CUpti_ActivityMemory4& m) {
  allocation_event e;
  e.operation = m.memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE
                    ? allocation_op::release
                    : allocation_op::allocate;
  e.timestamp_ns = m.timestamp;
  e.address = m.address;
  e.bytes = m.bytes;
  e.stream_id = m.streamId;
  e.memory_kind_id = static_cast<uint32_t>(m.memoryKind);
  e.memory_kind = memory_kind_name(e.memory_kind_id);
  return e;
}

api_event translate(const CUpti_ActivityAPI& a, api_domain domain) {
  api_event e;
  e.domain = domain;
  e.cbid = a.cbid;
  e.tid = a.threadId;
  e.start_ns = a.start;
  e.end_ns = a.end;
  e.return_code = static_cast<int32_t>(a.returnValue);
  return e;
}

}  // namespace rocprof::cuda
