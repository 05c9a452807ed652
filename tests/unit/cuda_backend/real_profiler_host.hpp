// The toolkit's real libcupti profiler host API, for tests that need no GPU. These tests are
// built only with the CUDA toolkit, whose libcupti (with libnvperf_host beside it) is then on
// the machine, so a missing one is a failure, never a skip. The one exception is a sanitizer
// build: libcupti opens libnvperf_host with RTLD_DEEPBIND, which the sanitizer runtimes refuse
// (they abort the process), so there the fixture skips, saying so.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "metrics/metric_catalogue.hpp"
#include "metrics/profiler_host_loader.hpp"

namespace rocprof::cuda::test {

// Loaded once per process (libcupti is never closed).
inline profiler_host_api* real_profiler_host(std::string* why = nullptr) {
  static const profiler_host_library* host = [] {
    static const cupti_library lib = load_cupti([](const char* name) { return std::getenv(name); });
    return new profiler_host_library{open_profiler_host(lib)};
  }();
  if (why != nullptr) *why = host->error;
  return host->api.get();
}

// These ASSERT inside: call them through ASSERT_NO_FATAL_FAILURE.
inline void require_real_profiler_host(profiler_host_api*& out) {
  std::string why;
  out = real_profiler_host(&why);
  ASSERT_NE(out, nullptr) << "the CUDA toolkit is present but its profiler host API is not: "
                          << why;
}

inline void open_real_catalogue(const std::string& chip, CUpti_ProfilerType type,
                                std::unique_ptr<metric_catalogue>& out) {
  profiler_host_api* api = nullptr;
  ASSERT_NO_FATAL_FAILURE(require_real_profiler_host(api));
  host_target target;
  target.chip = chip;
  target.type = type;
  const host_status st = metric_catalogue::open(*api, target, out);
  ASSERT_TRUE(st.ok()) << st.message;
  ASSERT_NE(out, nullptr);
}

// Fixture of every test that calls the real host API: `api` is ready in the test body.
class real_profiler_host_test : public ::testing::Test {
 protected:
  void SetUp() override {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "sanitizer build: libcupti loads libnvperf_host with RTLD_DEEPBIND, which "
                    "the sanitizer runtime refuses";
#else
    ASSERT_NO_FATAL_FAILURE(require_real_profiler_host(api));
#endif
  }
  profiler_host_api* api = nullptr;
};

}  // namespace rocprof::cuda::test
