// 8 threads x 100000 push/pop pairs under LOSSLESS: every range arrives (exact count per
// thread) and memory stays bounded by the per-thread blocks.
#include <gtest/gtest.h>
#include <rocprofiler-sdk-roctx/roctx.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "test_tool.hpp"

namespace rocprof::test {
namespace {

#if defined(__SANITIZE_THREAD__)
constexpr uint64_t rss_bound_kib = 48u * 1024u;  // ThreadSanitizer shadows every block 4x
#else
constexpr uint64_t rss_bound_kib = 16u * 1024u;
#endif

uint64_t resident_kib() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmRSS:") {
      uint64_t kib = 0;
      in >> kib;
      return kib;
    }
    std::string rest;
    std::getline(in, rest);
  }
  return 0;
}

TEST(many_threads, lossless_8x100000_pairs_lose_nothing) {
  constexpr int threads = 8;
  constexpr int pairs = 100000;
  collector& c = tool().many;
  reset(tool().many_buf, c);
  std::vector<uint64_t> tids(threads, 0);
  const uint64_t rss_before = resident_kib();
  {
    context_guard on(tool().many_ctx);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([t, &tids] {
        tids[t] = os_tid();
        for (int i = 0; i < pairs; ++i) {
          roctxRangePushA("pair");
          roctxRangePop();
        }
      });
    for (auto& w : workers)
      w.join();
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().many_buf), ROCPROFILER_STATUS_SUCCESS);
  const uint64_t rss_after = resident_kib();
  std::lock_guard<std::mutex> lock(c.mutex);
  EXPECT_EQ(c.drops, 0u);
  EXPECT_EQ(c.total, static_cast<uint64_t>(threads) * pairs);
  for (uint64_t tid : tids)
    EXPECT_EQ(c.per_thread_ranges[tid], static_cast<uint64_t>(pairs));
  // 8 threads x 4 blocks x 64 KiB = 2 MiB of buffers (plus thread stacks); 77 MB of records
  // went through. Allow generous slack for the allocator and the test's own bookkeeping.
  EXPECT_LT(rss_after - std::min(rss_after, rss_before), rss_bound_kib)
      << "RSS grew from " << rss_before << " KiB to " << rss_after << " KiB";
}

}  // namespace
}  // namespace rocprof::test
