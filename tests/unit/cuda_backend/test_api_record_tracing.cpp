// API tracing from CUPTI's API activity records (ROCPROF_CUDA_API_RECORDS=1: rocprofv3's default
// for CUDA API tracing since issue 15, --cuda-api-args asks for callbacks instead): traced runtime
// and driver calls take no callback; each call's activity record becomes the API buffer record
// (thread, times, return code, a core correlation id that the work it launched shares). Driver
// calls made inside runtime calls are left out unless asked for. Whatever needs a callback on those
// calls keeps the callback path.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "activity_processor.hpp"
#include "api_record_helpers.hpp"
#include "cupti_session.hpp"
#include "recording_sink.hpp"
#include "synthetic_cupti.hpp"

namespace rocprof::cuda {
namespace {

// The synthetic records, their delivery and the synthetic CUPTI's call ids.
using namespace test;
constexpr auto runtime_kind = CUPTI_ACTIVITY_KIND_RUNTIME;
constexpr auto driver_kind = CUPTI_ACTIVITY_KIND_DRIVER;

struct api_records : testing::Test {
  test::synthetic_cupti api;
  test::recording_sink sink;
  void SetUp() override {
    unsetenv("ROCPROF_CUDA_LAUNCH_CALLBACKS");
    unsetenv("ROCPROF_CUDA_API_RECORDS");
    unsetenv("ROCPROF_CUDA_API_ARGS");
    unsetenv("ROCPROF_CUDA_NESTED_DRIVER_API");
    api.name_launch_calls();
    api.api_records_supported = true;
    for (cuda_domain d :
         {cuda_domain::runtime_api, cuda_domain::driver_api, cuda_domain::kernel_dispatch})
      sink.domains[static_cast<size_t>(d)] = true;
  }
  // --sys-trace --cuda-api-records, as far as this session sees it.
  void start(cupti_session& s, bool nested = false) {
    s.trace_api_from_records(true);
    s.trace_nested_driver_calls(nested);
    ASSERT_EQ(s.start(), session_state::running);
  }
  // The API record of the call that started at `start_ns` (start 0: none).
  api_event api_of(uint64_t start_ns) const {
    for (const api_event& e : sink.api)
      if (e.start_ns == start_ns) return e;
    return api_event{};
  }
  bool has_api(uint64_t start_ns) const { return api_of(start_ns).start_ns == start_ns; }
};

TEST_F(api_records, traced_calls_take_no_callback_and_give_api_records) {
  cupti_session s{api, sink};
  start(s);
  EXPECT_TRUE(s.traces_api_from_records());
  EXPECT_TRUE(s.attributes_by_api_records());
  EXPECT_FALSE(any_api_callback(api));
  // Every traced call, launching or not, gives a record; thread ids are the OS's.
  EXPECT_TRUE(has(api.api_records_enabled, CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid));
  EXPECT_TRUE(has(api.api_records_enabled, CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid));
  EXPECT_TRUE(has(api.api_records_enabled, CUPTI_CB_DOMAIN_DRIVER_API, driver_other_cbid));
  EXPECT_LT(api.index_of("use_system_thread_ids"), api.calls.size());
  s.stop();
}

TEST_F(api_records, records_become_api_records_and_kernels_join_their_launch) {
  cupti_session s{api, sink};
  start(s);
  auto launch = api_record(runtime_kind, launch_cbid, 60, 4242, 1000, 2000);
  launch.returnValue = 0;
  auto failed_malloc = api_record(runtime_kind, malloc_cbid, 62, 777, 3000, 3500);
  failed_malloc.returnValue = 2;  // cudaErrorMemoryAllocation
  const auto nested = api_record(driver_kind, driver_launch_cbid, 61, 4242, 1200, 1800);
  const auto k = kernel_record(60);
  // Completion order: the nested driver call, then its runtime call; the kernel comes first.
  deliver(s, api,
          {&as_record(k), &as_record(nested), &as_record(launch), &as_record(failed_malloc)});
  EXPECT_TRUE(sink.enters.empty());  // no callback path
  ASSERT_EQ(sink.api.size(), 2U);    // the nested driver call is left out
  EXPECT_EQ(sink.after_the_fact, 2U);
  ASSERT_TRUE(has_api(1000));
  ASSERT_TRUE(has_api(3000));
  const api_event l = api_of(1000), m = api_of(3000);
  EXPECT_EQ(l.domain, api_domain::runtime);
  EXPECT_EQ(l.cbid, launch_cbid);
  EXPECT_STREQ(l.name, "cudaLaunchKernel_v7000");
  EXPECT_EQ(l.tid, 4242);
  EXPECT_EQ(l.end_ns, 2000U);
  EXPECT_EQ(l.args, nullptr);  // a record has no arguments
  EXPECT_EQ(l.external_id, 0U);
  EXPECT_EQ(m.tid, 777);
  EXPECT_EQ(m.return_code, 2);
  EXPECT_NE(l.correlation_id, 0U);
  EXPECT_NE(l.correlation_id, m.correlation_id);
  ASSERT_EQ(sink.kernels.size(), 1U);
  EXPECT_EQ(sink.kernels[0].correlation_id, l.correlation_id);
  EXPECT_EQ(sink.kernels[0].tid, 4242);
  s.stop();
}

TEST_F(api_records, work_carrying_the_nested_driver_calls_id_joins_the_runtime_call) {
  cupti_session s{api, sink};
  start(s);
  const auto launch = api_record(runtime_kind, launch_cbid, 70, 5, 1000, 2000);
  const auto nested = api_record(driver_kind, driver_launch_cbid, 71, 5, 1100, 1900);
  const auto k = kernel_record(71);
  deliver(s, api, {&as_record(nested), &as_record(k)});
  EXPECT_TRUE(sink.kernels.empty());  // its call is not settled yet
  deliver(s, api, {&as_record(launch)});
  ASSERT_EQ(sink.api.size(), 1U);
  ASSERT_EQ(sink.kernels.size(), 1U);
  EXPECT_EQ(sink.kernels[0].correlation_id, sink.api[0].correlation_id);
  EXPECT_EQ(sink.kernels[0].tid, 5);
  s.stop();
}

TEST_F(api_records, nested_driver_calls_are_recorded_on_request) {
  cupti_session s{api, sink};
  start(s, /*nested=*/true);
  const auto launch = api_record(runtime_kind, launch_cbid, 60, 9, 1000, 2000);
  const auto nested = api_record(driver_kind, driver_launch_cbid, 61, 9, 1200, 1800);
  const auto k = kernel_record(60);
  deliver(s, api, {&as_record(nested), &as_record(launch), &as_record(k)});
  ASSERT_EQ(sink.api.size(), 2U);
  ASSERT_TRUE(has_api(1200));
  EXPECT_EQ(api_of(1200).domain, api_domain::driver);
  ASSERT_EQ(sink.kernels.size(), 1U);
  EXPECT_EQ(sink.kernels[0].correlation_id, api_of(1000).correlation_id);
  s.stop();
}

TEST_F(api_records, the_applications_own_driver_calls_are_recorded) {
  cupti_session s{api, sink};
  start(s);
  const auto own = api_record(driver_kind, driver_other_cbid, 80, 9, 100, 200);
  const auto later = api_record(runtime_kind, malloc_cbid, 81, 9, 300, 400);
  const auto alone = api_record(driver_kind, driver_other_cbid, 82, 10, 500, 600);
  deliver(s, api, {&as_record(own), &as_record(alone)});
  EXPECT_TRUE(sink.api.empty());  // held: a runtime call of their thread may contain them
  deliver(s, api, {&as_record(later)});
  ASSERT_EQ(sink.api.size(), 2U);
  EXPECT_TRUE(has_api(100));
  EXPECT_TRUE(has_api(300));
  s.flush();  // no runtime call ever settles thread 10's: the final flush does
  ASSERT_EQ(sink.api.size(), 3U);
  ASSERT_TRUE(has_api(500));
  EXPECT_EQ(api_of(500).tid, 10);
  s.stop();
}

TEST_F(api_records, api_tracing_alone_needs_no_gpu_work) {
  sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = false;
  sink.domains[static_cast<size_t>(cuda_domain::driver_api)] = false;
  cupti_session s{api, sink};
  start(s);
  EXPECT_TRUE(s.traces_api_from_records());
  EXPECT_FALSE(any_api_callback(api));
  const auto m = api_record(runtime_kind, malloc_cbid, 5, 3, 10, 20);
  deliver(s, api, {&as_record(m)});
  ASSERT_EQ(sink.api.size(), 1U);
  EXPECT_EQ(sink.api[0].tid, 3);
  s.stop();
}

// Whatever needs a callback on the traced calls keeps the callback path.
TEST_F(api_records, callbacks_stay_when_something_needs_them) {
  auto by_records = [&](auto&& setup, bool requested = true) {
    test::synthetic_cupti a;
    a.name_launch_calls();
    a.api_records_supported = true;
    test::recording_sink k;
    for (cuda_domain d : {cuda_domain::runtime_api, cuda_domain::kernel_dispatch})
      k.domains[static_cast<size_t>(d)] = true;
    setup(a, k);
    cupti_session s{a, k};
    s.trace_api_from_records(requested);
    EXPECT_EQ(s.start(), session_state::running);
    const bool records = s.traces_api_from_records();
    EXPECT_NE(records, has(a.enabled_callbacks, CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid));
    s.stop();
    return records;
  };
  const auto none = [](test::synthetic_cupti&, test::recording_sink&) {};
  EXPECT_TRUE(by_records(none));
  EXPECT_FALSE(by_records(none, /*requested=*/false));  // off by default
  EXPECT_FALSE(by_records([](auto&, test::recording_sink& k) { k.api_callbacks = true; }));
  EXPECT_FALSE(by_records([](auto&, test::recording_sink& k) { k.launch_time_ids = true; }));
  EXPECT_FALSE(
      by_records([](test::synthetic_cupti& a, auto&) { a.api_records_supported = false; }));
  setenv("ROCPROF_CUDA_LAUNCH_CALLBACKS", "1", 1);
  EXPECT_FALSE(by_records(none));
  unsetenv("ROCPROF_CUDA_LAUNCH_CALLBACKS");
}

TEST_F(api_records, the_environment_variable_turns_the_mode_on) {
  setenv("ROCPROF_CUDA_API_RECORDS", "1", 1);
  cupti_session s{api, sink};
  unsetenv("ROCPROF_CUDA_API_RECORDS");
  ASSERT_EQ(s.start(), session_state::running);
  EXPECT_TRUE(s.traces_api_from_records());
  s.stop();
  setenv("ROCPROF_CUDA_API_RECORDS", "0", 1);
  cupti_session off{api, sink};
  unsetenv("ROCPROF_CUDA_API_RECORDS");
  ASSERT_EQ(off.start(), session_state::running);
  EXPECT_FALSE(off.traces_api_from_records());
  off.stop();
}

// Arguments asked for (ROCPROF_CUDA_API_ARGS, rocprofv3 --cuda-api-args) win over records: a
// callback per call, none of the calls traced from records. ROCPROF_CUDA_API_ARGS=0 asks nothing.
TEST_F(api_records, arguments_ask_for_callbacks_over_records) {
  for (const char* value : {"1", "yes", "0"}) {
    test::synthetic_cupti a;
    a.name_launch_calls();
    a.api_records_supported = true;
    setenv("ROCPROF_CUDA_API_RECORDS", "1", 1);
    setenv("ROCPROF_CUDA_API_ARGS", value, 1);
    cupti_session s{a, sink};
    unsetenv("ROCPROF_CUDA_API_RECORDS");
    unsetenv("ROCPROF_CUDA_API_ARGS");
    ASSERT_EQ(s.start(), session_state::running);
    const bool args = std::string{value} != "0";
    EXPECT_EQ(s.traces_api_from_records(), !args) << value;
    EXPECT_EQ(has(a.enabled_callbacks, CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid), args) << value;
    EXPECT_EQ(has(a.api_records_enabled, CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid), !args) << value;
    s.stop();
  }
}

// A libcupti without per-API records (older CUPTI): records asked for (rocprofv3's default)
// fall back to callbacks, which see every traced call and launch.
TEST_F(api_records, records_fall_back_to_callbacks_without_api_records) {
  api.api_records_supported = false;
  cupti_session s{api, sink};
  start(s);
  EXPECT_FALSE(s.traces_api_from_records());
  EXPECT_FALSE(s.attributes_by_api_records());
  EXPECT_TRUE(has(api.enabled_callbacks, CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid));
  EXPECT_TRUE(has(api.enabled_callbacks, CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid));
  s.stop();
}

// A context that needs API callbacks later: the traced calls go back to callbacks, and their
// records no longer make API records (no call is recorded twice).
TEST_F(api_records, reconfigure_hands_the_calls_back_to_callbacks) {
  cupti_session s{api, sink};
  start(s);
  sink.api_callbacks = true;
  s.reconfigure();
  EXPECT_FALSE(s.traces_api_from_records());
  EXPECT_TRUE(has(api.enabled_callbacks, CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid));
  const auto m = api_record(runtime_kind, malloc_cbid, 5, 3, 10, 20);
  deliver(s, api, {&as_record(m)});
  EXPECT_TRUE(sink.api.empty());
  s.stop();
}

// The plugin's own driver calls (its agent query, on some thread, at some time) are not the
// application's: their records make no API record.
TEST(api_record_processor, the_backends_own_calls_make_no_record) {
  test::recording_sink sink;
  correlation_map ids{1024};
  activity_processor p{sink, ids};
  api_record_tracing t;
  t.runtime.set(malloc_cbid);
  t.driver.set(driver_other_cbid);
  p.set_api_record_tracing(t);
  p.own_calls(/*tid=*/5, 100, 200);
  const auto ours = api_record(driver_kind, driver_other_cbid, 1, 5, 120, 150);
  const auto other_thread = api_record(driver_kind, driver_other_cbid, 2, 6, 120, 150);
  const auto later = api_record(runtime_kind, malloc_cbid, 3, 5, 300, 400);
  for (const auto* r : {&ours, &other_thread, &later})
    p.process(as_record(*r));
  ASSERT_EQ(sink.api.size(), 2U);
  EXPECT_EQ(sink.api[0].tid, 6);
  EXPECT_EQ(sink.api[1].start_ns, 300U);
  EXPECT_TRUE(p.traces_api_records());
  EXPECT_EQ(p.held_driver_records(), 0U);  // nested driver calls are kept: none is held
}

}  // namespace
}  // namespace rocprof::cuda
