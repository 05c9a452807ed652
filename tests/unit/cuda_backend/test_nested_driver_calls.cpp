// Driver calls made inside a runtime call (issue 15): not traced by default when runtime calls
// are, recorded with trace_nested_driver_calls / ROCPROF_CUDA_NESTED_DRIVER_API=1; the
// application's own driver calls are always traced; the kernels of a runtime launch join it
// whichever CUPTI id their record carries.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "cupti_session.hpp"
#include "recording_sink.hpp"
#include "synthetic_cupti.hpp"

namespace rocprof::cuda {
namespace {

constexpr uint32_t launch_cbid = test::synthetic_cupti::launch_cbid;
constexpr uint32_t driver_launch_cbid = test::synthetic_cupti::driver_launch_cbid;
constexpr uint32_t driver_other_cbid = test::synthetic_cupti::driver_other_cbid;

CUpti_CallbackData site(CUpti_ApiCallbackSite where, uint32_t cupti_id, const char* name,
                        uint64_t* slot) {
  CUpti_CallbackData cb{};
  cb.callbackSite = where;
  cb.functionName = name;
  cb.correlationId = cupti_id;
  cb.correlationData = slot;
  return cb;
}

struct fixture {
  test::synthetic_cupti api;
  test::recording_sink sink;
  cupti_session session{api, sink};

  // nested: record the nested driver calls or not; unset: as the environment says.
  explicit fixture(std::optional<bool> nested) {
    api.name_launch_calls();
    sink.enable_all();
    if (nested) session.trace_nested_driver_calls(*nested);
    EXPECT_EQ(session.start(), session_state::running);
  }
  ~fixture() { session.stop(); }

  void call(CUpti_CallbackDomain d, uint32_t cbid, uint32_t cupti_id, const char* name,
            void (*inside)(fixture&) = nullptr) {
    uint64_t slot = 0;
    session.on_api(d, cbid, site(CUPTI_API_ENTER, cupti_id, name, &slot));
    if (inside != nullptr) inside(*this);
    session.on_api(d, cbid, site(CUPTI_API_EXIT, cupti_id, name, &slot));
  }
  // cudaLaunchKernel (CUPTI id 60) calling cuCtxGetDevice (61) and cuLaunchKernel (62).
  void runtime_launch() {
    call(CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid, 60, "cudaLaunchKernel", [](fixture& f) {
      f.call(CUPTI_CB_DOMAIN_DRIVER_API, driver_other_cbid, 61, "cuCtxGetDevice");
      f.call(CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid, 62, "cuLaunchKernel");
    });
  }
  void deliver_kernels_of(std::initializer_list<uint32_t> cupti_ids) {
    std::vector<CUpti_ActivityKernel10> kernels(cupti_ids.size());
    size_t i = 0;
    for (uint32_t id : cupti_ids) {
      kernels[i].kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
      kernels[i].name = "_Z1kv";
      kernels[i].correlationId = id;
      api.buffer_records.push_back(
          static_cast<const CUpti_Activity*>(static_cast<const void*>(&kernels[i++])));
    }
    uint8_t dummy[8] = {};
    testing::internal::CaptureStderr();  // no driver here: the agent query says so once
    session.on_buffer_completed(nullptr, 0, dummy, sizeof(dummy));
    testing::internal::GetCapturedStderr();
    api.buffer_records.clear();
    api.next_index = 0;
  }
};

TEST(nested_driver_calls, are_not_traced_by_default_and_kernels_join_the_runtime_call) {
  fixture f{false};
  f.runtime_launch();
  ASSERT_EQ(f.sink.api.size(), 1U);
  ASSERT_EQ(f.sink.enters.size(), 1U);
  const api_event& runtime_call = f.sink.api[0];
  EXPECT_EQ(runtime_call.domain, api_domain::runtime);
  EXPECT_EQ(runtime_call.cbid, launch_cbid);
  // The kernel record may carry the runtime call's CUPTI id or its driver launch's.
  f.deliver_kernels_of({60, 62});
  ASSERT_EQ(f.sink.kernels.size(), 2U);
  for (const kernel_event& k : f.sink.kernels) {
    EXPECT_EQ(k.correlation_id, runtime_call.correlation_id);
    EXPECT_EQ(k.tid, runtime_call.tid);
  }
}

TEST(nested_driver_calls, the_applications_own_driver_calls_are_traced) {
  fixture f{false};
  f.call(CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid, 70, "cuLaunchKernel");
  f.runtime_launch();
  f.call(CUPTI_CB_DOMAIN_DRIVER_API, driver_other_cbid, 71, "cuCtxGetDevice");
  ASSERT_EQ(f.sink.api.size(), 3U);
  EXPECT_EQ(f.sink.api[0].domain, api_domain::driver);
  EXPECT_EQ(f.sink.api[1].domain, api_domain::runtime);
  EXPECT_EQ(f.sink.api[2].domain, api_domain::driver);
  EXPECT_EQ(f.sink.api[2].cbid, driver_other_cbid);
  f.deliver_kernels_of({70});
  ASSERT_EQ(f.sink.kernels.size(), 1U);
  EXPECT_EQ(f.sink.kernels[0].correlation_id, f.sink.api[0].correlation_id);
}

TEST(nested_driver_calls, are_recorded_on_request_inside_their_runtime_call) {
  fixture f{true};
  f.runtime_launch();
  ASSERT_EQ(f.sink.api.size(), 3U);
  EXPECT_EQ(f.sink.api[0].cbid, driver_other_cbid);
  EXPECT_EQ(f.sink.api[1].cbid, driver_launch_cbid);
  const api_event& runtime_call = f.sink.api[2];
  EXPECT_EQ(runtime_call.domain, api_domain::runtime);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(f.sink.api[i].domain, api_domain::driver);
    EXPECT_GE(f.sink.api[i].start_ns, runtime_call.start_ns);
    EXPECT_LE(f.sink.api[i].end_ns, runtime_call.end_ns);
  }
  f.deliver_kernels_of({60, 62});
  ASSERT_EQ(f.sink.kernels.size(), 2U);
  for (const kernel_event& k : f.sink.kernels)
    EXPECT_EQ(k.correlation_id, runtime_call.correlation_id);
}

TEST(nested_driver_calls, the_environment_variable_turns_them_on) {
  ::setenv("ROCPROF_CUDA_NESTED_DRIVER_API", "1", 1);
  fixture f{std::nullopt};  // the session reads the variable when it is made
  ::unsetenv("ROCPROF_CUDA_NESTED_DRIVER_API");
  f.runtime_launch();
  EXPECT_EQ(f.sink.api.size(), 3U);
}

}  // namespace
}  // namespace rocprof::cuda
