// The backend's events as the core receives them through backend_abi.h: record kinds,
// operations, sizes, correlation ids, and ENTER/EXIT pairing of API scopes. The services table
// below records what it is handed; it is the test's stand-in for the core, not for the backend.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "abi_sink.hpp"

namespace rocprof::cuda {
namespace {

struct emitted {
  rocprofiler_buffer_tracing_kind_t kind;
  std::vector<unsigned char> bytes;
  template <typename T>
  const T& as() const {
    return *static_cast<const T*>(static_cast<const void*>(bytes.data()));
  }
};

struct core_log {
  std::vector<emitted> records;
  std::vector<std::string> events;  // "enter:<kind>:<op>", "exit:<op>", "agent", "code:<op>"
  std::vector<rocprofiler_agent_v0_t> agents;
  std::vector<std::string> agent_names;
  std::string last_uri;
  uint64_t next_id = 1000;
  uint64_t dropped = 0;
  uint32_t flags = 0;  // of every emit_buffer_record, or'ed
  rocprofiler_buffer_tracing_kind_t dropped_kind = ROCPROFILER_BUFFER_TRACING_NONE;
};
core_log* g_log = nullptr;

rocprof_core_services_t make_core() {
  rocprof_core_services_t s{};
  s.size = sizeof(s);
  s.abi_version = ROCPROF_BACKEND_ABI_VERSION;
  s.timestamp = [] { return rocprofiler_timestamp_t{42}; };
  s.thread_id = [] { return rocprofiler_thread_id_t{7}; };
  s.next_correlation_id = [] { return g_log->next_id++; };
  s.current_ancestor = [] { return uint64_t{0}; };
  s.external_correlation_id = [](rocprofiler_context_id_t) { return rocprofiler_user_data_t{77}; };
  s.buffer_kind_enabled = [](rocprofiler_buffer_tracing_kind_t k,
                             rocprofiler_tracing_operation_t op) {
    return (k == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API && op != 99) ? 1 : 0;
  };
  s.callback_kind_enabled = [](rocprofiler_callback_tracing_kind_t,
                               rocprofiler_tracing_operation_t) { return 0; };
  s.emit_buffer_record = [](rocprofiler_buffer_tracing_kind_t kind, const void* record,
                            uint32_t flags) {
    g_log->flags |= flags;
    uint64_t size = 0;
    std::memcpy(&size, record, sizeof(size));
    const auto* p = static_cast<const unsigned char*>(record);
    g_log->records.push_back({kind, std::vector<unsigned char>(p, p + size)});
  };
  s.api_enter = [](rocprof_api_scope_t* scope, rocprofiler_callback_tracing_kind_t kind,
                   rocprofiler_tracing_operation_t op, void* payload) {
    scope->correlation_id.internal = g_log->next_id++;
    scope->correlation_id.external.value = 5;
    const auto* p = static_cast<const rocprofiler_callback_tracing_cuda_api_data_t*>(payload);
    g_log->events.push_back("enter:" + std::to_string(kind) + ":" + std::to_string(op) + ":" +
                            p->function_name);
  };
  s.api_exit = [](rocprof_api_scope_t* scope, void*) {
    g_log->events.push_back("exit:" + std::to_string(scope->correlation_id.internal));
  };
  s.register_agent = [](const rocprofiler_agent_v0_t* a) {
    g_log->agents.push_back(*a);
    g_log->agent_names.emplace_back(a->name);
    return rocprofiler_agent_id_t{g_log->agents.size() + 10};
  };
  s.report_code_object = [](rocprofiler_code_object_operation_t op, rocprofiler_callback_phase_t,
                            const void* data) {
    g_log->events.push_back("code:" + std::to_string(op));
    if (op == ROCPROFILER_CODE_OBJECT_LOAD)
      g_log->last_uri =
          static_cast<const rocprofiler_callback_tracing_code_object_load_data_t*>(data)->uri;
  };
  s.report_dropped = [](rocprofiler_buffer_tracing_kind_t k, uint64_t n) {
    g_log->dropped_kind = k;
    g_log->dropped += n;
  };
  s.warn_once = [](const char*, const char*) {};
  return s;
}

class abi_sink_test : public ::testing::Test {
 protected:
  void SetUp() override {
    g_log = &log_;
    core_ = make_core();
  }
  void TearDown() override { g_log = nullptr; }
  rocprof_enabled_kinds_t kinds(std::initializer_list<int> buffer_kinds) {
    rocprof_enabled_kinds_t k{};
    k.size = sizeof(k);
    for (int b : buffer_kinds)
      k.buffer_kinds[b / 64] |= uint64_t{1} << (b % 64);
    return k;
  }
  core_log log_;
  rocprof_core_services_t core_{};
};

TEST_F(abi_sink_test, enabled_domains_follow_the_kinds_the_core_asks_for) {
  abi_sink sink{&core_};
  sink.set_kinds(
      kinds({ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, ROCPROFILER_BUFFER_TRACING_MEMORY_SET,
             ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API}));
  EXPECT_TRUE(sink.enabled(cuda_domain::kernel_dispatch));
  EXPECT_TRUE(sink.enabled(cuda_domain::memory_set));
  EXPECT_TRUE(sink.enabled(cuda_domain::runtime_api));
  EXPECT_FALSE(sink.enabled(cuda_domain::driver_api));
  EXPECT_FALSE(sink.enabled(cuda_domain::memory_copy));
  EXPECT_TRUE(sink.api_traced(api_domain::runtime, 211));
  EXPECT_FALSE(sink.api_traced(api_domain::runtime, 99));  // filtered operation
  EXPECT_FALSE(sink.api_traced(api_domain::driver, 211));
}

// Launch callbacks stay when a tool may push external ids from its marker callbacks (ROCTx /
// NVTX ranges, --kernel-rename) or asked to be asked for the launched work's external id.
TEST_F(abi_sink_test, launch_time_ids_are_needed_for_marker_callbacks_and_work_requests) {
  abi_sink sink{&core_};
  rocprof_enabled_kinds_t k = kinds({ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH});
  sink.set_kinds(k);
  EXPECT_FALSE(sink.launch_time_ids_needed());
  for (int marker : {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
                     ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API}) {
    rocprof_enabled_kinds_t m = k;
    m.callback_kinds[marker / 64] |= uint64_t{1} << (marker % 64);
    sink.set_kinds(m);
    EXPECT_TRUE(sink.launch_time_ids_needed()) << marker;
  }
  // Pause/resume and thread names (always configured by the tool) push nothing.
  rocprof_enabled_kinds_t control = k;
  for (int c : {ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API,
                ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API})
    control.callback_kinds[c / 64] |= uint64_t{1} << (c % 64);
  sink.set_kinds(control);
  EXPECT_FALSE(sink.launch_time_ids_needed());
  rocprof_enabled_kinds_t requests = k;
  requests.external_request_kinds = uint64_t{1}
                                    << ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY;
  sink.set_kinds(requests);
  EXPECT_TRUE(sink.launch_time_ids_needed());
  requests.external_request_kinds = uint64_t{1}
                                    << ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_RUNTIME_API;
  sink.set_kinds(requests);
  EXPECT_FALSE(sink.launch_time_ids_needed());
  // A core too old to say which request services exist: keep the callbacks.
  rocprof_enabled_kinds_t old_core = k;
  old_core.size = offsetof(rocprof_enabled_kinds_t, external_request_kinds);
  sink.set_kinds(old_core);
  EXPECT_TRUE(sink.launch_time_ids_needed());
}

TEST_F(abi_sink_test, api_calls_nest_and_produce_one_cuda_api_record_each) {
  abi_sink sink{&core_};
  api_event outer;
  outer.domain = api_domain::runtime;
  outer.cbid = 211;
  outer.name = "cudaLaunchKernel";
  outer.tid = 9;
  api_event inner = outer;
  inner.cbid = 212;
  inner.name = "cudaMemcpy";
  sink.api_enter(outer);
  sink.api_enter(inner);
  EXPECT_NE(outer.correlation_id, inner.correlation_id);
  EXPECT_EQ(outer.external_id, 5U);
  inner.start_ns = 10;
  inner.end_ns = 20;
  inner.return_code = 0;
  sink.api_exit(inner);
  outer.start_ns = 5;
  outer.end_ns = 30;
  outer.return_code = 3;
  sink.api_exit(outer);
  ASSERT_EQ(log_.events.size(), 4U);
  EXPECT_EQ(log_.events[0],
            "enter:" + std::to_string(ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API) +
                ":211:cudaLaunchKernel");
  EXPECT_EQ(log_.events[2], "exit:" + std::to_string(inner.correlation_id));
  EXPECT_EQ(log_.events[3], "exit:" + std::to_string(outer.correlation_id));
  ASSERT_EQ(log_.records.size(), 2U);
  const auto& r = log_.records[1].as<rocprofiler_buffer_tracing_cuda_api_record_t>();
  EXPECT_EQ(log_.records[1].kind, ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API);
  EXPECT_EQ(r.size, sizeof(rocprofiler_buffer_tracing_cuda_api_record_t));
  EXPECT_EQ(r.operation, 211);
  EXPECT_EQ(r.correlation_id.internal, outer.correlation_id);
  EXPECT_EQ(r.start_timestamp, 5U);
  EXPECT_EQ(r.end_timestamp, 30U);
  EXPECT_EQ(r.thread_id, 9U);
  EXPECT_EQ(r.return_code, 3);
}

// API tracing from CUPTI's API activity records: the record of a call no callback saw, made on
// another thread after the fact, from what the event says (no scope, no thread state).
TEST_F(abi_sink_test, an_api_record_after_the_fact_is_the_record_of_a_callback_pair) {
  abi_sink sink{&core_};
  api_event e;
  e.domain = api_domain::runtime;
  e.cbid = 211;
  e.correlation_id = 31;
  e.tid = 4242;
  e.start_ns = 100;
  e.end_ns = 250;
  e.return_code = 2;
  sink.emit_api_record(e);
  e.cbid = 99;  // an operation no context traces
  sink.emit_api_record(e);
  e.cbid = 211;
  e.domain = api_domain::driver;  // a domain no context traces
  sink.emit_api_record(e);
  EXPECT_TRUE(log_.events.empty());  // neither api_enter nor api_exit
  ASSERT_EQ(log_.records.size(), 1U);
  EXPECT_EQ(log_.records[0].kind, ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API);
  const auto& r = log_.records[0].as<rocprofiler_buffer_tracing_cuda_api_record_t>();
  EXPECT_EQ(r.size, sizeof(rocprofiler_buffer_tracing_cuda_api_record_t));
  EXPECT_EQ(r.operation, 211);
  EXPECT_EQ(r.correlation_id.internal, 31U);
  EXPECT_EQ(r.correlation_id.external.value, 0U);  // not the emitting thread's
  EXPECT_EQ(r.correlation_id.ancestor, 0U);
  EXPECT_EQ(r.thread_id, 4242U);
  EXPECT_EQ(r.start_timestamp, 100U);
  EXPECT_EQ(r.end_timestamp, 250U);
  EXPECT_EQ(r.return_code, 2);
  EXPECT_EQ(r.args_size, 0U);
  EXPECT_EQ(log_.flags, 0U);  // the core fills nothing from the emitting thread
}

TEST_F(abi_sink_test, api_callbacks_are_requested_by_cuda_api_callback_tracing_only) {
  abi_sink sink{&core_};
  rocprof_enabled_kinds_t k = kinds(
      {ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API, ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API});
  sink.set_kinds(k);
  EXPECT_FALSE(sink.api_callbacks_requested());
  for (int c : {ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API,
                ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API}) {
    rocprof_enabled_kinds_t with = k;
    with.callback_kinds[c / 64] |= uint64_t{1} << (c % 64);
    sink.set_kinds(with);
    EXPECT_TRUE(sink.api_callbacks_requested()) << c;
  }
}

TEST_F(abi_sink_test, gpu_work_records_carry_their_fields) {
  abi_sink sink{&core_};
  sink.set_kinds(kinds({ROCPROFILER_BUFFER_TRACING_MEMORY_COPY}));
  kernel_event k;
  k.dispatch_id = 3;
  k.kernel_id = 2;
  k.agent_id = 11;
  k.queue_id = 1;
  k.stream_id = 13;
  k.correlation_id = 500;
  k.external_id = 77;
  k.tid = 4;
  k.start_ns = 100;
  k.end_ns = 200;
  k.group_segment_size = 3072;
  k.dynamic_shared_memory = 2048;
  k.private_segment_size = 16;
  k.workgroup = {256, 1, 1};
  k.grid = {262144, 1, 1};
  k.graph_id = 2;
  k.graph_node_id = 8;
  k.cluster = {2, 1, 1};
  sink.emit(k);
  memcpy_event c;
  c.direction = copy_direction::device_to_host;
  c.bytes = 4096;
  c.src_agent_id = 11;
  c.dst_agent_id = 1;
  sink.emit(c);
  memset_event s;
  s.bytes = 128;
  s.value = 0xFF;
  sink.emit(s);
  allocation_event a;
  a.operation = allocation_op::release;
  a.address = 0x1000;
  a.bytes = 64;
  a.memory_kind_id = 3;
  a.timestamp_ns = 77;
  sink.emit(a);
  ASSERT_EQ(log_.records.size(), 4U);

  const auto& kr = log_.records[0].as<rocprofiler_buffer_tracing_kernel_dispatch_record_t>();
  EXPECT_EQ(log_.records[0].kind, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH);
  EXPECT_EQ(kr.size, sizeof(kr));
  EXPECT_EQ(kr.operation, ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
  EXPECT_EQ(kr.correlation_id.internal, 500U);
  EXPECT_EQ(kr.correlation_id.external.value, 77U);
  EXPECT_EQ(kr.thread_id, 4U);
  EXPECT_EQ(kr.dispatch_info.size, sizeof(rocprofiler_kernel_dispatch_info_t));
  EXPECT_EQ(kr.dispatch_info.dispatch_id, 3U);
  EXPECT_EQ(kr.dispatch_info.kernel_id, 2U);
  EXPECT_EQ(kr.dispatch_info.agent_id.handle, 11U);
  EXPECT_EQ(kr.dispatch_info.queue_id.handle, 1U);
  EXPECT_EQ(kr.dispatch_info.group_segment_size, 3072U);
  EXPECT_EQ(kr.dispatch_info.private_segment_size, 16U);
  EXPECT_EQ(kr.dispatch_info.grid_size.x, 262144U);
  EXPECT_EQ(kr.dispatch_info.workgroup_size.x, 256U);
  EXPECT_EQ(kr.stream_id.handle, 13U);
  EXPECT_EQ(kr.graph_id, 2U);
  EXPECT_EQ(kr.graph_node_id, 8U);
  EXPECT_EQ(kr.cluster_size.x, 2U);
  EXPECT_EQ(kr.dynamic_shared_memory_size, 2048U);

  const auto& cr = log_.records[1].as<rocprofiler_buffer_tracing_memory_copy_record_t>();
  EXPECT_EQ(cr.operation, ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST);
  EXPECT_EQ(cr.bytes, 4096U);
  EXPECT_EQ(cr.src_agent_id.handle, 11U);
  EXPECT_EQ(cr.dst_agent_id.handle, 1U);
  const auto& sr = log_.records[2].as<rocprofiler_buffer_tracing_memory_set_record_t>();
  EXPECT_EQ(log_.records[2].kind, ROCPROFILER_BUFFER_TRACING_MEMORY_SET);
  EXPECT_EQ(sr.operation, ROCPROFILER_MEMORY_SET_MEMSET);
  EXPECT_EQ(sr.value, 0xFFU);
  const auto& ar = log_.records[3].as<rocprofiler_buffer_tracing_memory_allocation_record_t>();
  EXPECT_EQ(ar.operation, ROCPROFILER_MEMORY_ALLOCATION_FREE);
  EXPECT_EQ(ar.address.value, 0x1000U);
  EXPECT_EQ(ar.memory_kind, 3U);
  EXPECT_EQ(ar.start_timestamp, 77U);

  sink.dropped(5);
  EXPECT_EQ(log_.dropped, 5U);
  EXPECT_EQ(log_.dropped_kind, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY);
}

TEST_F(abi_sink_test, agents_code_objects_and_symbols) {
  abi_sink sink{&core_};
  gpu_agent g;
  g.name = "NVIDIA H100 80GB HBM3";
  g.sm_count = 132;
  g.warp_size = 32;
  g.max_threads_per_sm = 2048;
  g.compute_major = 9;
  g.clock_khz = 1980000;
  g.shared_mem_per_block = 49152;
  g.pci_bus = 0;
  g.pci_device = 6;
  g.uuid_bytes[0] = 0x9d;
  EXPECT_EQ(sink.register_gpu(g), 11U);
  ASSERT_EQ(log_.agents.size(), 1U);
  const rocprofiler_agent_v0_t& a = log_.agents[0];
  EXPECT_EQ(a.type, ROCPROFILER_AGENT_TYPE_GPU);
  EXPECT_EQ(a.cu_count, 132U);
  EXPECT_EQ(a.wave_front_size, 32U);
  EXPECT_EQ(a.max_waves_per_cu, 64U);
  EXPECT_EQ(a.gfx_target_version, 90U);
  EXPECT_EQ(a.max_engine_clk_fcompute, 1980U);
  EXPECT_EQ(a.max_engine_clk_fcompute_khz, 1980000U);  // the listing prints kHz
  EXPECT_EQ(a.workgroup_max_lds_size, 49152U);         // shared memory per block
  EXPECT_EQ(a.location_id, 6U << 3);
  EXPECT_EQ(a.uuid.bytes[0], 0x9d);
  EXPECT_EQ(a.runtime_visibility.cuda, 1U);
  EXPECT_EQ(log_.agent_names[0], "NVIDIA H100 80GB HBM3");

  code_object_event co;
  co.code_object_id = 1;
  co.size = 7496;
  co.crc = 0x888ab23;
  co.module_id = 23;
  sink.code_object_loaded(co);
  kernel_symbol_event ks;
  ks.kernel_id = 1;
  ks.mangled_name = "_Z7vec_addPKfS0_Pfi";
  sink.kernel_symbol(ks);
  ASSERT_EQ(log_.events.size(), 2U);
  EXPECT_EQ(log_.events[0], "code:" + std::to_string(ROCPROFILER_CODE_OBJECT_LOAD));
  EXPECT_EQ(log_.events[1],
            "code:" + std::to_string(ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER));
  EXPECT_NE(log_.last_uri.find("size=7496"), std::string::npos) << log_.last_uri;
  EXPECT_NE(log_.last_uri.find("crc=0x888ab23"), std::string::npos) << log_.last_uri;
}

}  // namespace
}  // namespace rocprof::cuda
