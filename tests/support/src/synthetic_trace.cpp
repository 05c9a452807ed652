#include "rocprof/test_support/synthetic_trace.hpp"

#include "rocprof/trace/api_args.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace rocprof::test_support {
namespace {

using namespace rocprof::trace;

constexpr size_t domain_count = static_cast<size_t>(api_domain::count);
constexpr size_t ops_per_domain = 3;

// Operation names per api_domain (same order as the enum), three each. The string table layout
// is fixed (see string_layout) so generators compute ids without lookups, which keeps the
// 10-million-record benchmark cheap.
constexpr std::array<std::array<const char*, ops_per_domain>, domain_count> operation_names{{
    {"hsa_init", "hsa_queue_create", "hsa_signal_wait_scacquire"},
    {"hsa_amd_memory_pool_allocate", "hsa_amd_memory_async_copy", "hsa_amd_agents_allow_access"},
    {"hsa_ext_image_create", "hsa_ext_image_destroy", "hsa_ext_image_copy"},
    {"hsa_ext_program_create", "hsa_ext_program_finalize", "hsa_ext_program_destroy"},
    {"hipMalloc", "hipMemcpy", "hipLaunchKernel"},
    {"__hipRegisterFatBinary", "__hipRegisterFunction", "__hipPushCallConfiguration"},
    {"roctxRangePushA", "roctxMarkA", "roctxRangeStartA"},
    {"roctxProfilerPause", "roctxProfilerResume", "roctxProfilerPause"},
    {"roctxNameOsThread", "roctxNameHipDevice", "roctxNameHipStream"},
    {"ncclAllReduce", "ncclBroadcast", "ncclCommInitRank"},
    {"rocDecCreateDecoder", "rocDecDecodeFrame", "rocDecDestroyDecoder"},
    {"rocJpegCreate", "rocJpegDecode", "rocJpegDestroy"},
    {"cudaMalloc", "cudaMemcpy", "cudaLaunchKernel"},
    {"cuInit", "cuMemAlloc_v2", "cuLaunchKernel"},
}};

// Messages chosen to exercise CSV quoting and JSON escaping.
constexpr std::array<const char*, 4> marker_messages{
    {"outer_region", "inner loop", "checkpoint \"A\", phase 1", "kokkos::parallel_for"}};
constexpr std::array<const char*, 2> memory_kinds{{"DEVICE", "PINNED"}};
constexpr std::array<const char*, 3> instructions{
    {"s_waitcnt vmcnt(0)", "v_add_f32 v0, v1, v2", "global_load_dword v1, v[2:3], off"}};
constexpr std::array<const char*, 2> stall_reasons{{"NO_STALL", "WAIT_MEMORY"}};

struct string_layout {
  static constexpr string_id operations = 1;
  static constexpr string_id messages = operations + domain_count * ops_per_domain;
  static constexpr string_id nvtx_domain = messages + marker_messages.size();
  static constexpr string_id memory_kinds = nvtx_domain + 1;
  static constexpr string_id instructions = memory_kinds + 2;
  static constexpr string_id stall_reasons = instructions + 3;
  static constexpr string_id comment = stall_reasons + 2;
  static constexpr string_id region = comment + 1;
  static constexpr string_id end = region + 1;
};

constexpr std::array<const char*, 5> kernel_mangled{
    {"_Z10vector_addPfPKfS1_i", "_Z4gemmILi64EEvPKfS1_Pfiii", "_Z6reducePfPKfi",
     "_ZN6Kokkos4Impl11parallel_forEv", "_Z9transposePfPKfii"}};
constexpr std::array<const char*, 5> kernel_demangled{
    {"vector_add(float*, float const*, float const*, int)",
     "void gemm<64>(float const*, float const*, float*, int, int, int)",
     "reduce(float*, float const*, int)", "Kokkos::Impl::parallel_for()",
     "transpose(float*, float const*, int, int)"}};
constexpr std::array<const char*, 5> kernel_truncated{
    {"vector_add", "gemm", "reduce", "parallel_for", "transpose"}};
constexpr std::array<const char*, 4> counter_names{
    {"SQ_WAVES", "GRBM_COUNT", "SQ_INSTS_VALU", "TCC_HIT"}};

uint32_t threads_of(const synthetic_options& o) {
  return std::max<uint32_t>(o.threads, 1);
}
uint32_t gpus_of(const synthetic_options& o) {
  return std::max<uint32_t>(o.gpus, 1);
}
uint32_t kernels_of(const synthetic_options& o) {
  return std::clamp<uint32_t>(o.kernels, 1, static_cast<uint32_t>(kernel_mangled.size()));
}
uint32_t counters_of(const synthetic_options& o) {
  return std::clamp<uint32_t>(o.counters, 1, static_cast<uint32_t>(counter_names.size()));
}
int64_t tid_of(const synthetic_options& o, size_t i) {
  return o.pid + static_cast<int64_t>(i % threads_of(o));
}
uint64_t gpu_of(const synthetic_options& o, size_t i) {
  return synthetic_gpu_agent_id(static_cast<uint32_t>(i % gpus_of(o)));
}
// Counter ids: GPU g, counter c -> 1 + g * counters + c.
uint64_t counter_id_of(const synthetic_options& o, uint32_t g, uint32_t c) {
  return 1 + uint64_t{g} * counters_of(o) + c;
}
// Queue ids 1..2 per GPU: (g * 2) + 1 + q.
uint64_t queue_of(const synthetic_options& o, size_t i) {
  uint64_t g = i % gpus_of(o);
  return g * 2 + 1 + (i / gpus_of(o)) % 2;
}
uint64_t stream_of(size_t i) {
  return i % 3;
}  // 0 is the default stream

agent_info make_cpu_agent() {
  agent_info a;
  a.id = synthetic_cpu_agent_id;
  a.type = agent_type::cpu;
  a.node_id = 0;
  a.logical_node_id = 0;
  a.logical_node_type_id = 0;
  a.name = "Synthetic CPU";
  a.vendor_name = "CPU";
  a.product_name = "Synthetic CPU";
  a.model_name = "";
  a.cpu_cores_count = 16;
  a.simd_count = 0;
  a.wave_front_size = 0;
  a.num_cp_queues = 0;
  a.max_engine_clk_fcompute = 3000;
  a.fw_version = 0;
  a.capability = 0;
  return a;
}

agent_info make_gpu_agent(uint32_t g) {
  agent_info a;
  a.id = synthetic_gpu_agent_id(g);
  a.type = agent_type::gpu;
  a.node_id = g + 1;
  a.logical_node_id = g + 1;
  a.logical_node_type_id = g;
  a.name = "sm_90";
  a.vendor_name = "NVIDIA";
  a.product_name = "Synthetic GPU " + std::to_string(g);
  a.model_name = "H100";
  a.uuid = "GPU-0000000" + std::to_string(g) + "-1111-2222-3333-444444444444";
  a.simd_count = 528;
  a.max_waves_per_simd = 16;
  a.lds_size_in_kb = 228;
  a.wave_front_size = 32;
  a.num_xcc = 1;
  a.cu_count = 132;
  a.array_count = 8;
  a.num_shader_banks = 4;
  a.simd_arrays_per_engine = 1;
  a.cu_per_simd_array = 16;
  a.simd_per_cu = 4;
  a.gfx_target_version = 90000;
  a.vendor_id = 0x10de;
  a.device_id = 0x2330;
  a.location_id = 0x100 * (g + 1);
  a.num_sdma_engines = 2;
  a.num_cp_queues = 128;
  a.max_engine_clk_fcompute = 1980;
  a.cu_per_engine = 132;
  a.max_waves_per_cu = 64;
  a.family_id = 9;
  a.workgroup_max_size = 1024;
  a.grid_max_size = 0xffffffffull;
  a.local_mem_size = 80ull << 30;
  a.gpu_id = 1000 + g;
  a.workgroup_max_dim[0] = 1024;
  a.workgroup_max_dim[1] = 1024;
  a.workgroup_max_dim[2] = 64;
  a.grid_max_dim[0] = 0x7fffffff;
  a.grid_max_dim[1] = 65535;
  a.grid_max_dim[2] = 65535;
  a.extdata_json = R"({"clock_rate_khz": 1980000})";
  return a;
}

}  // namespace

