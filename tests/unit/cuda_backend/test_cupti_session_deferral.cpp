// The session's first-call hook: the core's tools start at the first API entry after cuInit
// (cupti_session::defer_until_first_call), never inside it, and tracing goes on from that call.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "cupti_session.hpp"
#include "recording_sink.hpp"
#include "synthetic_cupti.hpp"

namespace rocprof::cuda {
namespace {

constexpr uint32_t malloc_cbid = 20;  // any id: the synthetic wrapper names it
constexpr uint32_t launch_cbid = test::synthetic_cupti::launch_cbid;
constexpr uint32_t driver_other_cbid = test::synthetic_cupti::driver_other_cbid;

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

template <typename T>
const CUpti_Activity& as_record(const T& r) {
  return *static_cast<const CUpti_Activity*>(static_cast<const void*>(&r));
}

std::string enable_of(CUpti_ActivityKind kind, bool on = true) {
  return std::string{on ? "activity_enable:" : "activity_disable:"} +
         std::to_string(static_cast<int>(kind));
}

bool called(const test::synthetic_cupti& api, const std::string& call) {
  return api.index_of(call) < api.calls.size();
}

// A tool that, once started, traces kernels and the runtime calls (the buffered sample).
void start_kernel_tracing_tool(test::recording_sink& sink, cupti_session& s) {
  sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
  sink.domains[static_cast<size_t>(cuda_domain::runtime_api)] = true;
  s.reconfigure();
}

// A deferred session whose tool, started by the first call, traces kernels and runtime calls.
struct kernel_tool_session {
  test::synthetic_cupti api;
  test::recording_sink sink;
  cupti_session s{api, sink};
  explicit kernel_tool_session(deferral_plan plan = deferral_plan::from_env()) {
    api.name_launch_calls();
    s.defer_until_first_call([this] { start_kernel_tracing_tool(sink, s); }, plan);
  }
};

// One runtime call, ENTER and EXIT, with CUPTI's id `cupti_id`; `external` pushed meanwhile.
void call(cupti_session& s, uint32_t cbid, const char* name, uint32_t cupti_id,
          uint64_t external = 0) {
  test::recording_sink::thread_external = external;
  uint64_t slot = 0;
  CUpti_CallbackData cb = at(CUPTI_API_ENTER, cupti_id, &slot);
  cb.functionName = name;
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, cb);
  cb.callbackSite = CUPTI_API_EXIT;
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, cb);
  test::recording_sink::thread_external = 0;
}

// Kernel records with these CUPTI ids, as one completed buffer.
void deliver_kernels(test::synthetic_cupti& api, cupti_session& s,
                     const std::vector<uint32_t>& cupti_ids) {
  std::vector<CUpti_ActivityKernel10> kernels(cupti_ids.size());
  api.buffer_records.clear();
  api.next_index = 0;
  for (size_t i = 0; i < kernels.size(); ++i) {
    kernels[i].kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    kernels[i].name = "_Z1kv";
    kernels[i].correlationId = cupti_ids[i];
    api.buffer_records.push_back(&as_record(kernels[i]));
  }
  uint8_t dummy[8] = {};
  testing::internal::CaptureStderr();  // no driver here: the agent query says so once
  s.on_buffer_completed(nullptr, 0, dummy, sizeof(dummy));
  testing::internal::GetCapturedStderr();
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
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_EXIT, 3, &slot));
  // The catch-all callbacks were switched off again, at that call's exit (on, then off: two
  // entries per domain).
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_RUNTIME_API), 2U);
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_DRIVER_API), 2U);
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

// What the H100 showed under the deferred start: CUPTI handed every callback and every GPU record
// one correlation id. A kernel must then not take the ids (core id, thread, external id) of
// whichever call carried that id last: it is attributed to no launch (an id of its own).
TEST(cupti_session_deferral, one_cupti_id_for_every_call_gives_no_kernel_another_calls_ids) {
  kernel_tool_session t;
  auto& [api, sink, s] = t;
  ASSERT_EQ(s.start(), session_state::running);
  constexpr uint32_t stuck = 5;
  call(s, malloc_cbid, "cudaMalloc", stuck);  // the first call: the tool starts
  for (uint64_t ext : {1001, 1002, 1003})
    call(s, launch_cbid, "cudaLaunchKernel", stuck, ext);
  deliver_kernels(api, s, {stuck, stuck, stuck});
  std::set<uint64_t> launch_ids, api_ids;
  for (const api_event& e : sink.api) {
    api_ids.insert(e.correlation_id);
    if (std::string{e.name} == "cudaLaunchKernel") launch_ids.insert(e.correlation_id);
  }
  ASSERT_EQ(launch_ids.size(), 3U);
  ASSERT_EQ(sink.kernels.size(), 3U);
  std::set<uint64_t> kernel_ids;
  for (const kernel_event& k : sink.kernels) {
    EXPECT_EQ(api_ids.count(k.correlation_id), 0U) << "a kernel took an API call's id";
    EXPECT_EQ(k.external_id, 0U);
    EXPECT_EQ(k.tid, 0);
    kernel_ids.insert(k.correlation_id);
  }
  EXPECT_EQ(kernel_ids.size(), 3U);
  EXPECT_GE(s.correlation_counts().shared, 3U);
  s.stop();
}

