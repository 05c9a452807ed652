// The trace model: what every writer reads and what the tool library (and `rocpd convert`)
// produces. Two halves:
//   * definitions: node, process, threads, agents, queues, streams, strings, code objects,
//     kernel symbols, counters. Small; held in memory whole and handed to writers first.
//   * records: plain fixed-size structs, streamed to writers in batches (see writer.hpp). A
//     writer never needs the whole record set in memory. The kinds are listed once, at the end
//     (ROCPROF_TRACE_RECORD_KINDS); record_kinds.hpp derives the per-kind tables from the list.
// Strings inside records are interned ids (string_id) into trace_definitions::strings.
// Every timestamp is nanoseconds on CLOCK_BOOTTIME.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace rocprof::trace {

using string_id = uint32_t;  // index into trace_definitions::strings; 0 is the empty string
inline constexpr string_id empty_string = 0;

// ---------------------------------------------------------------------------------------------
// API-call domains. Each has a category (the rocprofiler buffer-tracing kind name, used as
// rocpd category, CSV Domain and JSON kind), a summary/stats domain name, the CSV file stem and
// the Perfetto category. Kept in one table (domain_table below) checked to have one row each.
enum class api_domain : uint16_t {
  hsa_core,
  hsa_amd_ext,
  hsa_image_ext,
  hsa_finalize_ext,
  hip_runtime,
  hip_compiler,
  marker_core_range,  // ROCTx / NVTX / Kokkos ranges and marks (MARKER_CORE_RANGE_API)
  marker_control,     // roctxProfilerPause / Resume (MARKER_CONTROL_API)
  marker_name,        // roctxNameOsThread ... (MARKER_NAME_API)
  rccl,
  rocdecode,
  rocjpeg,
  cuda_runtime,
  cuda_driver,
  count
};

struct api_domain_info {
  api_domain domain;
  std::string_view category;           // e.g. "HIP_RUNTIME_API_EXT", "CUDA_RUNTIME_API"
  std::string_view summary_domain;     // e.g. "HIP_API", "MARKER_API", "CUDA_RUNTIME_API"
  std::string_view csv_stem;           // e.g. "hip_api_trace" -> <prefix>_hip_api_trace.csv
  std::string_view stats_stem;         // e.g. "hip_api_stats" -> <prefix>_hip_api_stats.csv
  std::string_view perfetto_category;  // e.g. "hip_api"
  std::string_view json_key;           // key under buffer_records, e.g. "hip_api"
};

inline constexpr std::array<api_domain_info, static_cast<size_t>(api_domain::count)> domain_table{{
    {api_domain::hsa_core, "HSA_CORE_API", "HSA_API", "hsa_api_trace", "hsa_api_stats", "hsa_api",
     "hsa_api"},
    {api_domain::hsa_amd_ext, "HSA_AMD_EXT_API", "HSA_API", "hsa_api_trace", "hsa_api_stats",
     "hsa_api", "hsa_api"},
    {api_domain::hsa_image_ext, "HSA_IMAGE_EXT_API", "HSA_API", "hsa_api_trace", "hsa_api_stats",
     "hsa_api", "hsa_api"},
    {api_domain::hsa_finalize_ext, "HSA_FINALIZE_EXT_API", "HSA_API", "hsa_api_trace",
     "hsa_api_stats", "hsa_api", "hsa_api"},
    {api_domain::hip_runtime, "HIP_RUNTIME_API_EXT", "HIP_API", "hip_api_trace", "hip_api_stats",
     "hip_api", "hip_api"},
    {api_domain::hip_compiler, "HIP_COMPILER_API_EXT", "HIP_API", "hip_api_trace", "hip_api_stats",
     "hip_api", "hip_api"},
    {api_domain::marker_core_range, "MARKER_CORE_RANGE_API", "MARKER_API", "marker_api_trace",
     "marker_api_stats", "marker_api", "marker_api"},
    {api_domain::marker_control, "MARKER_CONTROL_API", "MARKER_API", "marker_api_trace",
     "marker_api_stats", "marker_api", "marker_api"},
    {api_domain::marker_name, "MARKER_NAME_API", "MARKER_API", "marker_api_trace",
     "marker_api_stats", "marker_api", "marker_api"},
    {api_domain::rccl, "RCCL_API", "RCCL_API", "rccl_api_trace", "rccl_api_stats", "rccl_api",
     "rccl_api"},
    {api_domain::rocdecode, "ROCDECODE_API_EXT", "ROCDECODE_API", "rocdecode_api_trace",
     "rocdecode_api_stats", "rocdecode_api", "rocdecode_api"},
    {api_domain::rocjpeg, "ROCJPEG_API", "ROCJPEG_API", "rocjpeg_api_trace", "rocjpeg_api_stats",
     "rocjpeg_api", "rocjpeg_api"},
    {api_domain::cuda_runtime, "CUDA_RUNTIME_API", "CUDA_RUNTIME_API", "cuda_api_trace",
     "cuda_api_stats", "cuda_api", "cuda_api"},
    {api_domain::cuda_driver, "CUDA_DRIVER_API", "CUDA_DRIVER_API", "cuda_api_trace",
     "cuda_api_stats", "cuda_api", "cuda_api"},
}};

