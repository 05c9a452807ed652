// The per-agent catalogue: what is offered and why not, lookups and ids, cycles, dimensions,
// required base counters and evaluation.
#include <gtest/gtest.h>

#include <map>

#include "rocprof/counters/catalogue.hpp"

namespace rc = rocprof::counters;

namespace {

const char* const definitions_text = R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: SUM_AB
    description: a plus b
    definitions:
    - architectures: [sm_90]
      expression: a+b
  - name: TWICE
    description: twice SUM_AB
    definitions:
    - architectures: [sm_90]
      expression: SUM_AB*2
  - name: CYCLE_1
    definitions:
    - architectures: [sm_90]
      expression: CYCLE_2+1
  - name: CYCLE_2
    definitions:
    - architectures: [sm_90]
      expression: CYCLE_1+1
  - name: SELF
    definitions:
    - architectures: [sm_90]
      expression: SELF+1
  - name: NEEDS_CYCLE
    definitions:
    - architectures: [sm_90]
      expression: CYCLE_1*a
  - name: MISSING_REF
    definitions:
    - architectures: [sm_90]
      expression: a+not_here
  - name: ON_MISSING
    definitions:
    - architectures: [sm_90]
      expression: MISSING_REF*2
  - name: OTHER_ARCH
    definitions:
    - architectures: [gfx942, gfx90a]
      expression: a
  - name: HARDWARE
    definitions:
    - architectures: [sm_90]
      block: SQ
      event: 4
  - name: a
    description: shadowed by the native counter
    definitions:
    - architectures: [sm_90]
      expression: b
  - name: VEC_TOTAL
    definitions:
    - architectures: [sm_90]
      expression: reduce(vec,sum)
  - name: VEC_TWICE
    definitions:
    - architectures: [sm_90]
      expression: vec*2
  - name: BAD_SHAPE
    definitions:
    - architectures: [sm_90]
      expression: vec+per_se
  - name: ACC_OK
    definitions:
    - architectures: [sm_90]
      expression: accumulate(level,HIGH_RES)/simd_count
  - name: ACC_BAD
    definitions:
    - architectures: [sm_90]
      expression: accumulate(a,HIGH_RES)
  - name: ACC_NONE
    definitions:
    - architectures: [sm_90]
      expression: accumulate(a,NONE)
  - name: CONSTY
    definitions:
    - architectures: [sm_90]
      expression: simd_count/4
)";

std::vector<rc::base_counter> fake_base() {
  std::vector<rc::base_counter> base;
  base.push_back({"a", "native a", "sm", {}, false, 0, false});
  base.push_back({"b", "native b", "sm", {}, false, 0, false});
  base.push_back({"vec", "per instance", "lts", {{"DIMENSION_INSTANCE", 4}}, false, 0, false});
  base.push_back({"per_se", "per SE", "gpc", {{"DIMENSION_SHADER_ENGINE", 2}}, false, 0, false});
  base.push_back({"level", "cumulative warps", "sm", {}, false, 0, true});
  base.push_back(rc::agent_constant("simd_count", 528, "SMSPs"));
  return base;
}

rc::definition_set fake_definitions() {
  auto loaded = rc::parse_definitions(definitions_text, "defs.yaml");
  EXPECT_TRUE(loaded.ok()) << (loaded.errors.empty() ? "" : loaded.errors[0]);
  return loaded.definitions;
}

struct catalogue_test : ::testing::Test {
  rc::counter_id_registry ids;
  rc::agent_catalogue cat{"sm_90", fake_base(), fake_definitions(), ids};
};

std::vector<std::string> names_of(const rc::agent_catalogue& cat) {
  std::vector<std::string> out;
  for (const auto& c : cat.counters())
    out.push_back(c.name);
  return out;
}

}  // namespace

TEST_F(catalogue_test, offers_base_then_available_derived_in_definition_order) {
  EXPECT_EQ(names_of(cat), (std::vector<std::string>{"a", "b", "vec", "per_se", "level",
                                                     "simd_count", "SUM_AB", "TWICE", "VEC_TOTAL",
                                                     "VEC_TWICE", "ACC_OK", "ACC_NONE", "CONSTY"}));
  const auto* twice = cat.find("TWICE");
  ASSERT_NE(twice, nullptr);
  EXPECT_TRUE(twice->is_derived);
  EXPECT_FALSE(twice->is_constant);
  EXPECT_EQ(twice->expression, "SUM_AB*2");
  EXPECT_EQ(twice->description, "twice SUM_AB");
  EXPECT_EQ(cat.find(twice->id), twice);
  const auto* a = cat.find("a");
  ASSERT_NE(a, nullptr);
  EXPECT_FALSE(a->is_derived);
  EXPECT_EQ(a->block, "sm");
  EXPECT_TRUE(cat.find("simd_count")->is_constant);
  EXPECT_TRUE(cat.find("CONSTY")->is_constant);
  EXPECT_EQ(cat.find("nope"), nullptr);
  EXPECT_EQ(cat.find(uint64_t{0}), nullptr);
  ASSERT_EQ(cat.notes().size(), 1u);
  EXPECT_NE(cat.notes()[0].find("the definition of 'a' is not used"), std::string::npos);
}

