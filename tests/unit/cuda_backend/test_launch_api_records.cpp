// Kernel-only tracing without launch callbacks: the session asks CUPTI for API activity records
// of the launch calls only, and the processor joins each kernel, copy, set or allocation record
// to its API record (launching thread, core correlation id). The results must equal what the
// launch-callback path gives for the same launch; what still needs callbacks keeps them.
#include <gtest/gtest.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "api_record_helpers.hpp"
#include "cupti_session.hpp"
#include "recording_sink.hpp"
#include "synthetic_cupti.hpp"

namespace rocprof::cuda {
namespace {

// The synthetic records, their delivery and the synthetic CUPTI's call ids.
using namespace test;

void name_callbacks(test::synthetic_cupti& api) {
  api.name_launch_calls();
}

// cudaLaunchKernel with CUPTI id `cupti_id` on this thread, seen by the launch callbacks.
void launch_by_callback(cupti_session& s, uint32_t cupti_id) {
  uint64_t slot = 0;
  CUpti_CallbackData cb{};
  cb.functionName = "cudaLaunchKernel";
  cb.correlationId = cupti_id;
  cb.correlationData = &slot;
  cb.callbackSite = CUPTI_API_ENTER;
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid, cb);
  cb.callbackSite = CUPTI_API_EXIT;
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid, cb);
}

struct kernel_only : testing::Test {
  test::synthetic_cupti api;
  test::recording_sink sink;
  void SetUp() override {
    unsetenv("ROCPROF_CUDA_LAUNCH_CALLBACKS");
    name_callbacks(api);
    api.api_records_supported = true;
    sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
  }
};

TEST_F(kernel_only, asks_for_launch_api_records_instead_of_callbacks) {
  cupti_session s{api, sink};
  ASSERT_EQ(s.start(), session_state::running);
  EXPECT_TRUE(s.attributes_by_api_records());
  EXPECT_FALSE(any_api_callback(api));
  EXPECT_TRUE(has(api.api_records_enabled, CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid));
  EXPECT_TRUE(has(api.api_records_enabled, CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid));
  EXPECT_FALSE(has(api.api_records_enabled, CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid));
  EXPECT_FALSE(has(api.api_records_enabled, CUPTI_CB_DOMAIN_DRIVER_API, driver_other_cbid));
  // Neither API kind is enabled as a whole (that would record every call).
  for (CUpti_ActivityKind k : {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER})
    EXPECT_EQ(api.index_of("activity_enable:" + std::to_string(k)), api.calls.size());
  // Thread ids of API records must be the OS's (gettid), like the core's.
  EXPECT_LT(api.index_of("use_system_thread_ids"), api.calls.size());
  s.stop();
}

TEST_F(kernel_only, kernel_before_and_after_its_api_record_get_the_launch_thread_and_one_id) {
  cupti_session s{api, sink};
  ASSERT_EQ(s.start(), session_state::running);
  const auto k1 = kernel_record(60), k2 = kernel_record(70);
  const auto rt1 = api_record(CUPTI_ACTIVITY_KIND_RUNTIME, launch_cbid, 60, 4242);
  const auto drv1 = api_record(CUPTI_ACTIVITY_KIND_DRIVER, driver_launch_cbid, 61, 4242);
  const auto rt2 = api_record(CUPTI_ACTIVITY_KIND_RUNTIME, launch_cbid, 70, 777);
  // Kernel 60 is delivered before its launch's record (another buffer): it waits.
  deliver(s, api, {&as_record(k1)});
  EXPECT_TRUE(sink.kernels.empty());
  deliver(s, api, {&as_record(rt1), &as_record(drv1), &as_record(rt2), &as_record(k2)});
  ASSERT_EQ(sink.kernels.size(), 2U);
  EXPECT_EQ(sink.kernels[0].tid, 4242);
  EXPECT_EQ(sink.kernels[1].tid, 777);
  EXPECT_NE(sink.kernels[0].correlation_id, 0U);
  EXPECT_NE(sink.kernels[0].correlation_id, sink.kernels[1].correlation_id);
  EXPECT_EQ(sink.kernels[0].external_id, 0U);
  // Dispatch ids stay 1..N in processing order.
  EXPECT_EQ(sink.kernels[0].dispatch_id, 1U);
  EXPECT_EQ(sink.kernels[1].dispatch_id, 2U);
  EXPECT_EQ(s.counts().api, 3U);
  s.stop();
}

TEST_F(kernel_only, work_whose_api_record_never_comes_is_delivered_at_the_final_flush) {
  sink.domains[static_cast<size_t>(cuda_domain::memory_copy)] = true;
  cupti_session s{api, sink};
  ASSERT_EQ(s.start(), session_state::running);
  EXPECT_TRUE(has(api.api_records_enabled, CUPTI_CB_DOMAIN_RUNTIME_API, memcpy_cbid));
  const auto k = kernel_record(90);
  CUpti_ActivityMemcpy6 m{};
  m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  m.correlationId = 91;
  deliver(s, api, {&as_record(k), &as_record(m)});
  EXPECT_TRUE(sink.kernels.empty());
  EXPECT_TRUE(sink.copies.empty());
  s.flush();
  ASSERT_EQ(sink.kernels.size(), 1U);
  ASSERT_EQ(sink.copies.size(), 1U);
  EXPECT_EQ(sink.kernels[0].tid, 0);  // as work no launch callback saw
  EXPECT_NE(sink.kernels[0].correlation_id, 0U);
  EXPECT_NE(sink.copies[0].correlation_id, sink.kernels[0].correlation_id);
  s.stop();
}

