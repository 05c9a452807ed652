// The collection periods log: rocprofv3's section format, complete and cut-short repetitions.
#include "collection_period_log.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace rocprof::tool {
namespace {

TEST(collection_period_log, sections_hold_delay_start_duration_stop) {
  period_window w;
  w.delay_begin = 10;
  w.delay_end = 20;
  w.start_begin = 21;
  w.start_end = 22;
  w.stop_begin = 40;
  w.stop_end = 41;
  EXPECT_EQ(format_period_log({w, w}),
            "delay:10:20\nstart:21:22\nduration:22:40\nstop:40:41\n--\n"
            "delay:10:20\nstart:21:22\nduration:22:40\nstop:40:41\n--\n");
}

TEST(collection_period_log, a_repetition_cut_short_keeps_what_happened) {
  period_window started;  // the process ended while collecting
  started.delay_begin = 1;
  started.delay_end = 2;
  started.start_begin = 3;
  started.start_end = 4;
  period_window waiting;  // the process ended during the delay
  waiting.delay_begin = 5;
  waiting.delay_end = 6;
  EXPECT_EQ(format_period_log({started, waiting}), "delay:1:2\nstart:3:4\n--\ndelay:5:6\n--\n");
  EXPECT_EQ(format_period_log({}), "");
}

TEST(collection_period_log, record_completes_a_repetition_in_place) {
  period_log log;
  period_window w;
  w.delay_end = 2;
  w.start_end = 3;
  log.record(0, w);
  w.stop_end = 9;
  log.record(0, w);  // the same repetition, now stopped
  log.record(1, period_window{});
  const auto windows = log.windows();
  ASSERT_EQ(windows.size(), 2u);
  EXPECT_EQ(windows[0].stop_end, 9u);
  EXPECT_EQ(windows[1].delay_end, 0u);
}

TEST(collection_period_log, concurrent_readers_see_whole_repetitions) {
  period_log log;
  std::thread writer([&log] {
    for (size_t i = 0; i < 1000; ++i) {
      period_window w;
      w.delay_begin = w.delay_end = i + 1;
      log.record(i, w);
    }
  });
  for (int i = 0; i < 100; ++i)
    for (const period_window& w : log.windows())
      EXPECT_EQ(w.delay_begin, w.delay_end);
  writer.join();
  EXPECT_EQ(log.windows().size(), 1000u);
}

}  // namespace
}  // namespace rocprof::tool