constexpr bool domain_table_is_complete() {
  for (size_t i = 0; i < domain_table.size(); ++i)
    if (static_cast<size_t>(domain_table[i].domain) != i) return false;
  return true;
}
static_assert(domain_table_is_complete(), "domain_table needs one row per api_domain, in order");

constexpr const api_domain_info& info(api_domain d) {
  return domain_table[static_cast<size_t>(d)];
}

// ---------------------------------------------------------------------------------------------
// Definitions

struct node_info {
  uint64_t id = 0;    // rocpd nid: hash(machine_id) % INT64_MAX % UINT32_MAX
  uint64_t hash = 0;  // hash(machine_id) % INT64_MAX
  std::string machine_id, system_name, hostname, release, version, hardware_name, domain_name;
};

struct process_info {
  int64_t pid = 0, ppid = 0;
  uint64_t init_ns = 0, fini_ns = 0;  // tool init / fini
  uint64_t start_ns = 0, end_ns = 0;  // process start (from /proc) / end
  std::vector<std::string> command;   // argv
  std::map<std::string, std::string> environment;
  std::string config_json;  // the resolved tool configuration as JSON text (§5.2 "config")
  // CLOCK_REALTIME - CLOCK_BOOTTIME in ns, measured when the tool started and when it finished
  // (0: not measured). `rocpd merge` aligns processes of several hosts on wall-clock time with it.
  int64_t realtime_offset_start_ns = 0, realtime_offset_end_ns = 0;
  int64_t mpi_rank = -1, mpi_size = 0;  // from the launcher's variables; -1: not an MPI rank
};

struct thread_info {
  int64_t tid = 0;
  std::string name;  // from roctxNameOsThread / nvtxNameOsThread / pthread name; may be empty
  uint64_t start_ns = 0, end_ns = 0;  // first and last record seen on the thread
};

enum class agent_type : uint8_t { unknown = 0, cpu = 1, gpu = 2 };

// One CPU core group or GPU. Numeric fields follow rocprofiler_agent_v0_t / agent_info.csv;
// backends fill what their hardware has and leave the rest 0.
struct agent_info {
  uint64_t id = 0;  // agent handle; rocpd rocpd_info_agent.id (= node_id)
  agent_type type = agent_type::unknown;
  uint32_t node_id = 0, logical_node_id = 0, logical_node_type_id = 0;
  std::string name, vendor_name, product_name, model_name;
  std::string uuid;  // device UUID text where known (CUDA: "GPU-xxxxxxxx-...")
  uint32_t cpu_cores_count = 0, simd_count = 0, cpu_core_id_base = 0, simd_id_base = 0;
  uint32_t max_waves_per_simd = 0, lds_size_in_kb = 0, gds_size_in_kb = 0, num_gws = 0;
  uint32_t wave_front_size = 0, num_xcc = 0, cu_count = 0, array_count = 0, num_shader_banks = 0;
  uint32_t simd_arrays_per_engine = 0, cu_per_simd_array = 0, simd_per_cu = 0;
  uint32_t max_slots_scratch_cu = 0, gfx_target_version = 0, vendor_id = 0, device_id = 0;
  uint32_t location_id = 0, domain = 0, drm_render_minor = 0, num_sdma_engines = 0;
  uint32_t num_sdma_xgmi_engines = 0, num_sdma_queues_per_engine = 0, num_cp_queues = 0;
  uint32_t max_engine_clk_ccompute = 0, max_engine_clk_fcompute = 0;
  uint64_t sdma_fw_version = 0, fw_version = 0, capability = 0;
  uint32_t cu_per_engine = 0, max_waves_per_cu = 0, family_id = 0, workgroup_max_size = 0;
  uint64_t grid_max_size = 0, local_mem_size = 0, hive_id = 0, gpu_id = 0;
  uint32_t workgroup_max_dim[3] = {0, 0, 0};
  uint32_t grid_max_dim[3] = {0, 0, 0};
  std::string extdata_json = "{}";  // backend-specific extras (e.g. CUDA clock rates)
};

