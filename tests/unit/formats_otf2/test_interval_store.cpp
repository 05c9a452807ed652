// interval_store: sorted read-back with and without spilling gives the same sequence.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <vector>

#include "otf2/interval_store.hpp"
#include "rocprof/test_support/test_env.hpp"

namespace {

using rocprof::trace::otf2::interval;
using rocprof::trace::otf2::interval_before;
using rocprof::trace::otf2::interval_store;

std::vector<std::vector<interval>> random_intervals(size_t locations, size_t per_location) {
  std::mt19937_64 rng(7);
  std::vector<std::vector<interval>> out(locations);
  for (auto& v : out)
    for (size_t i = 0; i < per_location; ++i) {
      const uint64_t start = rng() % 1'000'000;
      v.push_back({start, start + rng() % 1000, static_cast<uint32_t>(i),
                   static_cast<uint32_t>(rng() % 5)});
    }
  return out;
}

void expect_sorted_permutation(interval_store& store, size_t location, std::vector<interval> want) {
  std::vector<interval> got;
  ASSERT_TRUE(store.drain_sorted(location, [&](const interval& iv) {
    got.push_back(iv);
    return true;
  })) << store.error();
  ASSERT_EQ(got.size(), want.size());
  EXPECT_TRUE(std::is_sorted(got.begin(), got.end(), interval_before));
  // Same multiset: compare after a total order on every field.
  const auto total = [](const interval& a, const interval& b) {
    return std::tie(a.start, a.end, a.region, a.category) <
           std::tie(b.start, b.end, b.region, b.category);
  };
  std::sort(got.begin(), got.end(), total);
  std::sort(want.begin(), want.end(), total);
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].start, want[i].start);
    EXPECT_EQ(got[i].end, want[i].end);
    EXPECT_EQ(got[i].region, want[i].region);
    EXPECT_EQ(got[i].category, want[i].category);
  }
}

TEST(IntervalStore, InMemoryOnly) {
  const auto data = random_intervals(3, 5000);
  interval_store store(size_t{1} << 30, rocprof::test_support::scratch_dir("in_memory"));
  for (size_t loc = 0; loc < data.size(); ++loc)
    for (const auto& iv : data[loc])
      store.add(loc, iv);
  EXPECT_EQ(store.spilled_runs(), 0u);
  for (size_t loc = 0; loc < data.size(); ++loc)
    expect_sorted_permutation(store, loc, data[loc]);
}

TEST(IntervalStore, SpillsAndMergesRuns) {
  const auto data = random_intervals(4, 20000);
  const std::filesystem::path dir = rocprof::test_support::scratch_dir("interval_store");
  // A budget of 1000 intervals: dozens of runs per location, each smaller than a read batch.
  interval_store store(1000 * sizeof(interval), dir.string());
  for (size_t i = 0; i < 20000; ++i)
    for (size_t loc = 0; loc < data.size(); ++loc)
      store.add(loc, data[loc][i]);
  EXPECT_GT(store.spilled_runs(), 50u);
  // The spill file is unlinked at once: nothing is left in the directory.
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  for (size_t loc = 0; loc < data.size(); ++loc)
    expect_sorted_permutation(store, loc, data[loc]);
  std::filesystem::remove_all(dir);
}

TEST(IntervalStore, LargeRunsAreReadInBatches) {
  const auto data = random_intervals(1, 30000);
  interval_store store(10000 * sizeof(interval), rocprof::test_support::scratch_dir("batches"));
  for (const auto& iv : data[0])
    store.add(0, iv);
  EXPECT_EQ(store.spilled_runs(), 3u);  // runs of 10000 intervals, read in batches of 1666
  expect_sorted_permutation(store, 0, data[0]);
}

}  // namespace

namespace {

TEST(IntervalStore, ReservedMemoryStaysWithinTheBudget) {
  // Locations that take turns growing (a mix that shifts over time): vectors that grow by
  // doubling used to hold up to twice the budget; reserved capacity now stays within it.
  const std::filesystem::path dir = rocprof::test_support::scratch_dir("interval_reserved");
  constexpr size_t budget = 50'000 * sizeof(interval);
  interval_store store(budget, dir.string());
  std::mt19937_64 rng(11);
  std::vector<std::vector<interval>> want(6);
  size_t peak = 0;
  for (size_t i = 0; i < 600'000; ++i) {
    // Phase p favours location p % 6: three quarters of its records go there.
    const size_t phase = i / 50'000;
    const size_t loc = rng() % 4 != 0 ? phase % 6 : rng() % 6;
    const uint64_t start = rng() % 1'000'000;
    const interval iv{start, start + rng() % 100, static_cast<uint32_t>(i), 0};
    store.add(loc, iv);
    want[loc].push_back(iv);
    peak = std::max(peak, store.reserved_bytes());
  }
  EXPECT_GT(store.spilled_runs(), 5u);
  EXPECT_LE(peak, budget + 1024 * sizeof(interval));
  for (size_t loc = 0; loc < want.size(); ++loc)
    expect_sorted_permutation(store, loc, want[loc]);
  EXPECT_EQ(store.reserved_bytes(), 0u);  // drained locations give their memory back
  std::filesystem::remove_all(dir);
}

}  // namespace
