// What the counted-launch tests set up alike: the plugin's counter sets on a synthetic profiler
// host with one sm_90 agent (agent 0: the processor knows no device in these tests) and one set
// of `metrics`, and a started cupti_session whose range profiler APIs are the synthetic ones.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "counters/counter_sets.hpp"
#include "cupti_session.hpp"

namespace rocprof::cuda::test {

// The counter set's handle in `set`; a gtest failure when it cannot be made.
inline void create_counter_set(profiler_host_api& host, const std::vector<std::string>& metrics,
                               uint64_t& set) {
  counter_sets& sets = plugin_counter_sets();
  sets.configure(&host, [](int) { return std::string(); });
  gpu_agent device;
  device.compute_major = 9;
  device.sm_count = 132;
  sets.add_agent(0, device);
  uint64_t passes = 0;
  std::string why;
  ASSERT_EQ(sets.create(0, metrics, set, passes, why), ROCPROFILER_STATUS_SUCCESS) << why;
}

// `mode`: ROCPROF_CUDA_COUNTER_MODE for the session (read when it is made). The tests written
// before batched collection check values right after each launch: they use "kernel".
inline std::unique_ptr<cupti_session> start_counting_session(cupti_api& api, backend_sink& sink,
                                                             range_profiler_api& target,
                                                             profiler_host_api& host,
                                                             const char* mode = "kernel") {
  ::setenv("ROCPROF_CUDA_COUNTER_MODE", mode, 1);
  auto session = std::make_unique<cupti_session>(api, sink);
  ::unsetenv("ROCPROF_CUDA_COUNTER_MODE");
  session->set_counter_api_provider(
      [&target, &host](range_profiler_api*& t, profiler_host_api*& h) {
        t = &target;
        h = &host;
      });
  EXPECT_EQ(session->start(), session_state::running);
  return session;
}

}  // namespace rocprof::cuda::test