uint64_t synthetic_gpu_agent_id(uint32_t g) {
  return synthetic_cpu_agent_id + 1 + g;
}

trace_definitions make_synthetic_definitions(const synthetic_options& o) {
  trace_definitions d;
  d.node.machine_id = "0123456789abcdef0123456789abcdef";
  d.node.hash = 0x1234567890abcdefull % 0x7fffffffffffffffull;
  d.node.id = d.node.hash % 0xffffffffull;
  d.node.system_name = "Linux";
  d.node.hostname = "synthetic-host";
  d.node.release = "6.1.0-synthetic";
  d.node.version = "#1 SMP";
  d.node.hardware_name = "x86_64";
  d.node.domain_name = "(none)";

  const uint64_t span = o.records_per_kind * 2000 + 10'000;
  auto& p = d.process;
  p.pid = o.pid;
  p.ppid = o.pid - 1;
  p.start_ns = o.base_ns - 1000;
  p.init_ns = o.base_ns - 500;
  p.fini_ns = o.base_ns + span;
  p.end_ns = o.base_ns + span + 500;
  p.command = {"/usr/bin/synthetic_app", "--size", "1024"};
  p.environment = {{"ROCPROF_OUTPUT_FORMAT", "csv"}, {"ROCPROF_KERNEL_TRACE", "1"}};
  p.config_json = R"({"kernel_trace": true, "output_format": "csv", "stats": true})";

  for (uint32_t t = 0; t < threads_of(o); ++t) {
    thread_info th;
    th.tid = o.pid + t;
    th.name = t == 0 ? "main" : "worker-" + std::to_string(t);
    th.start_ns = o.base_ns;
    th.end_ns = o.base_ns + span;
    d.threads.push_back(th);
  }

  d.agents.push_back(make_cpu_agent());
  for (uint32_t g = 0; g < gpus_of(o); ++g)
    d.agents.push_back(make_gpu_agent(g));

  for (uint32_t g = 0; g < gpus_of(o); ++g)
    for (uint32_t q = 0; q < 2; ++q) {
      uint64_t id = uint64_t{g} * 2 + 1 + q;
      d.queues.push_back({id, "Queue " + std::to_string(id)});
    }
  d.streams.push_back({0, "Default Stream"});
  d.streams.push_back({1, "Stream 1"});
  d.streams.push_back({2, "Stream 2"});

  for (uint32_t g = 0; g < gpus_of(o); ++g) {
    code_object_info co;
    co.id = g + 1;
    co.agent_id = synthetic_gpu_agent_id(g);
    co.uri = "file:///usr/bin/synthetic_app#offset=4096&size=65536";
    co.load_base = 0x7f0000000000ull + g * 0x100000ull;
    co.load_size = 65536;
    co.load_delta = 0x1000;
    co.storage_is_file = true;
    co.size = 65536;
    d.code_objects.push_back(co);
  }

  for (uint32_t k = 0; k < kernels_of(o); ++k) {
    kernel_symbol_info ks;
    ks.kernel_id = k + 1;
    ks.code_object_id = 1;
    ks.mangled_name = kernel_mangled[k];
    ks.demangled_name = kernel_demangled[k];
    ks.truncated_name = kernel_truncated[k];
    ks.display_name = kernel_demangled[k];
    ks.kernel_object = 0x7f0000001000ull + k * 0x100;
    ks.kernarg_segment_size = 32;
    ks.kernarg_segment_alignment = 8;
    ks.group_segment_size = 1024 * k;
    ks.private_segment_size = 16 * k;
    ks.sgpr_count = 16;
    ks.arch_vgpr_count = 32 + k;
    ks.accum_vgpr_count = 0;
    d.kernel_symbols.push_back(ks);
  }

  for (uint32_t g = 0; g < gpus_of(o) && o.counters > 0; ++g)
    for (uint32_t c = 0; c < counters_of(o); ++c) {
      counter_info ci;
      ci.id = counter_id_of(o, g, c);
      ci.agent_id = synthetic_gpu_agent_id(g);
      ci.name = counter_names[c];
      ci.description = std::string{"Synthetic counter "} + counter_names[c];
      ci.block = c == 3 ? "TCC" : "SQ";
      ci.expression = "";
      ci.units = "";
      d.counters.push_back(ci);
    }

  d.strings.assign(string_layout::end, std::string{});
  for (size_t dom = 0; dom < domain_count; ++dom)
    for (size_t j = 0; j < ops_per_domain; ++j)
      d.strings[string_layout::operations + dom * ops_per_domain + j] = operation_names[dom][j];
  for (size_t m = 0; m < marker_messages.size(); ++m)
    d.strings[string_layout::messages + m] = marker_messages[m];
  d.strings[string_layout::nvtx_domain] = "synthetic_nvtx_domain";
  for (size_t m = 0; m < memory_kinds.size(); ++m)
    d.strings[string_layout::memory_kinds + m] = memory_kinds[m];
  for (size_t m = 0; m < instructions.size(); ++m)
    d.strings[string_layout::instructions + m] = instructions[m];
  for (size_t m = 0; m < stall_reasons.size(); ++m)
    d.strings[string_layout::stall_reasons + m] = stall_reasons[m];
  d.strings[string_layout::comment] = "synthetic.cpp:42";
  d.strings[string_layout::region] = "outer_region";
  return d;
}

