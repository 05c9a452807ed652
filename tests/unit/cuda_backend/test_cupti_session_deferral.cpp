// The session's first-call hook: the core's tools start at the first API entry after cuInit
// (cupti_session::defer_until_first_call), never inside it, and tracing goes on from that call.
#include <gtest/gtest.h>

#include <algorithm>

#include "cupti_session.hpp"
#include "recording_sink.hpp"
#include "synthetic_cupti.hpp"

namespace rocprof::cuda {
namespace {

constexpr uint32_t malloc_cbid = 20;  // any id: the synthetic wrapper names it

CUpti_CallbackData at(CUpti_ApiCallbackSite site, uint32_t cupti_id, uint64_t* slot) {
  CUpti_CallbackData cb{};
  cb.callbackSite = site;
  cb.functionName = "cudaMalloc";
  cb.correlationId = cupti_id;
  cb.correlationData = slot;
  return cb;
}

size_t count_of(const std::vector<CUpti_CallbackDomain>& v, CUpti_CallbackDomain d) {
  return static_cast<size_t>(std::count(v.begin(), v.end(), d));
}

TEST(cupti_session_deferral, tools_start_at_the_first_entry_after_cuinit_and_trace_from_it) {
  test::synthetic_cupti api;
  api.names[{CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid}] = "cudaMalloc_v3020";
  test::recording_sink sink;  // nothing asked for yet: the tools have not started
  cupti_session s{api, sink};
  int tool_starts = 0;
  s.defer_until_first_call([&] {
    ++tool_starts;  // as the core's tool initialisation does: ask, then reconfigure
    sink.domains[static_cast<size_t>(cuda_domain::runtime_api)] = true;
    s.reconfigure();
  });
  ASSERT_EQ(s.start(), session_state::running);
  // Until then every runtime and driver call calls back.
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_RUNTIME_API), 1U);
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_DRIVER_API), 1U);

  uint64_t slot = 0;
  // cuInit's own callbacks and the exit of the runtime call that made it start nothing.
  s.on_api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuInit,
           at(CUPTI_API_ENTER, 1, &slot));
  s.on_api(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuInit,
           at(CUPTI_API_EXIT, 1, &slot));
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_EXIT, 2, &slot));
  EXPECT_EQ(tool_starts, 0);
  EXPECT_TRUE(sink.api.empty());

  // The next call's entry starts the tools; it is traced since they asked for it.
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_ENTER, 3, &slot));
  EXPECT_EQ(tool_starts, 1);
  // The catch-all callbacks were switched off again (on, then off: two entries per domain).
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_RUNTIME_API), 2U);
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_DRIVER_API), 2U);
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_EXIT, 3, &slot));
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_ENTER, 4, &slot));
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_EXIT, 4, &slot));
  EXPECT_EQ(tool_starts, 1);
  ASSERT_EQ(sink.api.size(), 2U);
  EXPECT_STREQ(sink.api[0].name, "cudaMalloc");
  s.stop();
}

// On a GPU the first call after cuInit is a driver call nested in the runtime call that ran
// cuInit (its entry came before the injection): that runtime call's exit closes nothing.
TEST(cupti_session_deferral, the_exit_of_a_call_entered_before_the_start_is_ignored) {
  test::synthetic_cupti api;
  api.names[{CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid}] = "cudaMalloc_v3020";
  api.names[{CUPTI_CB_DOMAIN_DRIVER_API, malloc_cbid}] = "cuMemAlloc_v2";
  test::recording_sink sink;
  cupti_session s{api, sink};
  s.defer_until_first_call([&] {
    sink.domains[static_cast<size_t>(cuda_domain::runtime_api)] = true;
    sink.domains[static_cast<size_t>(cuda_domain::driver_api)] = true;
    s.reconfigure();
  });
  ASSERT_EQ(s.start(), session_state::running);
  uint64_t slot = 0;
  s.on_api(CUPTI_CB_DOMAIN_DRIVER_API, malloc_cbid, at(CUPTI_API_ENTER, 2, &slot));  // the hook
  s.on_api(CUPTI_CB_DOMAIN_DRIVER_API, malloc_cbid, at(CUPTI_API_EXIT, 2, &slot));
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_EXIT, 1, &slot));  // unseen entry
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_ENTER, 3, &slot));
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_EXIT, 3, &slot));
  ASSERT_EQ(sink.api.size(), 2U);  // the driver call and the later runtime call, nothing else
  EXPECT_NE(sink.api[0].correlation_id, sink.api[1].correlation_id);
  s.stop();
}

TEST(cupti_session_deferral, a_call_the_tools_do_not_trace_leaves_no_half_record) {
  test::synthetic_cupti api;
  api.names[{CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid}] = "cudaMalloc_v3020";
  test::recording_sink sink;
  cupti_session s{api, sink};
  int tool_starts = 0;
  s.defer_until_first_call([&] { ++tool_starts; });  // a tool tracing nothing of CUDA
  ASSERT_EQ(s.start(), session_state::running);
  uint64_t slot = 0;
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_ENTER, 1, &slot));
  EXPECT_EQ(tool_starts, 1);
  EXPECT_TRUE(sink.api.empty());
  s.stop();
}

}  // namespace
}  // namespace rocprof::cuda