struct queue_info {  // HSA queue / CUDA context
  uint64_t id = 0;
  std::string name;  // "Queue N" (handle 0: "Default Queue")
};

struct stream_info {  // HIP / CUDA stream
  uint64_t id = 0;
  std::string name;  // "Stream N" (handle 0: "Default Stream")
};

struct code_object_info {
  uint64_t id = 0;
  uint64_t agent_id = 0;
  std::string uri;
  uint64_t load_base = 0, load_size = 0, load_delta = 0;
  bool storage_is_file = false;  // FILE vs MEMORY
  uint64_t memory_base = 0, memory_size = 0;
  uint64_t size = 0;
  std::string extdata_json = "{}";  // e.g. CUDA cubin CRC, load order
};

struct kernel_symbol_info {
  uint64_t kernel_id = 0;
  uint64_t code_object_id = 0;
  std::string mangled_name;  // raw symbol (".kd" stripped)
  std::string demangled_name;
  std::string truncated_name;  // bare function name
  std::string display_name;    // the formatted name per -M / -T
  uint64_t kernel_object = 0;
  uint32_t kernarg_segment_size = 0, kernarg_segment_alignment = 0;
  uint32_t group_segment_size = 0, private_segment_size = 0;
  uint32_t sgpr_count = 0, arch_vgpr_count = 0, accum_vgpr_count = 0;
  std::string extdata_json = "{}";
};

// A dimension of a counter's values (rocprofiler_counter_record_dimension_info_t).
struct counter_dimension {
  uint64_t id = 0;
  std::string name;  // e.g. "DIMENSION_INSTANCE"
  uint64_t instance_size = 1;
};

// One instance of a counter: its instance id (what counter_value_record::instance_id holds) and
// its position in each dimension, in the counter's dimension order.
struct counter_instance {
  uint64_t instance_id = 0;
  std::vector<uint64_t> positions;
};

struct counter_info {
  uint64_t id = 0;
  uint64_t agent_id = 0;
  std::string name, description, block, expression, units;
  bool is_constant = false, is_derived = false;
  std::vector<counter_dimension> dimensions;
  std::vector<counter_instance> instances;
};

// Host call stacks of kernel launches (--kernel-host-callstack), resolved with libdw at the end
// of the run. A frame without debug information keeps its module and ELF symbol (file empty,
// line 0); one in no known module keeps only its address.
struct host_frame {
  uint64_t address = 0;  // return address as captured
  std::string function;  // demangled
  std::string file;
  uint32_t line = 0;
  std::string module;  // shared object or executable path
};

struct host_callstack_info {
  uint64_t id = 0;                 // >= 1
  std::vector<host_frame> frames;  // innermost first, starting at the CUDA call the app made
};

// Which stack launched the work of an API call: correlation::internal of the launch call, which
// the dispatch records of its kernels carry.
struct launch_callstack {
  uint64_t correlation_id = 0;
  uint64_t callstack_id = 0;
};

