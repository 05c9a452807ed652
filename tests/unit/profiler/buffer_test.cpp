// Buffers: watermark delivery, flush, LOSSLESS and DISCARD policies, drop counts, destroy.
#include <gtest/gtest.h>
#include <rocprofiler-sdk-roctx/roctx.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "test_tool.hpp"

namespace rocprof::test {
namespace {

// One marker record occupies 8 (entry size) + 24 (header) + the record, padded to 8 bytes.
constexpr size_t entry_bytes =
    8 + sizeof(rocprofiler_record_header_t) +
    ((sizeof(rocprofiler_buffer_tracing_marker_api_record_t) + 7) & ~size_t{7});
constexpr size_t block_bytes = 4096;  // the test buffers ask for 4096 bytes: one page

// Lanes are per thread: a fresh thread starts with an empty block, so counts are exact.
template <typename Fn>
void on_fresh_thread(Fn fn) {
  std::thread t(fn);
  t.join();
}

bool wait_for(collector& c, size_t records, std::chrono::milliseconds limit) {
  std::unique_lock<std::mutex> lock(c.mutex);
  return c.changed.wait_for(lock, limit, [&] { return c.markers.size() >= records; });
}

TEST(buffer, watermark_hands_over_a_block_without_flush) {
  collector& c = tool().watermark;
  reset(tool().watermark_buf, c);
  const size_t per_watermark = (2048 + entry_bytes - 1) / entry_bytes;  // records to reach 2048
  context_guard on(tool().watermark_ctx);
  std::mutex step_mutex;
  std::condition_variable step;
  int stage = 0;
  std::thread writer([&] {
    for (size_t i = 0; i + 1 < per_watermark; ++i)
      roctxMarkA("below");
    std::unique_lock<std::mutex> lock(step_mutex);
    stage = 1;
    step.notify_all();
    step.wait(lock, [&] { return stage == 2; });
    lock.unlock();
    roctxMarkA("reaches watermark");
    lock.lock();
    step.wait(lock, [&] { return stage == 3; });
    lock.unlock();
    roctxMarkA("tail-1");
    roctxMarkA("tail-2");
  });
  {
    std::unique_lock<std::mutex> lock(step_mutex);
    step.wait(lock, [&] { return stage == 1; });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(c.delivered_records(), 0u) << "delivered before the watermark";
  {
    std::lock_guard<std::mutex> lock(step_mutex);
    stage = 2;
    step.notify_all();
  }
  ASSERT_TRUE(wait_for(c, per_watermark, std::chrono::seconds(5)));
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    ASSERT_EQ(c.batch_sizes.size(), 1u);
    EXPECT_EQ(c.batch_sizes[0], per_watermark);
    EXPECT_EQ(c.drops, 0u);
  }
  // Below the watermark again: only a flush delivers.
  {
    std::lock_guard<std::mutex> lock(step_mutex);
    stage = 3;
    step.notify_all();
  }
  writer.join();
  ASSERT_EQ(rocprofiler_flush_buffer(tool().watermark_buf), ROCPROFILER_STATUS_SUCCESS);
  const auto recs = c.of_kind(ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API);
  ASSERT_EQ(recs.size(), per_watermark + 2);
  EXPECT_EQ(recs[per_watermark].message, "tail-1");
  EXPECT_EQ(recs[per_watermark + 1].message, "tail-2");
}

TEST(buffer, discard_drops_and_counts_when_every_block_is_busy) {
  collector& c = tool().discard;
  reset(tool().discard_buf, c);
  const size_t per_block = block_bytes / entry_bytes;
  constexpr size_t blocks = ROCPROFILER_BUFFER_BLOCKS_PER_LANE;
  const size_t total = (blocks + 1) * per_block + 5;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    c.gate_closed = true;  // the first delivery will hold its block
  }
  {
    context_guard on(tool().discard_ctx);
    on_fresh_thread([&] {
      for (size_t i = 0; i < total; ++i)
        roctxMarkA("d");
    });
  }
  {
    std::unique_lock<std::mutex> lock(c.mutex);
    ASSERT_TRUE(c.changed.wait_for(lock, std::chrono::seconds(5), [&] { return c.in_callback; }));
    c.gate_closed = false;
    c.changed.notify_all();
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().discard_buf), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(c.mutex);
  // The lane's blocks filled up while the first delivery was held; the rest was dropped.
  EXPECT_EQ(c.markers.size(), blocks * per_block);
  EXPECT_EQ(c.drops, total - blocks * per_block);
  EXPECT_EQ(c.markers.size() + c.drops, total);
}

TEST(buffer, lossless_single_thread_overflow_loses_nothing) {
  collector& c = tool().watermark;  // 4096-byte blocks: many hand-overs
  reset(tool().watermark_buf, c);
  constexpr size_t total = 5000;
  {
    context_guard on(tool().watermark_ctx);
    on_fresh_thread([&] {
      for (size_t i = 0; i < total; ++i)
        roctxMarkA("l");
    });
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().watermark_buf), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(c.mutex);
  EXPECT_EQ(c.markers.size(), total);
  EXPECT_EQ(c.drops, 0u);
  for (size_t i = 1; i < c.markers.size(); ++i)
    ASSERT_LT(c.markers[i - 1].record.correlation_id.internal,
              c.markers[i].record.correlation_id.internal)
        << "records of one thread arrive in order";
}

TEST(buffer, operation_filter_keeps_only_requested_operations) {
  collector& c = tool().filter;
  reset(tool().filter_buf, c);
  {
    context_guard on(tool().filter_ctx);
    roctxRangePushA("range");
    roctxMarkA("mark");
    roctxRangePop();
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().filter_buf), ROCPROFILER_STATUS_SUCCESS);
  const auto recs = c.of_kind(ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API);
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].message, "mark");
}

