// Which dispatches get counters and which group (libtool/tool/dispatch_selection.hpp), as
// rocprofv3's tool decides: kernel filters on formatted names, per-kernel iteration numbers,
// pmc_groups alternating per agent.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "dispatch_selection.hpp"

using rocprof::config::parse_iteration_range;
using rocprof::tool::dispatch_selector;

namespace {

rocprof::config::iteration_range all() {
  return {};
}

}  // namespace

TEST(dispatch_selection, include_then_exclude_on_the_formatted_name) {
  // rocprofv3's kernel_filtering test: --kernel-include-regex ".*kernel" --kernel-exclude-regex
  // "multiply".
  dispatch_selector s(".*kernel", "multiply", all(), 1);
  s.name_kernel(1, "addition_kernel(float*, int)");
  s.name_kernel(2, "multiply_kernel(float*, int)");
  s.name_kernel(3, "transpose(float*)");
  EXPECT_TRUE(s.select(1, 10, 1));
  EXPECT_FALSE(s.select(2, 10, 1));
  EXPECT_FALSE(s.select(3, 10, 1));
  // A kernel whose symbol is unknown is kernel "0": ".*kernel" does not match "0".
  EXPECT_FALSE(s.select(99, 10, 1));
  dispatch_selector every(".*", "", all(), 1);
  EXPECT_TRUE(every.select(99, 10, 1));
}

TEST(dispatch_selection, iterations_are_counted_per_kernel) {
  dispatch_selector s("", "", parse_iteration_range("[2, [4-5]]"), 1);
  s.name_kernel(1, "a");
  s.name_kernel(2, "b");
  std::vector<bool> a, b;
  for (int i = 0; i < 6; ++i) {
    a.push_back(s.select(1, 10, 1).has_value());
    b.push_back(s.select(2, 10, 1).has_value());
  }
  const std::vector<bool> expected{false, true, false, true, true, false};
  EXPECT_EQ(a, expected);
  EXPECT_EQ(b, expected);
}

TEST(dispatch_selection, groups_alternate_per_agent_by_interval) {
  // rocprofv3's multiplex test: two groups, interval 1: group (Dispatch_Id - 1) % 2.
  dispatch_selector one("", "", all(), 1);
  std::vector<size_t> groups;
  for (int i = 0; i < 6; ++i)
    groups.push_back(*one.select(static_cast<uint64_t>(i % 3), 7, 2));
  EXPECT_EQ(groups, (std::vector<size_t>{0, 1, 0, 1, 0, 1}));

  dispatch_selector three("", "", all(), 3);
  groups.clear();
  for (int i = 0; i < 8; ++i)
    groups.push_back(*three.select(1, 7, 2));
  EXPECT_EQ(groups, (std::vector<size_t>{0, 0, 0, 1, 1, 1, 0, 0}));
  // Each agent has its own count.
  EXPECT_EQ(*three.select(1, 8, 2), 0u);
}

TEST(dispatch_selection, filtered_out_dispatches_do_not_advance_the_groups) {
  dispatch_selector s("keep", "", all(), 1);
  s.name_kernel(1, "keep_me");
  s.name_kernel(2, "drop_me");
  EXPECT_EQ(*s.select(1, 7, 2), 0u);
  EXPECT_FALSE(s.select(2, 7, 2));
  EXPECT_EQ(*s.select(1, 7, 2), 1u);
}

TEST(dispatch_selection, concurrent_launches_count_every_dispatch_once) {
  dispatch_selector s("", "", parse_iteration_range("[1-1000]"), 1);
  std::vector<std::thread> threads;
  std::vector<int> selected(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i)
        selected[static_cast<size_t>(t)] += s.select(5, 7, 1).has_value() ? 1 : 0;
    });
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(selected[0] + selected[1] + selected[2] + selected[3], 1000);
}