TEST_F(catalogue_test, says_why_a_counter_is_not_offered) {
  EXPECT_EQ(cat.why_unavailable("SUM_AB"), "");
  EXPECT_EQ(cat.why_unavailable("CYCLE_1"),
            "its definition is circular: CYCLE_1 -> CYCLE_2 -> CYCLE_1");
  EXPECT_EQ(cat.why_unavailable("CYCLE_2"),
            "its definition is circular: CYCLE_1 -> CYCLE_2 -> CYCLE_1");
  EXPECT_EQ(cat.why_unavailable("SELF"), "its definition is circular: SELF -> SELF");
  EXPECT_EQ(cat.why_unavailable("NEEDS_CYCLE").rfind("needs 'CYCLE_1', which is not available", 0),
            0u);
  EXPECT_EQ(cat.why_unavailable("MISSING_REF"),
            "needs 'not_here', which agent sm_90 does not provide");
  EXPECT_EQ(cat.why_unavailable("ON_MISSING"),
            "needs 'MISSING_REF', which is not available (needs 'not_here', which agent sm_90 "
            "does not provide)");
  EXPECT_EQ(cat.why_unavailable("OTHER_ARCH"), "it is defined for gfx942, gfx90a, not for sm_90");
  EXPECT_NE(cat.why_unavailable("HARDWARE").find("hardware counter (block SQ, event 4)"),
            std::string::npos);
  EXPECT_NE(cat.why_unavailable("ACC_BAD").find("accumulates every cycle"), std::string::npos);
  const std::string shape = cat.why_unavailable("BAD_SHAPE");
  EXPECT_NE(shape.find("defs.yaml:63:19: counter 'BAD_SHAPE': dimension mismatch: "
                       "[DIMENSION_INSTANCE=4] and [DIMENSION_SHADER_ENGINE=2]"),
            std::string::npos)
      << shape;
  EXPECT_EQ(cat.unavailable_message("SELF"),
            "counter 'SELF' is not available on agent sm_90: its definition is circular: SELF -> "
            "SELF");
}

TEST_F(catalogue_test, unknown_names_get_the_closest_names) {
  EXPECT_EQ(cat.unavailable_message("SUM_AC"),
            "unknown counter 'SUM_AC' on agent sm_90; closest names: SUM_AB");
  EXPECT_EQ(cat.closest_names("twice"), std::vector<std::string>{"TWICE"});
  EXPECT_EQ(cat.unavailable_message("completely_different_name"),
            "unknown counter 'completely_different_name' on agent sm_90 (no similar names)");
}

TEST_F(catalogue_test, dimensions_follow_the_expression) {
  EXPECT_EQ(cat.find("VEC_TWICE")->dimensions,
            (std::vector<rc::dimension>{{"DIMENSION_INSTANCE", 4}}));
  EXPECT_TRUE(cat.find("VEC_TOTAL")->dimensions.empty());
  EXPECT_TRUE(cat.find("TWICE")->dimensions.empty());
  EXPECT_EQ(cat.find("vec")->dimensions, (std::vector<rc::dimension>{{"DIMENSION_INSTANCE", 4}}));
}

TEST_F(catalogue_test, required_base_counters_for_pass_planning) {
  EXPECT_EQ(*cat.required_base_counters("TWICE"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*cat.required_base_counters("ACC_OK"), std::vector<std::string>{"level"});
  EXPECT_TRUE(cat.required_base_counters("CONSTY")->empty());
  EXPECT_TRUE(cat.required_base_counters("simd_count")->empty());
  EXPECT_EQ(*cat.required_base_counters(std::vector<std::string>{"VEC_TOTAL", "TWICE", "b"}),
            (std::vector<std::string>{"vec", "a", "b"}));
  const auto bad = cat.required_base_counters("SELF");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.failure().message.find("circular"), std::string::npos);
}

