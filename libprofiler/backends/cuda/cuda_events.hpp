// What the CUDA backend hands to the profiler core, already normalised: timestamps in
// CLOCK_BOOTTIME ns, CUPTI correlation ids replaced by the core's ids, CUDA devices replaced by
// agent ids. Plain structs; the sink (backend_sink.hpp) converts them to the core's records.
#pragma once

#include <cstdint>
#include <string>

namespace rocprof::cuda {

enum class api_domain : uint8_t { runtime, driver };

struct api_event {
  api_domain domain = api_domain::runtime;
  uint32_t cbid = 0;
  const char* name = nullptr;   // CUPTI's function name; lives as long as libcupti
  uint64_t correlation_id = 0;  // set by backend_sink::api_enter
  uint64_t external_id = 0;     // set by backend_sink::api_enter
  int64_t tid = 0;
  uint64_t start_ns = 0, end_ns = 0;
  // Opaque CUPTI payload for callback tracing: the *_params struct and the return value.
  const void* args = nullptr;
  const void* retval = nullptr;
  int32_t return_code = 0;  // EXIT only
  uint64_t cuda_context = 0;
  uint32_t cuda_context_uid = 0;
};

struct dims {
  uint32_t x = 0, y = 0, z = 0;
};

struct kernel_event {
  uint64_t dispatch_id = 0;  // 1..N per process, in the order records are processed
  uint64_t kernel_id = 0;    // -> kernel_symbol_event, assigned on first sight of the name
  uint64_t agent_id = 0;
  uint64_t queue_id = 0;   // CUDA context id
  uint64_t stream_id = 0;  // CUDA stream id
  uint64_t correlation_id = 0;
  uint64_t external_id = 0;
  int64_t tid = 0;  // launching thread, 0 when no launch callback was seen
  uint64_t start_ns = 0, end_ns = 0;
  uint32_t group_segment_size = 0;  // static + dynamic shared memory per block
  uint32_t dynamic_shared_memory = 0;
  uint32_t private_segment_size = 0;  // local memory per thread
  uint32_t arch_vgpr_count = 0;       // registers per thread
  dims workgroup;                     // block
  dims grid;                          // grid * block, in threads
  dims cluster;                       // 0 when no cluster launch
  uint64_t graph_id = 0, graph_node_id = 0;
};

enum class copy_direction : uint8_t {
  none,
  host_to_host,
  host_to_device,
  device_to_host,
  device_to_device,
  peer_to_peer
};

struct memcpy_event {
  copy_direction direction = copy_direction::none;
  uint32_t src_memory_kind = 0, dst_memory_kind = 0;  // CUpti_ActivityMemoryKind values
  uint64_t correlation_id = 0;
  uint64_t external_id = 0;
  int64_t tid = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint64_t src_agent_id = 0, dst_agent_id = 0;
  uint64_t bytes = 0;
  uint64_t queue_id = 0, stream_id = 0;
  uint64_t graph_id = 0, graph_node_id = 0;
};

struct memset_event {
  uint64_t correlation_id = 0;
  uint64_t external_id = 0;
  uint32_t memory_kind = 0;  // CUpti_ActivityMemoryKind value
  int64_t tid = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint64_t agent_id = 0;
  uint64_t bytes = 0;
  uint32_t value = 0;
  uint64_t queue_id = 0, stream_id = 0;
  uint64_t graph_id = 0, graph_node_id = 0;
};

enum class allocation_op : uint8_t { allocate, release };

struct allocation_event {
  allocation_op operation = allocation_op::allocate;
  uint64_t correlation_id = 0;
  uint64_t external_id = 0;
  int64_t tid = 0;
  uint64_t timestamp_ns = 0;
  uint64_t agent_id = 0;
  uint64_t address = 0;
  uint64_t bytes = 0;
  uint64_t stream_id = 0;
  uint32_t memory_kind_id = 0;   // CUpti_ActivityMemoryKind value
  const char* memory_kind = "";  // "DEVICE", "PINNED", "MANAGED", ... (static strings)
};

// One GPU, from the driver's device attributes.
struct gpu_agent {
  int device_ordinal = 0;
  std::string name, uuid;  // uuid as "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  unsigned char uuid_bytes[16] = {};
  uint32_t pci_domain = 0, pci_bus = 0, pci_device = 0;
  uint32_t sm_count = 0, warp_size = 0;
  uint32_t shared_mem_per_block = 0, shared_mem_per_sm = 0;
  uint32_t max_threads_per_block = 0, max_threads_per_sm = 0;
  uint32_t max_block_dim[3] = {0, 0, 0};
  uint32_t max_grid_dim[3] = {0, 0, 0};
  uint32_t clock_khz = 0, memory_clock_khz = 0, memory_bus_width = 0;
  uint32_t compute_major = 0, compute_minor = 0;
  uint64_t total_memory = 0;
};

struct code_object_event {
  uint64_t code_object_id = 0;  // load order, 1..N
  uint64_t cubin_address = 0;   // where the driver holds the cubin (valid during the call)
  uint64_t agent_id = 0;
  uint32_t module_id = 0;
  uint64_t size = 0;  // cubin bytes
  uint64_t crc = 0;   // cuptiGetCubinCrc
  uint64_t timestamp_ns = 0;
};

// What a kernel record says about a function's resources; at a counted launch the driver says
// it (cuFuncGetAttribute) before any record of the kernel exists.
struct function_resources {
  uint32_t registers_per_thread = 0;
  uint32_t static_shared_memory = 0;
  uint32_t local_memory_per_thread = 0;
};

struct kernel_symbol_event {
  uint64_t kernel_id = 0;
  uint64_t code_object_id = 0;         // the module whose cubin defines it (0: none seen)
  const char* mangled_name = nullptr;  // valid during the call only
  uint32_t static_shared_memory = 0;   // from the first dispatch seen
  uint32_t local_memory_per_thread = 0;
  uint32_t registers_per_thread = 0;
};

}  // namespace rocprof::cuda
