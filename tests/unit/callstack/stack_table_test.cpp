#include "stack_table.hpp"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

namespace rocprof::callstack {
namespace {

std::vector<uintptr_t> make_stack(uintptr_t seed, uint32_t depth) {
  std::vector<uintptr_t> frames;
  for (uint32_t i = 0; i < depth; ++i)
    frames.push_back(0x400000 + seed * 0x100 + i * 8);
  return frames;
}

TEST(StackTable, SameStackSameIdDifferentStackNewId) {
  stack_table table{16, 256};
  const auto a = make_stack(1, 5), b = make_stack(2, 5), a_prefix = make_stack(1, 4);
  const uint32_t ia = table.intern(a.data(), 5);
  EXPECT_NE(ia, 0u);
  EXPECT_EQ(table.intern(a.data(), 5), ia);
  const uint32_t ib = table.intern(b.data(), 5);
  EXPECT_NE(ib, 0u);
  EXPECT_NE(ib, ia);
  const uint32_t ip = table.intern(a_prefix.data(), 4);  // a prefix is another stack
  EXPECT_NE(ip, ia);
  const stack_view v = table.stack(ia);
  ASSERT_EQ(v.depth, 5u);
  EXPECT_EQ(std::vector<uintptr_t>(v.frames, v.frames + v.depth), a);
  EXPECT_EQ(table.published_ids().size(), 3u);
  EXPECT_EQ(table.dropped(), 0u);
}

TEST(StackTable, KeepsAtMostMaxFrames) {
  stack_table table{4, 256};
  const auto deep = make_stack(3, 40);
  const uint32_t id = table.intern(deep.data(), 40);
  EXPECT_EQ(table.stack(id).depth, max_frames);
}

TEST(StackTable, FullTableDropsAndCountsButStillFindsKnownStacks) {
  stack_table table{2, 64};
  const auto a = make_stack(1, 3), b = make_stack(2, 3), c = make_stack(3, 3);
  const uint32_t ia = table.intern(a.data(), 3);
  EXPECT_NE(table.intern(b.data(), 3), 0u);
  EXPECT_EQ(table.intern(c.data(), 3), 0u);
  EXPECT_EQ(table.dropped(), 1u);
  EXPECT_EQ(table.intern(a.data(), 3), ia);
  EXPECT_EQ(table.intern(nullptr, 0), 0u);  // empty stacks are dropped too
  EXPECT_EQ(table.dropped(), 2u);
}

TEST(StackTable, FrameArenaFullDrops) {
  stack_table table{8, 5};
  const auto a = make_stack(1, 4), b = make_stack(2, 4);
  EXPECT_NE(table.intern(a.data(), 4), 0u);
  EXPECT_EQ(table.intern(b.data(), 4), 0u);
  EXPECT_EQ(table.dropped(), 1u);
}

TEST(StackTable, ConcurrentInsertsAgreeOnIds) {
  constexpr uint32_t distinct = 200;
  constexpr int threads = 8;
  stack_table table{1024, 1024 * max_frames};
  std::vector<std::vector<uint32_t>> seen(threads, std::vector<uint32_t>(distinct));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round)
        for (uint32_t s = 0; s < distinct; ++s) {
          // Each thread walks the stacks in a different order so that first sights collide.
          const uint32_t k = (s * 7 + static_cast<uint32_t>(t) * 13 + round) % distinct;
          const auto frames = make_stack(k, 1 + k % 20);
          const uint32_t id = table.intern(frames.data(), static_cast<uint32_t>(frames.size()));
          if (round == 0)
            seen[t][k] = id;
          else
            ASSERT_EQ(seen[t][k], id);
        }
    });
  for (auto& w : workers)
    w.join();
  std::set<uint32_t> ids;
  for (uint32_t k = 0; k < distinct; ++k) {
    for (int t = 1; t < threads; ++t)
      ASSERT_EQ(seen[t][k], seen[0][k]) << "stack " << k;
    ASSERT_NE(seen[0][k], 0u);
    ids.insert(seen[0][k]);
    const stack_view v = table.stack(seen[0][k]);
    EXPECT_EQ(std::vector<uintptr_t>(v.frames, v.frames + v.depth), make_stack(k, 1 + k % 20));
  }
  EXPECT_EQ(ids.size(), distinct);
  EXPECT_EQ(table.published_ids().size(), distinct);
  EXPECT_EQ(table.dropped(), 0u);
}

TEST(LaunchLog, AppendsInOrderAndDropsWhenFull) {
  launch_log log{3};
  EXPECT_TRUE(log.append(10, 1));
  EXPECT_TRUE(log.append(11, 2));
  EXPECT_FALSE(log.append(12, 0));  // no stack: not recorded
  EXPECT_FALSE(log.append(13, 1));  // full (the failed append used a place)
  const auto entries = log.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].correlation_id, 10u);
  EXPECT_EQ(entries[1].stack_id, 2u);
  EXPECT_EQ(log.dropped(), 2u);
}

TEST(LaunchLog, ConcurrentAppendsAllKept) {
  launch_log log{1 << 16};
  std::vector<std::thread> workers;
  for (uint64_t t = 0; t < 4; ++t)
    workers.emplace_back([&, t] {
      for (uint64_t i = 0; i < 10000; ++i)
        log.append(t * 100000 + i, 1 + static_cast<uint32_t>(t));
    });
  for (auto& w : workers)
    w.join();
  const auto entries = log.entries();
  EXPECT_EQ(entries.size(), 40000u);
  std::set<uint64_t> ids;
  for (const auto& e : entries)
    ids.insert(e.correlation_id);
  EXPECT_EQ(ids.size(), 40000u);
}

}  // namespace
}  // namespace rocprof::callstack