TEST_F(catalogue_test, evaluates_from_collected_base_values) {
  std::map<std::string, rc::counter_value, std::less<>> collected;
  collected["a"] = rc::counter_value::scalar(3);
  collected["b"] = rc::counter_value::scalar(4);
  collected["vec"] = *rc::counter_value::tensor({{"DIMENSION_INSTANCE", 4}}, {1, 2, 3, 4});
  collected["level"] = rc::counter_value::scalar(1056);
  const rc::base_value_lookup lookup = [&](std::string_view name) -> const rc::counter_value* {
    const auto it = collected.find(name);
    return it == collected.end() ? nullptr : &it->second;
  };
  EXPECT_DOUBLE_EQ(cat.evaluate("TWICE", lookup)->values()[0], 14);
  EXPECT_DOUBLE_EQ(cat.evaluate("a", lookup)->values()[0], 3);
  EXPECT_DOUBLE_EQ(cat.evaluate("CONSTY", lookup)->values()[0], 132);
  EXPECT_DOUBLE_EQ(cat.evaluate("ACC_OK", lookup)->values()[0], 2);
  EXPECT_EQ(cat.evaluate("VEC_TWICE", lookup)->values(), (std::vector<double>{2, 4, 6, 8}));
  EXPECT_DOUBLE_EQ(cat.evaluate("VEC_TOTAL", lookup)->values()[0], 10);
  const auto many = cat.evaluate(std::vector<std::string>{"SUM_AB", "TWICE", "CONSTY"}, lookup);
  ASSERT_TRUE(many.ok());
  EXPECT_DOUBLE_EQ((*many)[0].values()[0], 7);
  EXPECT_DOUBLE_EQ((*many)[1].values()[0], 14);

  collected.erase("b");
  const auto missing = cat.evaluate("TWICE", lookup);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.failure().message,
            "counter 'TWICE' (offset 0): counter 'SUM_AB' (offset 2): no value was collected for "
            "'b'");
  EXPECT_FALSE(cat.evaluate("SELF", lookup).ok());
}

TEST_F(catalogue_test, ids_are_per_name_and_repeatable) {
  // Same registry: another agent gets the same ids for the same names.
  rc::agent_catalogue other("sm_90", fake_base(), fake_definitions(), ids);
  for (const auto& c : cat.counters())
    EXPECT_EQ(other.find(c.name)->id, c.id) << c.name;
  // A fresh registry with the same inputs: the same ids again.
  rc::counter_id_registry fresh;
  rc::agent_catalogue again("sm_90", fake_base(), fake_definitions(), fresh);
  for (const auto& c : cat.counters())
    EXPECT_EQ(again.find(c.name)->id, c.id) << c.name;
  // Derived counters are numbered first, so native lists of any length leave them unchanged.
  EXPECT_EQ(cat.find("SUM_AB")->id, 1u);
  EXPECT_EQ(ids.name_of(cat.find("TWICE")->id), "TWICE");
  EXPECT_FALSE(ids.name_of(0).has_value());
  // An agent of another architecture offers none of these derived counters.
  rc::agent_catalogue gfx("gfx942", fake_base(), fake_definitions(), ids);
  EXPECT_NE(gfx.find("OTHER_ARCH"), nullptr);
  EXPECT_EQ(gfx.find("SUM_AB"), nullptr);
  EXPECT_EQ(gfx.why_unavailable("SUM_AB"), "it is defined for sm_90, not for gfx942");
}

TEST(catalogue, long_derivation_chains_are_bounded_in_any_order) {
  // 200 counters, each the previous plus one, written deepest first and last: the first 64
  // levels are offered whatever the order, the rest say why not, and nothing recurses deeply.
  for (const bool reversed : {false, true}) {
    std::string text = "rocprofiler-sdk:\n  counters-schema-version: 1\n  counters:\n";
    for (int k = 0; k < 200; ++k) {
      const int i = reversed ? 199 - k : k;
      text +=
          "  - name: C" + std::to_string(i) + "\n    definitions:\n    - architectures: [sm_90]\n" +
          "      expression: " + (i == 0 ? std::string("a") : "C" + std::to_string(i - 1)) + "+1\n";
    }
    auto loaded = rc::parse_definitions(text, "chain.yaml");
    ASSERT_TRUE(loaded.ok());
    rc::counter_id_registry ids;
    rc::agent_catalogue cat("sm_90", fake_base(), loaded.definitions, ids);
    EXPECT_NE(cat.find("C63"), nullptr) << reversed;
    EXPECT_EQ(cat.find("C64"), nullptr) << reversed;
    EXPECT_NE(cat.why_unavailable("C64").find("nested deeper than 64"), std::string::npos);
    EXPECT_EQ(cat.why_unavailable("C199"),
              "needs 'C198', which is not available (derived counters are nested deeper than 64 "
              "here)");
    const rc::base_value_lookup one = [](std::string_view) -> const rc::counter_value* {
      static const rc::counter_value v = rc::counter_value::scalar(1);
      return &v;
    };
    EXPECT_DOUBLE_EQ(cat.evaluate("C63", one)->values()[0], 65);
  }
}