// The instruction text of a sampled PC (NVIDIA: SASS from nvdisasm), found at the end of the
// run. PC offsets are relative to their function, so the kernel says which function.
struct pc_instruction {
  uint64_t code_object_id = 0;
  uint64_t kernel_id = 0;
  uint64_t offset = 0;
  string_id text = 0;
  bool operator<(const pc_instruction& o) const {
    return std::tie(code_object_id, kernel_id, offset) <
           std::tie(o.code_object_id, o.kernel_id, o.offset);
  }
};

// Everything but the records. Writers receive it once, before any record batch.
struct trace_definitions {
  node_info node;
  process_info process;
  std::vector<thread_info> threads;
  std::vector<agent_info> agents;
  std::vector<queue_info> queues;
  std::vector<stream_info> streams;
  std::vector<code_object_info> code_objects;
  std::vector<kernel_symbol_info> kernel_symbols;
  std::vector<counter_info> counters;
  std::vector<std::string> strings;  // interned strings; strings[0] == ""

  uint64_t dropped_records = 0;  // lost under the DISCARD policy or by a backend; reported

  std::vector<host_callstack_info> host_callstacks;  // by id, ascending
  std::vector<launch_callstack> launch_callstacks;   // sorted by correlation_id
  std::vector<pc_instruction> pc_instructions;       // sorted; see instruction_of()

  // The text of the instruction at `offset` of kernel `kernel_id` in a code object; 0 if unknown.
  string_id instruction_at(uint64_t code_object_id, uint64_t kernel_id, uint64_t offset) const {
    const pc_instruction key{code_object_id, kernel_id, offset, 0};
    auto it = std::lower_bound(pc_instructions.begin(), pc_instructions.end(), key);
    return it != pc_instructions.end() && !(key < *it) ? it->text : 0;
  }

  // The host call stack id of the launch with this correlation id, 0 if none was recorded.
  uint64_t callstack_of(uint64_t correlation_id) const {
    auto it = std::lower_bound(
        launch_callstacks.begin(), launch_callstacks.end(), correlation_id,
        [](const launch_callstack& l, uint64_t id) { return l.correlation_id < id; });
    return it != launch_callstacks.end() && it->correlation_id == correlation_id ? it->callstack_id
                                                                                 : 0;
  }
  // The stack of an id, nullptr if unknown.
  const host_callstack_info* host_callstack(uint64_t id) const {
    auto it = std::lower_bound(
        host_callstacks.begin(), host_callstacks.end(), id,
        [](const host_callstack_info& c, uint64_t wanted) { return c.id < wanted; });
    return it != host_callstacks.end() && it->id == id ? &*it : nullptr;
  }

  std::string_view str(string_id id) const {
    return id < strings.size() ? std::string_view{strings[id]} : std::string_view{};
  }
};

// ---------------------------------------------------------------------------------------------
// Records. Fixed-size, trivially copyable: they are spilled to disk and read back as bytes.

struct correlation {
  uint64_t internal = 0;  // unique per API call; async work inherits its launcher's id
  uint64_t external = 0;  // external id (ROCTx rename region id / user pushed id), 0 if none
  uint64_t ancestor = 0;  // internal id of the enclosing API call, 0 if none
};

// An API call or marker. A thread range (push/pop), process range (start/stop) or mark
// (start == end) is one record. For markers `message` is the user text (ROCTx message, NVTX
// message, Kokkos label) and `operation` the API name ("roctxThreadRangeA", "roctxMarkA",
// "nvtxRangePushA", ...). `marker_domain` keeps the NVTX domain name (empty for ROCTx).
struct api_record {
  api_domain domain = api_domain::hip_runtime;
  uint16_t reserved = 0;
  uint32_t operation_id = 0;  // numeric operation within the domain (backend-defined)
  string_id operation = 0;    // API function name
  string_id message = 0;      // markers: user message; otherwise empty
  string_id marker_domain = 0;
  string_id args = 0;  // return value and arguments (trace/api_args.hpp); empty if not known
  correlation corr;
  int64_t pid = 0, tid = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint64_t stream_id = 0;  // HIP/CUDA stream argument where known
};

struct dim3 {
  uint32_t x = 0, y = 0, z = 0;
};