void generate_api(const synthetic_options& o, const trace_definitions& /*defs*/, size_t first,
                  size_t count, std::vector<api_record>& out) {
  out.reserve(out.size() + count);
  for (size_t i = first; i < first + count; ++i) {
    api_record r;
    const size_t dom = i % domain_count;
    const size_t op = (i / domain_count) % ops_per_domain;
    r.domain = static_cast<api_domain>(dom);
    r.operation_id = static_cast<uint32_t>(op + 1);
    r.operation = static_cast<string_id>(string_layout::operations + dom * ops_per_domain + op);
    r.corr.internal = i + 1;
    r.pid = o.pid;
    r.tid = tid_of(o, i);
    r.start_ns = o.base_ns + i * 1000;
    r.end_ns = r.start_ns + 100 + (i * 37) % 500;
    r.stream_id = stream_of(i);
    const auto d = static_cast<api_domain>(dom);
    if (d == api_domain::marker_core_range) {
      r.message = static_cast<string_id>(string_layout::messages + (i / domain_count) % 4);
      r.corr.external = i % 2 == 0 ? 7 : 0;
      if (op == 1) r.end_ns = r.start_ns;  // roctxMarkA: an instant
      if (i % 4 == 0) r.marker_domain = string_layout::nvtx_domain;
    }
    if (i >= domain_count && dom != 0) r.corr.ancestor = 0;
    out.push_back(r);
  }
}

