// Records through the v2 library from the core, driven by the stand-in backend and ROCTx:
// API calls, kernels, copies and markers as v2 tracer / profiler records, walked with
// rocprofiler_next_record; buffer sizes, flush interval, the synchronous API callback, kernel
// and agent queries, code-object capture, and device sessions' statuses.
#include <gtest/gtest.h>
#include <rocprofiler-sdk-roctx/roctx.h>
#include <rocprofiler/v2/rocprofiler.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "v2_test_support.hpp"

namespace {

constexpr uint64_t k_kernel_id = 0x51;
const char* const k_kernel_name = "_Z14standin_kernelPf";
const unsigned char k_cubin[16] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 7, 0, 0, 0, 0, 0, 0, 0};

class v2_records : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(rocprofiler_initialize(), ROCPROFILER_STATUS_SUCCESS);
    backend = v2_test::find_stand_in();
    ASSERT_TRUE(backend.loaded()) << "the core did not load the stand-in backend";
    static bool module_loaded = false;
    if (!module_loaded) {
      module_loaded = true;
      backend.load_module(1, k_kernel_id, k_kernel_name, k_cubin, sizeof(k_cubin));
    }
    v2_test::collector::get().clear();
    ASSERT_EQ(rocprofiler_create_session(ROCPROFILER_NONE_REPLAY_MODE, &session),
              ROCPROFILER_STATUS_SUCCESS);
  }
  void TearDown() override { rocprofiler_finalize(); }

  rocprofiler_buffer_id_t buffer(size_t size = 0x9999) {
    rocprofiler_buffer_id_t id{};
    EXPECT_EQ(rocprofiler_create_buffer(session, v2_test::collect, size, &id),
              ROCPROFILER_STATUS_SUCCESS);
    return id;
  }
  rocprofiler_filter_id_t api_filter(std::vector<rocprofiler_tracer_activity_domain_t> domains,
                                     rocprofiler_buffer_id_t b) {
    rocprofiler_filter_id_t f{};
    rocprofiler_filter_data_t data{};
    data.trace_apis = domains.data();
    EXPECT_EQ(rocprofiler_create_filter(session, ROCPROFILER_API_TRACE, data, domains.size(), &f,
                                        rocprofiler_filter_property_t{}),
              ROCPROFILER_STATUS_SUCCESS);
    if (b.value != 0) {
      EXPECT_EQ(rocprofiler_set_filter_buffer(session, f, b), ROCPROFILER_STATUS_SUCCESS);
    }
    return f;
  }
  void kernel_filter(rocprofiler_buffer_id_t b) {
    rocprofiler_filter_id_t f{};
    ASSERT_EQ(rocprofiler_create_filter(session, ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION,
                                        rocprofiler_filter_data_t{}, 0, &f,
                                        rocprofiler_filter_property_t{}),
              ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_set_filter_buffer(session, f, b), ROCPROFILER_STATUS_SUCCESS);
  }

  v2_test::stand_in backend;
  rocprofiler_session_id_t session{};
};