struct kernel_dispatch_record {
  uint64_t dispatch_id = 0;  // 1..N per process
  uint64_t kernel_id = 0;    // -> kernel_symbol_info
  uint64_t agent_id = 0;
  uint64_t queue_id = 0;
  uint64_t stream_id = 0;
  correlation corr;
  int64_t tid = 0;  // launching thread
  uint64_t start_ns = 0, end_ns = 0;
  uint32_t private_segment_size = 0;  // scratch per work-item (CUDA: local memory per thread)
  uint32_t group_segment_size = 0;    // LDS per workgroup (CUDA: static + dynamic shared)
  uint32_t arch_vgpr_count = 0, accum_vgpr_count = 0, sgpr_count = 0;  // CUDA: regs/thread
  dim3 workgroup_size;                                                 // CUDA: block
  dim3 grid_size;             // in work-items (CUDA: grid * block)
  string_id region_name = 0;  // --kernel-rename: innermost enclosing range message, else empty
  uint64_t graph_id = 0, graph_node_id = 0;  // CUDA graphs; 0 if not launched from a graph
  dim3 cluster_size;                         // CUDA thread-block clusters; 0 if none
  uint32_t reserved = 0;
};

enum class memory_copy_direction : uint8_t {
  none = 0,
  host_to_host,
  host_to_device,
  device_to_host,
  device_to_device,
  peer_to_peer,  // CUDA peer copies: MEMORY_COPY_PEER_TO_PEER in every format
};

struct memory_copy_record {
  memory_copy_direction direction = memory_copy_direction::none;
  uint8_t reserved[7] = {};
  correlation corr;
  int64_t tid = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint64_t src_agent_id = 0, dst_agent_id = 0;
  uint64_t src_address = 0, dst_address = 0;
  uint64_t bytes = 0;
  uint64_t queue_id = 0, stream_id = 0;
  string_id region_name = 0;
  uint32_t reserved2 = 0;
};

// Device memset (CUDA cudaMemset*). Shown as its own kind in every format ("MEMORY_SET").
struct memory_set_record {
  correlation corr;
  int64_t tid = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint64_t agent_id = 0;
  uint64_t address = 0;
  uint64_t bytes = 0;
  uint32_t value = 0;
  uint32_t reserved = 0;
  uint64_t queue_id = 0, stream_id = 0;
};

enum class memory_allocation_operation : uint8_t {
  none = 0,
  allocate,       // MEMORY_ALLOCATION_ALLOCATE
  vmem_allocate,  // MEMORY_ALLOCATION_VMEM_ALLOCATE
  free,           // MEMORY_ALLOCATION_FREE
  vmem_free,      // MEMORY_ALLOCATION_VMEM_FREE
};

struct memory_allocation_record {
  memory_allocation_operation operation = memory_allocation_operation::none;
  uint8_t reserved[7] = {};
  correlation corr;
  int64_t tid = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint64_t agent_id = 0;  // 0 for frees
  uint64_t address = 0;
  uint64_t size = 0;  // 0 for frees
  uint64_t stream_id = 0;
  string_id memory_kind = 0;  // backend detail, e.g. CUDA "DEVICE", "PINNED", "MANAGED"
  uint32_t reserved2 = 0;
};

enum class scratch_memory_operation : uint8_t { none = 0, alloc, free, async_reclaim };

struct scratch_memory_record {
  scratch_memory_operation operation = scratch_memory_operation::none;
  uint8_t reserved[7] = {};
  correlation corr;
  int64_t tid = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint64_t agent_id = 0, queue_id = 0;
  uint64_t flags = 0;
  uint64_t allocation_size = 0;
};

// One counter value of one dispatch (instances already summed, as the CSV shows them; writers
// that keep instances get one record per instance with instance_id set).
struct counter_value_record {
  uint64_t dispatch_id = 0;
  uint64_t counter_id = 0;  // -> counter_info
  uint64_t agent_id = 0;
  uint64_t instance_id = 0;
  double value = 0.0;
};

// The dispatch that counter values belong to, as the dispatch counting service reports it (its
// correlation id, launching thread, times and dispatch info): rocprofv3's counter rows carry
// these fields whether kernels are traced or not. One per counted dispatch; the dispatch's
// counter_value_records carry the same dispatch_id. Writers that also see the kernel trace's
// record of that dispatch may take either: they describe the same launch.
struct counter_dispatch_record {
  kernel_dispatch_record dispatch;
};