// CUPTI id 0 names no call, on either side: nothing resolves through it.
TEST(cupti_session_deferral, cupti_id_zero_resolves_to_no_call) {
  kernel_tool_session t;
  auto& [api, sink, s] = t;
  ASSERT_EQ(s.start(), session_state::running);
  call(s, malloc_cbid, "cudaMalloc", 0);
  call(s, launch_cbid, "cudaLaunchKernel", 0, 77);
  deliver_kernels(api, s, {0});
  ASSERT_EQ(sink.kernels.size(), 1U);
  EXPECT_EQ(sink.kernels[0].correlation_id, 0U);
  EXPECT_EQ(sink.kernels[0].external_id, 0U);
  EXPECT_EQ(sink.kernels[0].tid, 0);
  EXPECT_EQ(s.correlation_counts().zero, 1U);
  EXPECT_EQ(s.correlation_counts().zero_callback_ids, 2U);
  s.stop();
}

// The default plan: the GPU kinds are enabled at start() (inside InitializeInjection, before
// any callback) and those the tool did not ask for disabled once it started; the catch-all
// callbacks stay on until the EXIT of the call that ran the hook, processing only what the tool
// asked for meanwhile; ids of distinct calls then resolve as usual.
TEST(cupti_session_deferral, kinds_enabled_at_start_narrowed_after_the_hook_catch_all_off_at_exit) {
  kernel_tool_session t{deferral_plan{}};
  auto& [api, sink, s] = t;
  ASSERT_EQ(s.start(), session_state::running);
  for (CUpti_ActivityKind kind :
       {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
        CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMORY2})
    EXPECT_TRUE(called(api, enable_of(kind))) << enable_of(kind);

  uint64_t slot = 0, other = 0;
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_ENTER, 1, &slot));  // the hook
  EXPECT_FALSE(called(api, enable_of(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, false)));
  for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2,
                                  CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMORY2})
    EXPECT_TRUE(called(api, enable_of(kind, false))) << enable_of(kind, false);
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_RUNTIME_API), 1U);  // still on
  // A driver call nested in it that the tool does not trace: not processed.
  CUpti_CallbackData nested = at(CUPTI_API_ENTER, 2, &other);
  nested.functionName = "cuCtxGetDevice";
  s.on_api(CUPTI_CB_DOMAIN_DRIVER_API, driver_other_cbid, nested);
  nested.callbackSite = CUPTI_API_EXIT;
  s.on_api(CUPTI_CB_DOMAIN_DRIVER_API, driver_other_cbid, nested);
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_RUNTIME_API), 1U);
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_EXIT, 1, &slot));
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_RUNTIME_API), 2U);  // off, at the exit
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_DRIVER_API), 2U);
  ASSERT_EQ(sink.api.size(), 1U);  // the malloc, not the driver call
  EXPECT_STREQ(sink.api[0].name, "cudaMalloc");

  call(s, launch_cbid, "cudaLaunchKernel", 3);
  call(s, launch_cbid, "cudaLaunchKernel", 4);
  deliver_kernels(api, s, {3, 4});
  ASSERT_EQ(sink.api.size(), 3U);
  ASSERT_EQ(sink.kernels.size(), 2U);
  EXPECT_EQ(sink.kernels[0].correlation_id, sink.api[1].correlation_id);
  EXPECT_EQ(sink.kernels[1].correlation_id, sink.api[2].correlation_id);
  s.stop();
}

// ROCPROF_CUDA_DEFERRED_ACTIVITY=hook and ROCPROF_CUDA_DEFERRED_DOMAINS_OFF=enter: the way of
// the first H100 runs (kinds enabled inside the hook, catch-all off at the hook call's ENTER).
TEST(cupti_session_deferral, the_first_way_enables_kinds_in_the_hook_and_catch_all_off_at_entry) {
  deferral_plan first_way;
  first_way.early_activities = false;
  first_way.domains_off = deferral_plan::off_at::enter;
  kernel_tool_session t{first_way};
  auto& [api, sink, s] = t;
  ASSERT_EQ(s.start(), session_state::running);
  EXPECT_FALSE(called(api, enable_of(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)));
  uint64_t slot = 0;
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_ENTER, 1, &slot));
  EXPECT_TRUE(called(api, enable_of(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)));
  EXPECT_FALSE(called(api, enable_of(CUPTI_ACTIVITY_KIND_MEMCPY)));
  EXPECT_EQ(count_of(api.enabled_domains, CUPTI_CB_DOMAIN_RUNTIME_API), 2U);
  s.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid, at(CUPTI_API_EXIT, 1, &slot));
  EXPECT_EQ(sink.api.size(), 1U);
  s.stop();
}

}  // namespace
}  // namespace rocprof::cuda