void generate_kernels(const synthetic_options& o, size_t first, size_t count,
                      std::vector<kernel_dispatch_record>& out) {
  out.reserve(out.size() + count);
  for (size_t i = first; i < first + count; ++i) {
    kernel_dispatch_record r;
    r.dispatch_id = i + 1;
    r.kernel_id = 1 + i % kernels_of(o);
    r.agent_id = gpu_of(o, i);
    r.queue_id = queue_of(o, i);
    r.stream_id = stream_of(i);
    r.corr.internal = i + 1;
    r.corr.external = i % 5 == 0 ? 7 : 0;
    r.tid = tid_of(o, i);
    r.start_ns = o.base_ns + i * 2000 + 500;
    r.end_ns = r.start_ns + 1000 + (i % 7) * 100;
    r.private_segment_size = static_cast<uint32_t>(16 * ((i % kernels_of(o))));
    r.group_segment_size = static_cast<uint32_t>(1024 * ((i % kernels_of(o))));
    r.arch_vgpr_count = 32;
    r.accum_vgpr_count = 0;
    r.sgpr_count = 16;
    r.workgroup_size = {256, 1, 1};
    r.grid_size = {static_cast<uint32_t>(256 * (1 + i % 64)), 1, 1};
    r.region_name = i % 2 == 0 ? string_layout::region : empty_string;
    if (i % 4 == 3) {  // every 4th kernel comes from a CUDA graph; every 8th uses clusters
      r.graph_id = 1 + i / 100;
      r.graph_node_id = 1000 + i;
    }
    if (i % 8 == 7) r.cluster_size = {2, 1, 1};
    out.push_back(r);
  }
}

