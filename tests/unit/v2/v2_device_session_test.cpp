// A v2 device profiling session on the core's device counting service, without a GPU: the
// core's test backend (tests/unit/profiler/test_backend_sampler.cpp) plays the GPU's hardware
// sampler, and this program makes it deliver samples with known values, as a kernel would
// make the hardware count. Checks that poll reads what accumulated since start (0 before any
// sample, the samples' sum after), that a second session cannot count on the same GPU while the
// first runs, and the statuses of unknown counters and GPUs.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <rocprofiler/v2/rocprofiler.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

// The test backend's sample source: n samples, counter i of each reading value * (i + 1).
uint64_t deliver(uint32_t n, double value) {
  using fn = uint64_t (*)(uint32_t, double, uint64_t, uint32_t);
  const std::string path =
      std::string(ROCPROF_TEST_COUNTING_BACKEND_DIR) + "/librocprofiler-sdk-testbackend.so";
  void* backend = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  auto f = backend != nullptr ? reinterpret_cast<fn>(dlsym(backend, "test_backend_device_samples"))
                              : nullptr;
  return f != nullptr ? f(n, value, 1000000, 0) : 0;
}

double poll(rocprofiler_session_id_t session, const char* expected_name) {
  rocprofiler_device_profile_metric_t metric{};
  EXPECT_EQ(rocprofiler_device_profiling_session_poll(session, &metric),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(metric.metric_name, expected_name);
  return metric.value.value;
}

class environment : public ::testing::Environment {
 public:
  void SetUp() override {
    setenv("ROCPROF_BACKEND_DIR", ROCPROF_TEST_COUNTING_BACKEND_DIR, 1);
    setenv("ROCPROFILER_METRICS_PATH", ROCPROF_TEST_COUNTER_DEFS_DIR, 1);
    ASSERT_EQ(rocprofiler_initialize(), ROCPROFILER_STATUS_SUCCESS);
  }
  void TearDown() override { rocprofiler_finalize(); }
};
const auto* g_env = ::testing::AddGlobalTestEnvironment(new environment());

TEST(v2_device_session, poll_reads_what_accumulated_since_start) {
  const char* counters[] = {"SQ_WAVES"};
  rocprofiler_session_id_t session{};
  ASSERT_EQ(rocprofiler_device_profiling_session_create(counters, 1, &session, 0, 0),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_device_profiling_session_poll(session, nullptr),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS);
  rocprofiler_device_profile_metric_t metric{};
  EXPECT_EQ(rocprofiler_device_profiling_session_poll(session, &metric),
            ROCPROFILER_STATUS_ERROR_SESSION_NOT_ACTIVE);
  ASSERT_EQ(rocprofiler_device_profiling_session_start(session), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(poll(session, "SQ_WAVES"), 0.0);  // idle
  ASSERT_EQ(deliver(3, 32.0), 1u);            // the "kernel": one sampler running
  const double busy = poll(session, "SQ_WAVES");
  EXPECT_EQ(busy, 96.0);
  ASSERT_EQ(deliver(2, 8.0), 1u);
  EXPECT_EQ(poll(session, "SQ_WAVES"), 112.0);  // still since start
  EXPECT_EQ(poll(session, "SQ_WAVES"), 112.0);  // idle again: no rise
  EXPECT_EQ(rocprofiler_device_profiling_session_stop(session), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(deliver(1, 8.0), 0u);  // stopped: nothing samples
  // Started again: counts from zero.
  ASSERT_EQ(rocprofiler_device_profiling_session_start(session), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(poll(session, "SQ_WAVES"), 0.0);
  EXPECT_EQ(rocprofiler_device_profiling_session_destroy(session), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(deliver(1, 8.0), 0u);  // destroyed while started: stopped
}

TEST(v2_device_session, one_session_counts_on_a_gpu_at_a_time) {
  const char* counters[] = {"SQ_WAVES"};
  rocprofiler_session_id_t first{}, second{};
  ASSERT_EQ(rocprofiler_device_profiling_session_create(counters, 1, &first, 0, 0),
            ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_device_profiling_session_create(counters, 1, &second, 0, 0),
            ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_device_profiling_session_start(first), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_device_profiling_session_start(second), ROCPROFILER_STATUS_ERROR);
  EXPECT_EQ(rocprofiler_device_profiling_session_stop(first), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_device_profiling_session_start(second), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_device_profiling_session_destroy(second), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_device_profiling_session_destroy(first), ROCPROFILER_STATUS_SUCCESS);
}

TEST(v2_device_session, unknown_counters_and_gpus) {
  const char* unknown[] = {"NO_SUCH_COUNTER"};
  const char* waves[] = {"SQ_WAVES"};
  rocprofiler_session_id_t session{};
  EXPECT_EQ(rocprofiler_device_profiling_session_create(unknown, 1, &session, 0, 0),
            ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND);
  EXPECT_EQ(rocprofiler_device_profiling_session_create(waves, 1, &session, 0, 7),
            ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
}

}  // namespace