TEST(buffer, flush_of_unknown_buffer_fails) {
  EXPECT_EQ(rocprofiler_flush_buffer(rocprofiler_buffer_id_t{0}),
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(rocprofiler_flush_buffer(rocprofiler_buffer_id_t{999}),
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(rocprofiler_destroy_buffer(rocprofiler_buffer_id_t{999}),
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
}

TEST(buffer, configuration_is_locked_after_initialization) {
  rocprofiler_buffer_id_t b{};
  EXPECT_EQ(rocprofiler_create_buffer(
                tool().range_ctx, 4096, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                [](rocprofiler_context_id_t, rocprofiler_buffer_id_t, rocprofiler_record_header_t**,
                   size_t, void*, uint64_t) {},
                nullptr, &b),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(tool().range_ctx,
                                                         ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API,
                                                         nullptr, 0, tool().range_buf),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

}  // namespace
}  // namespace rocprof::test

namespace rocprof::test {
namespace {

TEST(buffer, forked_child_delivers_its_own_records) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer cannot start threads in a child of a multi-threaded fork";
#endif
  reset(tool().watermark_buf, tool().watermark);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    alarm(30);  // a hang in the child fails the test instead of blocking it
    collector& c = tool().watermark;
    c.clear();
    {
      context_guard on(tool().watermark_ctx);
      std::thread t([] {
        for (int i = 0; i < 3000; ++i)
          roctxMarkA("child");
      });
      t.join();
    }
    const bool flushed =
        rocprofiler_flush_buffer(tool().watermark_buf) == ROCPROFILER_STATUS_SUCCESS;
    std::lock_guard<std::mutex> lock(c.mutex);
    _exit(flushed && c.markers.size() == 3000 && c.drops == 0 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "child killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// The forking thread itself goes on recording in the child, while at the fork the parent's
// delivery thread was inside the callback with one of that thread's blocks and the others
// were full or active. The child must start with a clean lane (the parent's blocks would
// never be freed there, and a LOSSLESS writer would wait for them forever) and fresh locks.
TEST(buffer, forked_child_records_on_the_forking_thread_while_the_parent_delivered) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer cannot start threads in a child of a multi-threaded fork";
#endif
  collector& c = tool().watermark;  // 4096-byte blocks, watermark 2048 bytes
  reset(tool().watermark_buf, c);
  const size_t per_block = block_bytes / entry_bytes;
  constexpr size_t blocks = ROCPROFILER_BUFFER_BLOCKS_PER_LANE;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    c.gate_closed = true;  // the first delivery holds its block
  }
  context_guard on(tool().watermark_ctx);
  // Each block is handed over at the watermark (half a block) while another is free; the last
  // one then fills up: 2 blocks' worth fits without a LOSSLESS wait for the held delivery.
  static_assert(blocks >= 4, "the record count below assumes four blocks");
  for (size_t i = 0; i < 2 * per_block; ++i)
    roctxMarkA("parent");
  {
    std::unique_lock<std::mutex> lock(c.mutex);
    ASSERT_TRUE(c.changed.wait_for(lock, std::chrono::seconds(5), [&] { return c.in_callback; }));
  }
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    alarm(30);  // a hang in the child fails the test instead of blocking it
    {
      std::lock_guard<std::mutex> lock(c.mutex);
      c.gate_closed = false;
      c.markers.clear();
      c.drops = 0;
    }
    const size_t total = (blocks + 2) * per_block;  // more than the lane holds at once
    for (size_t i = 0; i < total; ++i)
      roctxMarkA("child");
    const bool flushed =
        rocprofiler_flush_buffer(tool().watermark_buf) == ROCPROFILER_STATUS_SUCCESS;
    std::lock_guard<std::mutex> lock(c.mutex);
    size_t from_child = 0;
    for (const marker_copy& m : c.markers)
      from_child += m.message == "child" ? 1 : 0;
    _exit(flushed && from_child == total && c.markers.size() == total && c.drops == 0 ? 0 : 1);
  }
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    c.gate_closed = false;
    c.changed.notify_all();
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "child killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  reset(tool().watermark_buf, c);
}

}  // namespace
}  // namespace rocprof::test