void generate_memory_copies(const synthetic_options& o, size_t first, size_t count,
                            std::vector<memory_copy_record>& out) {
  out.reserve(out.size() + count);
  for (size_t i = first; i < first + count; ++i) {
    memory_copy_record r;
    r.direction = static_cast<memory_copy_direction>(1 + i % 4);  // host_to_host..device_to_device
    r.corr.internal = i + 1;
    r.tid = tid_of(o, i);
    r.start_ns = o.base_ns + i * 2000 + 200;
    r.end_ns = r.start_ns + 300 + (i % 11) * 10;
    const bool src_gpu = r.direction == memory_copy_direction::device_to_host ||
                         r.direction == memory_copy_direction::device_to_device;
    const bool dst_gpu = r.direction == memory_copy_direction::host_to_device ||
                         r.direction == memory_copy_direction::device_to_device;
    r.src_agent_id = src_gpu ? gpu_of(o, i) : synthetic_cpu_agent_id;
    r.dst_agent_id = dst_gpu ? gpu_of(o, i + 1) : synthetic_cpu_agent_id;
    r.src_address = 0x7f1000000000ull + i * 4096;
    r.dst_address = 0x7f2000000000ull + i * 4096;
    r.bytes = 4096 * (1 + i % 16);
    r.queue_id = queue_of(o, i);
    r.stream_id = stream_of(i);
    out.push_back(r);
  }
}

void generate_memory_sets(const synthetic_options& o, size_t first, size_t count,
                          std::vector<memory_set_record>& out) {
  out.reserve(out.size() + count);
  for (size_t i = first; i < first + count; ++i) {
    memory_set_record r;
    r.corr.internal = i + 1;
    r.tid = tid_of(o, i);
    r.start_ns = o.base_ns + i * 2000 + 1700;
    r.end_ns = r.start_ns + 150;
    r.agent_id = gpu_of(o, i);
    r.address = 0x7f3000000000ull + i * 4096;
    r.bytes = 1024 * (1 + i % 8);
    r.value = static_cast<uint32_t>(i % 256);
    r.queue_id = queue_of(o, i);
    r.stream_id = stream_of(i);
    out.push_back(r);
  }
}

void generate_memory_allocations(const synthetic_options& o, const trace_definitions& /*defs*/,
                                 size_t first, size_t count,
                                 std::vector<memory_allocation_record>& out) {
  out.reserve(out.size() + count);
  for (size_t i = first; i < first + count; ++i) {
    memory_allocation_record r;
    const bool is_free = i % 2 == 1;  // every allocation is followed by its free
    r.operation =
        is_free ? memory_allocation_operation::free : memory_allocation_operation::allocate;
    r.corr.internal = i + 1;
    r.tid = tid_of(o, i);
    r.start_ns = o.base_ns + i * 2000 + 100;
    r.end_ns = r.start_ns + 50;
    r.agent_id = is_free ? 0 : gpu_of(o, i);
    r.address = 0x7f4000000000ull + (i / 2) * 65536;
    r.size = is_free ? 0 : 65536;
    r.stream_id = stream_of(i);
    r.memory_kind = static_cast<string_id>(string_layout::memory_kinds + (i / 2) % 2);
    out.push_back(r);
  }
}

void generate_scratch_memory(const synthetic_options& o, size_t first, size_t count,
                             std::vector<scratch_memory_record>& out) {
  out.reserve(out.size() + count);
  for (size_t i = first; i < first + count; ++i) {
    scratch_memory_record r;
    r.operation = static_cast<scratch_memory_operation>(1 + i % 3);
    r.corr.internal = i + 1;
    r.tid = tid_of(o, i);
    r.start_ns = o.base_ns + i * 2000 + 900;
    r.end_ns = r.start_ns + 80;
    r.agent_id = gpu_of(o, i);
    r.queue_id = queue_of(o, i);
    r.flags = i % 2;
    r.allocation_size = r.operation == scratch_memory_operation::alloc ? 1 << 20 : 0;
    out.push_back(r);
  }
}

void generate_counter_values(const synthetic_options& o, size_t first, size_t count,
                             std::vector<counter_value_record>& out) {
  out.reserve(out.size() + count);
  const uint32_t per = counters_of(o);
  for (size_t i = first; i < first + count; ++i) {
    counter_value_record r;
    const size_t dispatch = i / per;  // 0-based dispatch index; matches generate_kernels
    r.dispatch_id = dispatch + 1;
    r.agent_id = gpu_of(o, dispatch);
    const auto g = static_cast<uint32_t>(dispatch % gpus_of(o));
    r.counter_id = counter_id_of(o, g, static_cast<uint32_t>(i % per));
    r.instance_id = 0;
    r.value = static_cast<double>(1 + (i * 13) % 1000) * 2.5;
    out.push_back(r);
  }
}