// A periodic device-wide counter sample (device counting / PM sampling).
struct device_counter_sample_record {
  uint64_t agent_id = 0;
  uint64_t counter_id = 0;
  uint64_t timestamp_ns = 0;
  double value = 0.0;
};

// How a PC sample was taken (pc_sampling.h's methods; the file a CSV writer puts it in).
enum class pc_sample_method : uint8_t { host_trap, stochastic };

// PC samples. AMD's host-trap and stochastic samples are one record per sample (sample_count
// 1, timestamp and exec mask real). NVIDIA's samples arrive aggregated per PC and warp state
// (pc_sampling.h's aggregated record): sample_count samples, not_issued_count of them issuing
// nothing, no timestamp, exec mask or wave count (has_sample_detail false: writers leave those
// columns empty instead of writing zeroes that look measured).
struct pc_sample_record {
  uint64_t timestamp_ns = 0;
  uint64_t dispatch_id = 0;
  uint64_t correlation_internal = 0;
  uint64_t code_object_id = 0;
  uint64_t code_object_offset = 0;
  uint64_t exec_mask = 0;
  string_id instruction = 0;
  string_id comment = 0;  // source "file:line" when known
  string_id stall_reason = 0;
  uint32_t wave_count = 0;
  // Aggregated samples (NVIDIA) and the stochastic fields.
  uint64_t agent_id = 0;
  uint64_t kernel_id = 0;  // 0: unknown (then dispatch_id says which kernel)
  uint64_t sample_count = 1;
  uint64_t not_issued_count = 0;
  string_id warp_state = 0;        // the vendor's own name ("long_scoreboard"), 0 for AMD samples
  string_id instruction_type = 0;  // its rocprofiler-sdk enumerator name; 0: not reported
  pc_sample_method method = pc_sample_method::host_trap;
  bool wave_issued = false;
  bool has_sample_detail = true;  // timestamp, exec mask, wave count are per-sample values
  bool dispatch_exact = true;     // false: only the kernel is known (NVIDIA continuous mode)
};

// A PC sample's instruction text: its own (AMD, or read back from a database), else the one
// found for its PC at the end of the run (NVIDIA).
inline string_id instruction_of(const trace_definitions& defs, const pc_sample_record& r) {
  return r.instruction != 0
             ? r.instruction
             : defs.instruction_at(r.code_object_id, r.kernel_id, r.code_object_offset);
}

// The record kinds, once: X(struct, name). Everything per kind is generated from this list or
// loops over it (record_kinds.hpp): the record_kind enum and names, the writer interface's
// write() overloads, the tool's batches, drop and spool handling, the synthetic test trace.
// Adding a kind is its plain struct above and one line here; `name` becomes its record_kind
// enumerator. The order is the enum's and the spill file's.
#define ROCPROF_TRACE_RECORD_KINDS(X)                    \
  X(api_record, api)                                     \
  X(kernel_dispatch_record, kernel_dispatch)             \
  X(memory_copy_record, memory_copy)                     \
  X(memory_set_record, memory_set)                       \
  X(memory_allocation_record, memory_allocation)         \
  X(scratch_memory_record, scratch_memory)               \
  X(counter_value_record, counter_value)                 \
  X(counter_dispatch_record, counter_dispatch)           \
  X(device_counter_sample_record, device_counter_sample) \
  X(pc_sample_record, pc_sample)                         \
  ROCPROF_TRACE_EXTRA_RECORD_KINDS(X)

}  // namespace rocprof::trace

// Test builds only (tests/unit/record_kinds/): the header named by
// ROCPROF_TRACE_EXTRA_RECORD_KINDS_HEADER defines more record structs in rocprof::trace and
// ROCPROF_TRACE_EXTRA_RECORD_KINDS(X) listing them; they are appended to the list above.
#ifdef ROCPROF_TRACE_EXTRA_RECORD_KINDS_HEADER
#include ROCPROF_TRACE_EXTRA_RECORD_KINDS_HEADER
#else
#define ROCPROF_TRACE_EXTRA_RECORD_KINDS(X)
#endif
