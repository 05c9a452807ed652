// The CUPTI session against the synthetic wrapper: what gets enabled and in which order,
// conflicts with another subscriber, and API call <-> GPU work correlation.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cupti_session.hpp"
#include "recording_sink.hpp"
#include "synthetic_cupti.hpp"

namespace rocprof::cuda {
namespace {

// CUPTI hands records out as CUpti_Activity*, pointing at the full record.
template <typename T>
const CUpti_Activity& as_record(const T& r) {
  return *static_cast<const CUpti_Activity*>(static_cast<const void*>(&r));
}

constexpr uint32_t launch_cbid = test::synthetic_cupti::launch_cbid;
constexpr uint32_t malloc_cbid = test::synthetic_cupti::malloc_cbid;
constexpr uint32_t driver_launch_cbid = test::synthetic_cupti::driver_launch_cbid;
constexpr uint32_t driver_other_cbid = test::synthetic_cupti::driver_other_cbid;

void name_callbacks(test::synthetic_cupti& api) {
  api.name_launch_calls();
}

bool has_callback(const test::synthetic_cupti& api, CUpti_CallbackDomain d, uint32_t cbid) {
  return std::find(api.enabled_callbacks.begin(), api.enabled_callbacks.end(),
                   std::make_pair(d, static_cast<CUpti_CallbackId>(cbid))) !=
         api.enabled_callbacks.end();
}

TEST(cupti_session, kernel_trace_alone_enables_only_launch_callbacks_and_the_kernel_kind) {
  test::synthetic_cupti api;
  name_callbacks(api);
  test::recording_sink sink;
  sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
  cupti_session s{api, sink};
  ASSERT_EQ(s.start(), session_state::running);
  EXPECT_TRUE(has_callback(api, CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid));
  EXPECT_TRUE(has_callback(api, CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid));
  EXPECT_FALSE(has_callback(api, CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid));
  EXPECT_FALSE(has_callback(api, CUPTI_CB_DOMAIN_DRIVER_API, driver_other_cbid));
  EXPECT_TRUE(api.enabled_domains.empty());
  const std::string kernel_kind =
      "activity_enable:" + std::to_string(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  EXPECT_LT(api.index_of(kernel_kind), api.calls.size());
  EXPECT_EQ(api.index_of("activity_enable:" + std::to_string(CUPTI_ACTIVITY_KIND_MEMCPY)),
            api.calls.size());
  // The clock is switched before any kind is enabled, and only after subscribing succeeded.
  EXPECT_LT(api.index_of("subscribe"), api.index_of("register_timestamp_callback"));
  EXPECT_LT(api.index_of("register_timestamp_callback"), api.index_of(kernel_kind));
  s.stop();
  EXPECT_LT(api.index_of("flush_all"), api.index_of("unsubscribe"));
}

// CUPTI's concurrent kernel records come from code it adds to every kernel, which user replay
// counts (8 instructions per warp on the H100): while counters are collected kernel records
// are serialized ones, and a context that starts counting after kernels were traced switches.
TEST(cupti_session, kernel_records_are_serialized_while_counting) {
  struct sink_that_starts_counting : test::recording_sink {
    bool counting = false;
    bool counting_requested() override { return counting; }
  };
  EXPECT_EQ(kernel_record_kind(false), CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  EXPECT_EQ(kernel_record_kind(true), CUPTI_ACTIVITY_KIND_KERNEL);
  test::synthetic_cupti api;
  name_callbacks(api);
  sink_that_starts_counting sink;
  sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
  cupti_session s{api, sink};
  ASSERT_EQ(s.start(), session_state::running);
  const auto call_of = [](const char* what, CUpti_ActivityKind kind) {
    return std::string(what) + ":" + std::to_string(kind);
  };
  const std::string concurrent_on =
      call_of("activity_enable", CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  const std::string concurrent_off =
      call_of("activity_disable", CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  const std::string serialized_on = call_of("activity_enable", CUPTI_ACTIVITY_KIND_KERNEL);
  EXPECT_LT(api.index_of(concurrent_on), api.calls.size());
  EXPECT_EQ(api.index_of(serialized_on), api.calls.size());
  sink.counting = true;
  s.reconfigure();
  ASSERT_LT(api.index_of(concurrent_off), api.calls.size());
  ASSERT_LT(api.index_of(serialized_on), api.calls.size());
  EXPECT_LT(api.index_of(concurrent_off), api.index_of(serialized_on));  // never both on
  s.stop();
}

TEST(cupti_session, api_domains_enable_every_requested_cbid) {
  test::synthetic_cupti api;
  name_callbacks(api);
  test::recording_sink sink;
  sink.domains[static_cast<size_t>(cuda_domain::runtime_api)] = true;
  cupti_session s{api, sink};
  ASSERT_EQ(s.start(), session_state::running);
  EXPECT_TRUE(has_callback(api, CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid));
  EXPECT_TRUE(has_callback(api, CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid));
  EXPECT_FALSE(has_callback(api, CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid));
  EXPECT_EQ(std::count_if(api.calls.begin(), api.calls.end(),
                          [](const std::string& c) { return c.rfind("activity_enable", 0) == 0; }),
            0);
  s.stop();
}

TEST(cupti_session, another_subscriber_is_named_once_and_nothing_is_enabled) {
  test::synthetic_cupti api;
  api.subscribe_result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  api.old_subscriber = "CUPTI for Nsight Systems";
  test::recording_sink sink;
  sink.enable_all();
  cupti_session s{api, sink};
  testing::internal::CaptureStderr();
  EXPECT_EQ(s.start(), session_state::conflict);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("CUPTI for Nsight Systems"), std::string::npos) << err;
  EXPECT_EQ(s.conflict_owner(), "CUPTI for Nsight Systems");
  EXPECT_EQ(api.index_of("register_timestamp_callback"), api.calls.size());
  EXPECT_TRUE(api.enabled_callbacks.empty());
  EXPECT_EQ(
      api.index_of("activity_enable:" + std::to_string(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)),
      api.calls.size());
}

CUpti_CallbackData callback(CUpti_ApiCallbackSite site, uint32_t cupti_id, const char* name,
                            uint64_t* slot) {
  CUpti_CallbackData cb{};
  cb.callbackSite = site;
  cb.functionName = name;
  cb.correlationId = cupti_id;
  cb.correlationData = slot;
  return cb;
}

TEST(cupti_session, api_record_and_the_kernel_it_launched_share_one_id) {
  test::synthetic_cupti api;
  name_callbacks(api);
  test::recording_sink sink;
  sink.enable_all();
  cupti_session s{api, sink};
  s.trace_nested_driver_calls(true);  // the runtime call's driver call is recorded too
  ASSERT_EQ(s.start(), session_state::running);

  // cudaLaunchKernel (CUPTI id 60) calls cuLaunchKernel (CUPTI id 61); the kernel record may
  // carry either id: both must resolve to the runtime call's id.
  uint64_t slot_rt = 0, slot_drv = 0;
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid,
           callback(CUPTI_API_ENTER, 60, "cudaLaunchKernel", &slot_rt));
  s.on_api(CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid,
           callback(CUPTI_API_ENTER, 61, "cuLaunchKernel", &slot_drv));
  s.on_api(CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid,
           callback(CUPTI_API_EXIT, 61, "cuLaunchKernel", &slot_drv));
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid,
           callback(CUPTI_API_EXIT, 60, "cudaLaunchKernel", &slot_rt));
  ASSERT_EQ(sink.api.size(), 2U);
  const api_event& runtime_call = sink.api[1];
  const api_event& driver_call = sink.api[0];
  EXPECT_EQ(runtime_call.domain, api_domain::runtime);
  EXPECT_STREQ(runtime_call.name, "cudaLaunchKernel");
  EXPECT_NE(runtime_call.correlation_id, driver_call.correlation_id);
  EXPECT_LE(runtime_call.start_ns, driver_call.start_ns);
  EXPECT_GE(runtime_call.end_ns, driver_call.end_ns);
  EXPECT_GT(runtime_call.tid, 0);

  CUpti_ActivityKernel10 k1{}, k2{};
  k1.kind = k2.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k1.name = k2.name = "_Z1kv";
  k1.correlationId = 60;
  k2.correlationId = 61;
  api.buffer_records = {&as_record(k1), &as_record(k2)};
  api.dropped = 3;
  uint8_t dummy[8] = {};
  testing::internal::CaptureStderr();  // no driver here: the agent query says so once
  s.on_buffer_completed(nullptr, 0, dummy, sizeof(dummy));
  testing::internal::GetCapturedStderr();
  ASSERT_EQ(sink.kernels.size(), 2U);
  EXPECT_EQ(sink.kernels[0].correlation_id, runtime_call.correlation_id);
  EXPECT_EQ(sink.kernels[1].correlation_id, runtime_call.correlation_id);
  EXPECT_EQ(sink.kernels[0].tid, runtime_call.tid);
  EXPECT_EQ(sink.dropped_count, 3U);
  EXPECT_EQ(s.dropped(), 3U);
  s.stop();
}

TEST(cupti_session, module_loads_become_code_objects_in_load_order) {
  test::synthetic_cupti api;
  test::recording_sink sink;
  sink.domains[static_cast<size_t>(cuda_domain::code_objects)] = true;
  cupti_session s{api, sink};
  ASSERT_EQ(s.start(), session_state::running);
  static const char cubin[64] = {0x7f, 'E', 'L', 'F'};
  CUpti_ModuleResourceData m{};
  m.moduleId = 4;
  m.cubinSize = sizeof(cubin);
  m.pCubin = cubin;
  CUpti_ResourceData rd{};
  rd.resourceDescriptor = &m;
  testing::internal::CaptureStderr();
  s.on_resource(CUPTI_CBID_RESOURCE_MODULE_LOADED, rd);
  s.on_resource(CUPTI_CBID_RESOURCE_MODULE_LOADED, rd);
  testing::internal::GetCapturedStderr();
  ASSERT_EQ(sink.code_objects.size(), 2U);
  EXPECT_EQ(sink.code_objects[0].code_object_id, 1U);
  EXPECT_EQ(sink.code_objects[1].code_object_id, 2U);
  EXPECT_EQ(sink.code_objects[0].size, sizeof(cubin));
  EXPECT_EQ(sink.code_objects[0].crc, 0xC0FFEEU);
  EXPECT_EQ(sink.code_objects[0].module_id, 4U);
  s.stop();
}

TEST(cupti_session, reconfigure_adds_newly_requested_kinds_without_resubscribing) {
  test::synthetic_cupti api;
  name_callbacks(api);
  test::recording_sink sink;
  sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
  cupti_session s{api, sink};
  ASSERT_EQ(s.start(), session_state::running);
  const std::string memcpy_kind = "activity_enable:" + std::to_string(CUPTI_ACTIVITY_KIND_MEMCPY);
  EXPECT_EQ(api.index_of(memcpy_kind), api.calls.size());
  // The core may ask again at any time, even from inside one of our callbacks: nothing is torn
  // down, only what is new gets enabled, and kinds already on are not enabled twice.
  sink.domains[static_cast<size_t>(cuda_domain::memory_copy)] = true;
  s.reconfigure();
  EXPECT_EQ(s.state(), session_state::running);
  EXPECT_LT(api.index_of(memcpy_kind), api.calls.size());
  EXPECT_EQ(std::count(api.calls.begin(), api.calls.end(), "subscribe"), 1);
  EXPECT_EQ(std::count(api.calls.begin(), api.calls.end(), "unsubscribe"), 0);
  EXPECT_EQ(std::count(api.calls.begin(), api.calls.end(),
                       "activity_enable:" + std::to_string(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)),
            1);
  s.stop();
  // Stopped, then wanted again: the same session subscribes again.
  EXPECT_EQ(s.start(), session_state::running);
  EXPECT_EQ(std::count(api.calls.begin(), api.calls.end(), "subscribe"), 2);
  s.stop();
}

TEST(cupti_session, launch_like_names) {
  EXPECT_TRUE(cupti_session::is_launch_like("cudaLaunchKernel_v7000"));
  EXPECT_TRUE(cupti_session::is_launch_like("cuLaunchKernelEx"));
  EXPECT_TRUE(cupti_session::is_launch_like("cudaGraphLaunch_v10000"));
  EXPECT_TRUE(cupti_session::is_launch_like("cuMemcpyHtoDAsync_v2"));
  EXPECT_FALSE(cupti_session::is_launch_like("cudaGetDevice"));
  EXPECT_FALSE(cupti_session::is_launch_like(nullptr));
}

}  // namespace
}  // namespace rocprof::cuda