TEST_F(v2_records, api_kernels_copies_and_markers) {
  const rocprofiler_buffer_id_t traces = buffer();
  const rocprofiler_buffer_id_t kernels = buffer();
  api_filter({ACTIVITY_DOMAIN_HIP_API, ACTIVITY_DOMAIN_HIP_OPS, ACTIVITY_DOMAIN_ROCTX}, traces);
  kernel_filter(kernels);
  backend.launch(k_kernel_id);  // before the session: not recorded
  ASSERT_EQ(rocprofiler_start_session(session), ROCPROFILER_STATUS_SUCCESS);
  roctxRangePushA("v2 region");
  const uint64_t launch = backend.launch(k_kernel_id);
  backend.copy(4096);
  roctxRangePop();
  ASSERT_EQ(rocprofiler_terminate_session(session), ROCPROFILER_STATUS_SUCCESS);
  backend.launch(k_kernel_id);  // after: not recorded
  ASSERT_EQ(rocprofiler_flush_data(session, traces), ROCPROFILER_STATUS_SUCCESS);

  auto& c = v2_test::collector::get();
  EXPECT_EQ(c.walk_errors, 0);
  const auto profiled = c.of(kernels);
  ASSERT_EQ(profiled.size(), 1u);
  EXPECT_EQ(profiled[0].kind, ROCPROFILER_PROFILER_RECORD);
  EXPECT_EQ(profiled[0].name, k_kernel_name);
  EXPECT_EQ(profiled[0].profiler.correlation_id.value, launch);
  EXPECT_EQ(profiled[0].profiler.kernel_properties.grid_size, 1024u);
  EXPECT_EQ(profiled[0].profiler.kernel_properties.workgroup_size, 256u);
  EXPECT_EQ(profiled[0].profiler.kernel_properties.lds_size, 4096u);
  EXPECT_LT(profiled[0].profiler.timestamps.begin.value, profiled[0].profiler.timestamps.end.value);
  size_t names_found = 0;
  const char* agent_name = nullptr;
  ASSERT_EQ(rocprofiler_query_agent_info(ROCPROFILER_AGENT_NAME, profiled[0].profiler.gpu_id,
                                         &agent_name),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(agent_name, "sm_90");

  int api = 0, ops = 0, markers = 0;
  for (const auto& r : c.of(traces)) {
    ASSERT_EQ(r.kind, ROCPROFILER_TRACER_RECORD);
    EXPECT_LE(r.tracer.timestamps.begin.value, r.tracer.timestamps.end.value);
    EXPECT_EQ(r.tracer.phase, ROCPROFILER_PHASE_NONE);
    if (r.tracer.domain == ACTIVITY_DOMAIN_HIP_API) {
      ++api;
      names_found += r.name == "cudaLaunchKernel" || r.name == "cudaMemcpyAsync";
    } else if (r.tracer.domain == ACTIVITY_DOMAIN_HIP_OPS) {
      ++ops;
      if (r.tracer.operation_id.id == 0) {
        EXPECT_EQ(r.name, k_kernel_name);
        EXPECT_EQ(r.tracer.correlation_id.value, launch);
      }
    } else if (r.tracer.domain == ACTIVITY_DOMAIN_ROCTX) {
      ++markers;
      EXPECT_EQ(r.name, "v2 region");
    }
  }
  EXPECT_EQ(api, 2);
  EXPECT_EQ(names_found, 2u);
  EXPECT_EQ(ops, 2);  // the kernel and the copy
  EXPECT_EQ(markers, 1);
}

TEST_F(v2_records, small_buffer_delivers_several_times_and_keeps_every_record) {
  const rocprofiler_buffer_id_t b = buffer(3 * sizeof(rocprofiler_record_tracer_t));
  api_filter({ACTIVITY_DOMAIN_HIP_API}, b);
  ASSERT_EQ(rocprofiler_start_session(session), ROCPROFILER_STATUS_SUCCESS);
  for (int i = 0; i < 10; ++i)
    backend.launch(k_kernel_id);
  ASSERT_EQ(rocprofiler_terminate_session(session), ROCPROFILER_STATUS_SUCCESS);
  auto& c = v2_test::collector::get();
  EXPECT_EQ(c.of(b).size(), 10u);
  EXPECT_GE(c.deliveries_of(b), 4);
  EXPECT_EQ(c.walk_errors, 0);
}

TEST_F(v2_records, flush_interval_delivers_while_the_session_runs) {
  const rocprofiler_buffer_id_t b = buffer();
  rocprofiler_buffer_property_t every_10ms{ROCPROFILER_BUFFER_PROPERTY_KIND_INTERVAL_FLUSH, 10};
  ASSERT_EQ(rocprofiler_set_buffer_properties(session, b, &every_10ms, 1),
            ROCPROFILER_STATUS_SUCCESS);
  api_filter({ACTIVITY_DOMAIN_HIP_API}, b);
  ASSERT_EQ(rocprofiler_start_session(session), ROCPROFILER_STATUS_SUCCESS);
  backend.launch(k_kernel_id);
  auto& c = v2_test::collector::get();
  for (int i = 0; i < 200 && c.of(b).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(c.of(b).size(), 1u);
  ASSERT_EQ(rocprofiler_terminate_session(session), ROCPROFILER_STATUS_SUCCESS);
}

std::vector<rocprofiler_record_tracer_t> g_sync;
void on_sync(rocprofiler_record_tracer_t record, rocprofiler_session_id_t) {
  g_sync.push_back(record);
}

TEST_F(v2_records, synchronous_api_callback_sees_enter_and_exit) {
  g_sync.clear();
  const rocprofiler_filter_id_t f =
      api_filter({ACTIVITY_DOMAIN_HIP_API}, rocprofiler_buffer_id_t{});
  ASSERT_EQ(rocprofiler_set_api_trace_sync_callback(session, f, on_sync),
            ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_session(session), ROCPROFILER_STATUS_SUCCESS);
  const uint64_t launch = backend.launch(k_kernel_id);
  ASSERT_EQ(rocprofiler_terminate_session(session), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(g_sync.size(), 2u);
  EXPECT_EQ(g_sync[0].phase, ROCPROFILER_PHASE_ENTER);
  EXPECT_EQ(g_sync[1].phase, ROCPROFILER_PHASE_EXIT);
  EXPECT_STREQ(g_sync[0].name, "cudaLaunchKernel");
  EXPECT_EQ(g_sync[1].correlation_id.value, launch);
  EXPECT_LE(g_sync[1].timestamps.begin.value, g_sync[1].timestamps.end.value);
}

TEST_F(v2_records, operation_names_and_ids) {
  const char* name = nullptr;
  ASSERT_EQ(rocprofiler_query_tracer_operation_name(ACTIVITY_DOMAIN_HIP_API,
                                                    rocprofiler_tracer_operation_id_t{211}, &name),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "cudaLaunchKernel");
  rocprofiler_tracer_operation_id_t op{};
  ASSERT_EQ(rocprofiler_tracer_operation_id(ACTIVITY_DOMAIN_HIP_API, "cudaLaunchKernel", &op),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(op.id, 211u);
  EXPECT_EQ(rocprofiler_tracer_operation_id(ACTIVITY_DOMAIN_HIP_API, "noSuchCall", &op),
            ROCPROFILER_STATUS_ERROR_INVALID_OPERATION_ID);
  EXPECT_EQ(rocprofiler_query_tracer_operation_name(ACTIVITY_DOMAIN_KFD_API, op, &name),
            ROCPROFILER_STATUS_ERROR_INVALID_DOMAIN_ID);
  ASSERT_EQ(rocprofiler_query_tracer_operation_name(ACTIVITY_DOMAIN_HIP_OPS,
                                                    rocprofiler_tracer_operation_id_t{0}, &name),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "KernelExecution");
  size_t size = 0;
  ASSERT_EQ(rocprofiler_query_kernel_info_size(ROCPROFILER_KERNEL_NAME,
                                               rocprofiler_kernel_id_t{k_kernel_id}, &size),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(size, std::strlen(k_kernel_name) + 1);
  EXPECT_EQ(
      rocprofiler_query_kernel_info(ROCPROFILER_KERNEL_NAME, rocprofiler_kernel_id_t{999}, &name),
      ROCPROFILER_STATUS_ERROR_KERNEL_NOT_FOUND);
}

TEST_F(v2_records, code_object_capture_modes) {
  rocprofiler_record_id_t symbols{}, copies{};
  ASSERT_EQ(rocprofiler_codeobj_capture_create(&symbols, ROCPROFILER_CAPTURE_SYMBOLS_ONLY, 11),
            ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_codeobj_capture_create(&copies, ROCPROFILER_CAPTURE_COPY_MEMORY, 22),
            ROCPROFILER_STATUS_SUCCESS);
  rocprofiler_codeobj_symbols_t got{};
  ASSERT_EQ(rocprofiler_codeobj_capture_get(copies, &got), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(got.count, 0u);  // nothing until started
  ASSERT_EQ(rocprofiler_codeobj_capture_start(symbols), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_codeobj_capture_start(copies), ROCPROFILER_STATUS_SUCCESS);
  backend.load_module(2, 0x52, "_Z6secondv", k_cubin, sizeof(k_cubin));  // loaded while started
  ASSERT_EQ(rocprofiler_codeobj_capture_stop(copies), ROCPROFILER_STATUS_SUCCESS);
  backend.load_module(3, 0x53, "_Z5thirdv", k_cubin, sizeof(k_cubin));  // after stop
  ASSERT_EQ(rocprofiler_codeobj_capture_get(copies, &got), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(got.userdata, 22u);
  ASSERT_GE(got.count, 2u);  // the module loaded before start and the one loaded during
  const rocprofiler_intercepted_codeobj_t& last = got.symbols[got.count - 1];
  EXPECT_EQ(std::string(last.filepath).rfind("memory://", 0), 0u);
  EXPECT_EQ(last.mem_size, sizeof(k_cubin));
  ASSERT_EQ(last.data_size, sizeof(k_cubin));
  EXPECT_EQ(std::memcmp(last.data, k_cubin, sizeof(k_cubin)), 0);
  EXPECT_GT(last.clock_start.value, 0u);
  EXPECT_EQ(last.clock_end.value, 0u);
  const uint64_t copies_count = got.count;
  ASSERT_EQ(rocprofiler_codeobj_capture_get(symbols, &got), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(got.count, copies_count + 1);  // still started: the third module too
  EXPECT_EQ(got.symbols[got.count - 1].data, nullptr);
  const char* name = nullptr;
  ASSERT_EQ(
      rocprofiler_query_kernel_info(ROCPROFILER_KERNEL_NAME, rocprofiler_kernel_id_t{0x52}, &name),
      ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "_Z6secondv");
  EXPECT_EQ(rocprofiler_codeobj_capture_free(symbols), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_codeobj_capture_free(copies), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_codeobj_capture_get(copies, &got),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS);
  EXPECT_EQ(rocprofiler_codeobj_capture_start(copies), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS);
  EXPECT_EQ(rocprofiler_codeobj_capture_create(nullptr, ROCPROFILER_CAPTURE_SYMBOLS_ONLY, 0),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS);
}

TEST_F(v2_records, device_sessions_without_the_counting_service) {
  const char* counters[] = {"SQ_WAVES"};
  rocprofiler_session_id_t d{};
  EXPECT_EQ(rocprofiler_device_profiling_session_create(nullptr, 1, &d, 0, 0),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS);
  EXPECT_EQ(rocprofiler_device_profiling_session_create(counters, 1, &d, 0, -1),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS);
  EXPECT_EQ(rocprofiler_device_profiling_session_create(counters, 1, &d, 0, 0),
            ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  rocprofiler_device_profile_metric_t out[1]{};
  EXPECT_EQ(rocprofiler_device_profiling_session_start(rocprofiler_session_id_t{5}),
            ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(rocprofiler_device_profiling_session_poll(rocprofiler_session_id_t{5}, out),
            ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(rocprofiler_device_profiling_session_stop(rocprofiler_session_id_t{5}),
            ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(rocprofiler_device_profiling_session_destroy(rocprofiler_session_id_t{5}),
            ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND);
}

}  // namespace