// The same launch through both paths: thread and correlation id of the kernel agree.
TEST_F(kernel_only, api_records_give_what_the_launch_callbacks_gave) {
  const auto tid = static_cast<uint32_t>(syscall(SYS_gettid));
  test::synthetic_cupti cb_api;
  name_callbacks(cb_api);  // no per-API records: the callback path
  test::recording_sink cb_sink;
  cb_sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
  cupti_session by_callback{cb_api, cb_sink};
  ASSERT_EQ(by_callback.start(), session_state::running);
  EXPECT_FALSE(by_callback.attributes_by_api_records());
  launch_by_callback(by_callback, 60);
  const auto k = kernel_record(60);
  deliver(by_callback, cb_api, {&as_record(k)});

  cupti_session by_record{api, sink};
  ASSERT_EQ(by_record.start(), session_state::running);
  const auto rt = api_record(CUPTI_ACTIVITY_KIND_RUNTIME, launch_cbid, 60, tid);
  deliver(by_record, api, {&as_record(k), &as_record(rt)});

  ASSERT_EQ(cb_sink.kernels.size(), 1U);
  ASSERT_EQ(sink.kernels.size(), 1U);
  EXPECT_EQ(sink.kernels[0].tid, cb_sink.kernels[0].tid);
  EXPECT_EQ(sink.kernels[0].correlation_id, cb_sink.kernels[0].correlation_id);  // both 1st id
  EXPECT_EQ(sink.kernels[0].dispatch_id, cb_sink.kernels[0].dispatch_id);
  EXPECT_EQ(sink.kernels[0].kernel_id, cb_sink.kernels[0].kernel_id);
  by_callback.stop();
  by_record.stop();
}

// What needs the launching thread at launch time keeps the launch callbacks.
TEST_F(kernel_only, external_ids_api_tracing_and_the_switch_keep_callbacks) {
  auto callbacks_kept = [&](auto&& setup) {
    test::synthetic_cupti a;
    name_callbacks(a);
    a.api_records_supported = true;
    test::recording_sink k;
    k.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
    setup(k);
    cupti_session s{a, k};
    EXPECT_EQ(s.start(), session_state::running);
    const bool kept = has(a.enabled_callbacks, CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid) &&
                      !s.attributes_by_api_records() && a.api_records_enabled.empty();
    s.stop();
    return kept;
  };
  EXPECT_TRUE(callbacks_kept([](test::recording_sink& k) { k.launch_time_ids = true; }));
  EXPECT_TRUE(callbacks_kept([](test::recording_sink& k) {
    k.domains[static_cast<size_t>(cuda_domain::runtime_api)] = true;
  }));
  setenv("ROCPROF_CUDA_LAUNCH_CALLBACKS", "1", 1);
  EXPECT_TRUE(callbacks_kept([](test::recording_sink&) {}));
  setenv("ROCPROF_CUDA_LAUNCH_CALLBACKS", "0", 1);
  EXPECT_FALSE(callbacks_kept([](test::recording_sink&) {}));
  unsetenv("ROCPROF_CUDA_LAUNCH_CALLBACKS");
}

// Launch callbacks (external ids asked at launch) also see the calls that begin a stream
// capture: without them, launches recorded into a capture asked for ids of work that never ran
// by itself (the H100's samples.cuda_app: 3 answers never came back).
TEST_F(kernel_only, launch_callbacks_see_capture_begins) {
  constexpr uint32_t begin_capture_cbid = 315;  // cudaStreamBeginCapture_v10000
  test::synthetic_cupti a;
  name_callbacks(a);
  a.names[{CUPTI_CB_DOMAIN_RUNTIME_API, begin_capture_cbid}] = "cudaStreamBeginCapture_v10000";
  a.api_records_supported = true;
  test::recording_sink k;
  k.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
  k.launch_time_ids = true;
  cupti_session s{a, k};
  ASSERT_EQ(s.start(), session_state::running);
  EXPECT_TRUE(has(a.enabled_callbacks, CUPTI_CB_DOMAIN_RUNTIME_API, begin_capture_cbid));
  s.stop();
}

// A tool that starts pushing ids later (e.g. --kernel-rename's context starts after the
// kernel context): reconfigure turns the launch callbacks on; their ids win over the records'.
TEST_F(kernel_only, reconfigure_turns_callbacks_on_and_their_ids_win) {
  cupti_session s{api, sink};
  ASSERT_EQ(s.start(), session_state::running);
  sink.launch_time_ids = true;
  s.reconfigure();
  EXPECT_TRUE(has(api.enabled_callbacks, CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid));
  test::recording_sink::thread_external = 55;
  launch_by_callback(s, 80);
  test::recording_sink::thread_external = 0;
  const auto k = kernel_record(80);
  const auto rt = api_record(CUPTI_ACTIVITY_KIND_RUNTIME, launch_cbid, 80, 1);
  deliver(s, api, {&as_record(rt), &as_record(k)});
  ASSERT_EQ(sink.kernels.size(), 1U);
  EXPECT_EQ(sink.kernels[0].external_id, 55U);
  EXPECT_EQ(sink.kernels[0].tid, static_cast<int64_t>(syscall(SYS_gettid)));
  s.stop();
}

}  // namespace
}  // namespace rocprof::cuda