void generate_counter_dispatches(const synthetic_options& o, size_t first, size_t count,
                                 std::vector<counter_dispatch_record>& out) {
  if (o.counters == 0) return;
  std::vector<kernel_dispatch_record> kernels;
  generate_kernels(o, first, count, kernels);
  out.reserve(out.size() + count);
  for (const auto& k : kernels)
    out.push_back(counter_dispatch_record{k});
}

void generate_device_counter_samples(const synthetic_options& o, size_t first, size_t count,
                                     std::vector<device_counter_sample_record>& out) {
  out.reserve(out.size() + count);
  const uint32_t per = counters_of(o);
  for (size_t i = first; i < first + count; ++i) {
    device_counter_sample_record r;
    const auto g = static_cast<uint32_t>((i / per) % gpus_of(o));
    r.agent_id = synthetic_gpu_agent_id(g);
    r.counter_id = counter_id_of(o, g, static_cast<uint32_t>(i % per));
    r.timestamp_ns = o.base_ns + (i / per) * 1000;
    r.value = static_cast<double>(i % 100);
    out.push_back(r);
  }
}

void generate_pc_samples(const synthetic_options& o, const trace_definitions& /*defs*/,
                         size_t first, size_t count, std::vector<pc_sample_record>& out) {
  out.reserve(out.size() + count);
  for (size_t i = first; i < first + count; ++i) {
    pc_sample_record r;
    r.timestamp_ns = o.base_ns + i * 2000 + 700;
    r.dispatch_id = i + 1;
    r.correlation_internal = i + 1;
    r.code_object_id = 1;
    r.code_object_offset = 0x1000 + (i % 64) * 4;
    r.exec_mask = ~0ull;
    r.instruction = static_cast<string_id>(string_layout::instructions + i % 3);
    r.comment = string_layout::comment;
    r.stall_reason = static_cast<string_id>(string_layout::stall_reasons + i % 2);
    r.wave_count = 1 + i % 4;
    out.push_back(r);
  }
}

namespace {

template <typename... Vectors>
type_list<typename std::decay_t<Vectors>::value_type...> table_types(std::tuple<Vectors...>);

#ifndef ROCPROF_TRACE_EXTRA_RECORD_KINDS_HEADER  // a test build's extra kinds are not synthesized
static_assert(std::is_same_v<decltype(table_types(record_tables(std::declval<synthetic_trace&>()))),
                             record_types>,
              "record_tables() must name every record kind of the model's list, in kind order");
#endif

template <typename T>
void write_batch(writer& w, const std::vector<T>& v, size_t first, size_t batch) {
  if (first >= v.size()) return;
  w.write(record_span<T>{v.data() + first, std::min(batch, v.size() - first)});
}

}  // namespace

synthetic_trace make_synthetic_trace(const synthetic_options& o) {
  synthetic_trace t;
  t.defs = make_synthetic_definitions(o);
  const size_t n = o.records_per_kind;  // each kind's records are its own generator's content
  generate_api(o, t.defs, 0, n, t.api);
  generate_kernels(o, 0, n, t.kernels);
  generate_memory_copies(o, 0, n, t.memory_copies);
  generate_memory_sets(o, 0, n, t.memory_sets);
  generate_memory_allocations(o, t.defs, 0, n, t.memory_allocations);
  generate_scratch_memory(o, 0, n, t.scratch_memory);
  generate_counter_values(o, 0, n, t.counter_values);
  generate_counter_dispatches(o, 0, n, t.counter_dispatches);
  generate_device_counter_samples(o, 0, n, t.device_counter_samples);
  generate_pc_samples(o, t.defs, 0, n, t.pc_samples);
  return t;
}

std::string write_synthetic_trace(writer& w, const synthetic_trace& t, size_t batch_size) {
  if (batch_size == 0) batch_size = 1;
  w.begin(t.defs);
  const auto tables = record_tables(t);
  const size_t longest =
      std::apply([](const auto&... v) { return std::max({v.size()...}); }, tables);
  for (size_t first = 0; first < longest; first += batch_size)
    std::apply([&](const auto&... v) { (write_batch(w, v, first, batch_size), ...); }, tables);
  return w.finish();
}

trace::string_id add_copy_arguments(trace::trace_definitions& defs, int64_t retval) {
  trace::api_args_text text{retval};
  text.add("void*", "dst", "0xd000");
  text.add("size_t", "count", "4096");
  defs.strings.push_back(text.text());
  return static_cast<trace::string_id>(defs.strings.size() - 1);
}

}  // namespace rocprof::test_support
