// Pass planning with a fake pass counter ("at most 3 base counters per pass"), as the CUDA
// backend's cuptiProfilerHostGetNumOfPasses will answer for real.
#include <gtest/gtest.h>

#include "rocprof/counters/pass_plan.hpp"

namespace rc = rocprof::counters;

namespace {

const char* const definitions_text = R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: AB
    definitions:
    - architectures: [sm_90]
      expression: a+b
  - name: CD
    definitions:
    - architectures: [sm_90]
      expression: c*d
  - name: ABC
    definitions:
    - architectures: [sm_90]
      expression: AB+c
  - name: WIDE
    definitions:
    - architectures: [sm_90]
      expression: a+b+c+d+e
  - name: NUM
    definitions:
    - architectures: [sm_90]
      expression: simd_count/4
)";

rc::agent_catalogue make_catalogue(rc::counter_id_registry& ids) {
  std::vector<rc::base_counter> base;
  for (const char* n : {"a", "b", "c", "d", "e", "f"})
    base.push_back({n, "", "sm", {}, false, 0, false});
  base.push_back(rc::agent_constant("simd_count", 528, ""));
  auto loaded = rc::parse_definitions(definitions_text, "plan.yaml");
  EXPECT_TRUE(loaded.ok());
  return rc::agent_catalogue("sm_90", std::move(base), loaded.definitions, ids);
}

// The fake backend: three base counters fit one pass; it counts its calls.
struct fake_backend {
  size_t calls = 0;
  rc::pass_counter counter() {
    return [this](const std::vector<std::string>& names) {
      ++calls;
      return (names.size() + 2) / 3;
    };
  }
};

struct pass_plan_test : ::testing::Test {
  rc::counter_id_registry ids;
  const rc::agent_catalogue cat = make_catalogue(ids);
  fake_backend backend;
};

}  // namespace

TEST_F(pass_plan_test, one_pass_group) {
  const auto plan = rc::plan_passes(cat, {"AB", "c", "AB", "NUM"}, backend.counter());
  ASSERT_TRUE(plan.ok()) << plan.failure().message;
  EXPECT_EQ(plan->requested, (std::vector<std::string>{"AB", "c", "NUM"}));
  EXPECT_EQ(plan->base_counters, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(plan->passes, 1u);
  EXPECT_TRUE(plan->fits_one_pass());
  EXPECT_TRUE(plan->one_pass_groups.empty());
  EXPECT_EQ(plan->error_text("sm_90"), "");
  EXPECT_EQ(backend.calls, 1u);
}

TEST_F(pass_plan_test, constants_need_no_pass) {
  const auto plan = rc::plan_passes(cat, {"NUM", "simd_count"}, backend.counter());
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->base_counters.empty());
  EXPECT_EQ(plan->passes, 0u);
  EXPECT_TRUE(plan->fits_one_pass());
  EXPECT_EQ(backend.calls, 0u);
}

TEST_F(pass_plan_test, a_group_that_does_not_fit_is_split_into_groups_that_do) {
  const auto plan = rc::plan_passes(cat, {"AB", "CD", "e", "ABC", "f"}, backend.counter());
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->base_counters, (std::vector<std::string>{"a", "b", "c", "d", "e", "f"}));
  EXPECT_EQ(plan->passes, 2u);
  EXPECT_FALSE(plan->fits_one_pass());
  // Largest first, into the group each grows least: ABC (a b c) takes AB for free; CD (c d)
  // takes e; f fits neither. Counters overlap, so three one-pass runs where replay needs two.
  EXPECT_EQ(plan->one_pass_groups,
            (std::vector<std::vector<std::string>>{{"AB", "ABC"}, {"CD", "e"}, {"f"}}));
  for (const auto& group : plan->one_pass_groups) {
    const auto bases = cat.required_base_counters(group);
    ASSERT_TRUE(bases.ok());
    EXPECT_LE(bases->size(), 3u);
  }
  EXPECT_EQ(
      plan->error_text("sm_90"),
      "the counters AB, CD, e, ABC, f need 2 hardware passes on sm_90 (base counters: a, b, "
      "c, d, e, f), and one run collects one pass unless --replay-mode is given. A split "
      "that fits one pass each: --pmc AB ABC --pmc CD e --pmc f (or add --replay-mode kernel).");
}

TEST_F(pass_plan_test, a_counter_that_alone_needs_several_passes_needs_replay) {
  const auto plan = rc::plan_passes(cat, {"WIDE", "f"}, backend.counter());
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->passes, 2u);
  EXPECT_EQ(plan->multi_pass_counters, std::vector<std::string>{"WIDE"});
  EXPECT_TRUE(plan->one_pass_groups.empty());
  EXPECT_NE(plan->error_text("sm_90").find("WIDE needs several passes even alone: collect it with "
                                           "--replay-mode kernel or --replay-mode application."),
            std::string::npos)
      << plan->error_text("sm_90");
}

TEST_F(pass_plan_test, unknown_counters_and_backend_refusals_are_errors) {
  const auto unknown = rc::plan_passes(cat, {"AB", "CE"}, backend.counter());
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.failure().message.find("unknown counter 'CE' on agent sm_90; closest names: "),
            std::string::npos)
      << unknown.failure().message;
  const auto refused =
      rc::plan_passes(cat, {"AB"}, [](const std::vector<std::string>&) { return size_t{0}; });
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.failure().message.find("cannot configure"), std::string::npos);
}
