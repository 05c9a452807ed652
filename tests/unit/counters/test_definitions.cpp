// The definitions YAML: schema, positions in error messages, -E append/override/replace.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "rocprof/counters/definitions.hpp"

namespace rc = rocprof::counters;

namespace {

const char* const shipped_like = R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: GPUBusy
    description: 'The percentage of time GPU was busy.'
    properties: []
    definitions:
    - architectures: [sm_90, sm_80]
      expression: 100*reduce(GRBM_GUI_ACTIVE,max)/reduce(GRBM_COUNT,max)
    - architectures:
      - gfx942
      expression: 100*GRBM_GUI_ACTIVE/GRBM_COUNT
  - name: GRBM_COUNT
    description: Tie High - Count Number of Clocks
    properties: []
    definitions:
    - architectures: [gfx942]
      block: GRBM
      event: 0
)";

std::string all(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines)
    out += l + "\n";
  return out;
}

bool contains(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& l : lines)
    if (l.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(definitions, loads_rocprofv3_schema) {
  const auto loaded = rc::parse_definitions(shipped_like, "counter_defs.yaml");
  ASSERT_TRUE(loaded.ok()) << all(loaded.errors);
  EXPECT_TRUE(loaded.warnings.empty()) << all(loaded.warnings);
  const auto& set = loaded.definitions;
  ASSERT_EQ(set.counters().size(), 2u);
  const auto* busy = set.find("GPUBusy");
  ASSERT_NE(busy, nullptr);
  EXPECT_EQ(busy->description, "The percentage of time GPU was busy.");
  ASSERT_EQ(busy->definitions.size(), 2u);
  const auto* sm90 = busy->for_architecture("sm_90");
  ASSERT_NE(sm90, nullptr);
  EXPECT_EQ(sm90->expression, "100*reduce(GRBM_GUI_ACTIVE,max)/reduce(GRBM_COUNT,max)");
  ASSERT_NE(sm90->parsed, nullptr);
  EXPECT_EQ(sm90->expression_location.line, 9u);
  EXPECT_EQ(sm90->expression_location.column, 19u);
  EXPECT_EQ(busy->for_architecture("gfx942")->expression, "100*GRBM_GUI_ACTIVE/GRBM_COUNT");
  EXPECT_EQ(busy->for_architecture("sm_100"), nullptr);
  const auto* count = set.find("GRBM_COUNT");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->definitions[0].block, "GRBM");
  EXPECT_EQ(count->definitions[0].event, "0");
  EXPECT_EQ(count->definitions[0].parsed, nullptr);
}

TEST(definitions, schema_version) {
  auto v2 = rc::parse_definitions(
      "rocprofiler-sdk:\n  counters-schema-version: 2\n  counters: []\n", "v2.yaml");
  ASSERT_FALSE(v2.ok());
  EXPECT_TRUE(contains(v2.errors, "v2.yaml:2:28: unsupported counters-schema-version '2'"))
      << all(v2.errors);
  auto none = rc::parse_definitions("rocprofiler-sdk:\n  counters: []\n", "none.yaml");
  EXPECT_TRUE(none.ok()) << all(none.errors);
  EXPECT_TRUE(contains(none.warnings, "no 'counters-schema-version'"));
  EXPECT_FALSE(rc::parse_definitions("counters: []\n", "x.yaml").ok());
  EXPECT_FALSE(rc::parse_definitions("rocprofiler-sdk: 3\n", "x.yaml").ok());
  EXPECT_FALSE(rc::parse_definitions("- a\n- b\n", "x.yaml").ok());
  EXPECT_TRUE(rc::parse_definitions("rocprofiler-sdk:\n  counters:\n", "x.yaml").ok());
}

TEST(definitions, unknown_keys_warn_and_repeated_keys_fail) {
  const auto loaded = rc::parse_definitions(R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: A
    unit: percent
    definitions:
    - architectures: [sm_90]
      expression: 1
      expresion: 2
)",
                                            "keys.yaml");
  ASSERT_TRUE(loaded.ok()) << all(loaded.errors);
  EXPECT_TRUE(contains(loaded.warnings, "keys.yaml:5:5: unknown key 'unit' in a counter"))
      << all(loaded.warnings);
  EXPECT_TRUE(contains(loaded.warnings, "keys.yaml:9:7: unknown key 'expresion'"))
      << all(loaded.warnings);

  const auto repeated = rc::parse_definitions(R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: A
    name: B
    definitions:
    - architectures: [sm_90]
      expression: 1
)",
                                              "rep.yaml");
  ASSERT_FALSE(repeated.ok());
  EXPECT_TRUE(contains(repeated.errors, "rep.yaml:5:5: key 'name' repeated"))
      << all(repeated.errors);
}

TEST(definitions, duplicate_names_and_architectures) {
  const auto dup = rc::parse_definitions(R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: A
    definitions:
    - architectures: [sm_90]
      expression: 1
  - name: A
    definitions:
    - architectures: [sm_80]
      expression: 2
)",
                                         "dup.yaml");
  ASSERT_FALSE(dup.ok());
  EXPECT_TRUE(
      contains(dup.errors, "dup.yaml:8:11: counter 'A' defined twice (first at dup.yaml:4:5)"))
      << all(dup.errors);
  EXPECT_TRUE(dup.definitions.empty());

  const auto arch = rc::parse_definitions(R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: A
    definitions:
    - architectures: [sm_90, sm_80]
      expression: 1
    - architectures: [sm_90]
      expression: 2
)",
                                          "arch.yaml");
  ASSERT_FALSE(arch.ok());
  EXPECT_TRUE(contains(arch.errors, "arch.yaml:8:23: counter 'A': architecture sm_90 has two"))
      << all(arch.errors);
}

TEST(definitions, definition_shape_errors) {
  const auto bad = rc::parse_definitions(R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: NO_DEFS
  - name: BOTH
    definitions:
    - architectures: [sm_90]
      expression: 1
      block: SQ
      event: 4
  - name: NEITHER
    definitions:
    - architectures: [sm_90]
  - name: NO_ARCH
    definitions:
    - expression: 1
  - name: bad-name
    definitions:
    - architectures: [sm_90]
      expression: 1
  - 42
)",
                                         "shape.yaml");
  ASSERT_FALSE(bad.ok());
  const std::string text = all(bad.errors);
  EXPECT_NE(text.find("shape.yaml:4:5: counter 'NO_DEFS': 'definitions' must be a non-empty list"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("shape.yaml:7:7: counter 'BOTH': a definition has either"), std::string::npos)
      << text;
  EXPECT_NE(text.find("shape.yaml:13:7: counter 'NEITHER': a definition needs"), std::string::npos)
      << text;
  EXPECT_NE(text.find("shape.yaml:16:7: counter 'NO_ARCH': 'architectures' must be"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("shape.yaml:17:11: 'bad-name' is not a usable counter name"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("shape.yaml:21:5: a counter must be a mapping"), std::string::npos) << text;
}

TEST(definitions, expression_errors_name_file_line_column_counter_and_offset) {
  const auto bad = rc::parse_definitions(R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: MyCounter
    description: mine
    definitions:
    - architectures: [sm_90]
      expression: reduce(SQ_WAVES,summ)/2
  - name: Quoted
    definitions:
    - architectures: [sm_90]
      expression: "(a+b"
  - name: Folded
    definitions:
    - architectures: [sm_90]
      expression: >-
        a +
        b b
)",
                                         "extra.yaml");
  ASSERT_EQ(bad.errors.size(), 3u) << all(bad.errors);
  // Column 19 is where the expression starts; 'summ' is 16 characters further.
  EXPECT_EQ(bad.errors[0],
            "extra.yaml:8:35: counter 'MyCounter': expression error at offset 16: unknown reduce "
            "operation 'summ' (expected sum, avg, min or max)\n"
            "    reduce(SQ_WAVES,summ)/2\n"
            "                    ^");
  EXPECT_NE(bad.errors[1].find("extra.yaml:12:24: counter 'Quoted': expression error at offset 4"),
            std::string::npos)
      << bad.errors[1];
  // A folded scalar does not read as written: the position is the scalar's start.
  EXPECT_NE(bad.errors[2].find("extra.yaml:16:19: counter 'Folded': expression error at offset 6"),
            std::string::npos)
      << bad.errors[2];
}

TEST(definitions, yaml_syntax_errors_have_positions_and_nothing_throws) {
  const auto broken = rc::parse_definitions("rocprofiler-sdk:\n  counters: [a, b\n", "b.yaml");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.errors[0].rfind("b.yaml:", 0), 0u);
  EXPECT_NE(broken.errors[0].find("YAML error"), std::string::npos);
  const auto deep = rc::parse_definitions(std::string(100000, '[') + "\n", "deep.yaml");
  EXPECT_FALSE(deep.ok());
  EXPECT_FALSE(rc::parse_definitions("\x01\x02\xff", "bin.yaml").ok());
  EXPECT_FALSE(rc::load_definitions_file("/nonexistent/x.yaml").ok());
}

TEST(definitions, append_adds_and_overrides_per_architecture) {
  auto shipped = rc::parse_definitions(shipped_like, "counter_defs.yaml");
  ASSERT_TRUE(shipped.ok());
  const auto extra = rc::parse_definitions(R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: GPUBusy
    description: 'Mine'
    properties: []
    definitions:
    - architectures: [sm_90]
      expression: GRBM_GUI_ACTIVE
  - name: MY_COUNTER
    description: new
    properties: []
    definitions:
    - architectures: [sm_90]
      expression: 2*GPUBusy
)",
                                           "extra.yaml");
  ASSERT_TRUE(extra.ok()) << all(extra.errors);
  auto set = shipped.definitions;
  const auto notes = rc::merge_definitions(set, extra.definitions, rc::merge_mode::append);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "extra.yaml:8:7: counter 'GPUBusy' for sm_90 overrides the definition at "
            "counter_defs.yaml:8:7");
  const auto* busy = set.find("GPUBusy");
  ASSERT_NE(busy, nullptr);
  EXPECT_EQ(busy->description, "Mine");
  EXPECT_EQ(busy->for_architecture("sm_90")->expression, "GRBM_GUI_ACTIVE");
  EXPECT_EQ(busy->for_architecture("sm_80")->expression,
            "100*reduce(GRBM_GUI_ACTIVE,max)/reduce(GRBM_COUNT,max)");
  EXPECT_EQ(busy->for_architecture("gfx942")->expression, "100*GRBM_GUI_ACTIVE/GRBM_COUNT");
  ASSERT_NE(set.find("MY_COUNTER"), nullptr);
  ASSERT_NE(set.find("GRBM_COUNT"), nullptr);
  EXPECT_EQ(set.counters().size(), 3u);
}

TEST(definitions, replace_keeps_only_the_extra_definitions) {
  auto shipped = rc::parse_definitions(shipped_like, "counter_defs.yaml");
  const auto extra = rc::parse_definitions(
      "rocprofiler-sdk:\n  counters-schema-version: 1\n  counters:\n  - name: ONLY\n"
      "    definitions:\n    - architectures: [sm_90]\n      expression: 1\n",
      "only.yaml");
  ASSERT_TRUE(extra.ok()) << all(extra.errors);
  auto set = shipped.definitions;
  rc::merge_definitions(set, extra.definitions, rc::merge_mode::replace);
  EXPECT_EQ(set.counters().size(), 1u);
  EXPECT_NE(set.find("ONLY"), nullptr);
  EXPECT_EQ(set.find("GPUBusy"), nullptr);
}

TEST(definitions, shipped_file_is_found_under_the_install_prefix) {
  unsetenv("ROCPROFILER_METRICS_PATH");
  EXPECT_EQ(rc::shipped_definitions_path("/opt/x"),
            "/opt/x/share/rocprofiler-sdk/counter_defs.yaml");
  const std::string dir = std::string(ROCPROF_TEST_COUNTER_DEFS)
                              .substr(0, std::string(ROCPROF_TEST_COUNTER_DEFS).rfind('/'));
  setenv("ROCPROFILER_METRICS_PATH", dir.c_str(), 1);
  EXPECT_EQ(rc::shipped_definitions_path("/opt/x"), ROCPROF_TEST_COUNTER_DEFS);
  setenv("ROCPROFILER_METRICS_PATH", "/nonexistent", 1);
  EXPECT_EQ(rc::shipped_definitions_path("/opt/x"),
            "/opt/x/share/rocprofiler-sdk/counter_defs.yaml");
  unsetenv("ROCPROFILER_METRICS_PATH");
}

TEST(definitions, shipped_plus_extra_in_one_call) {
  const std::string extra =
      "rocprofiler-sdk:\n  counters-schema-version: 1\n  counters:\n  - name: GPUBusy\n"
      "    definitions:\n    - architectures: [sm_90]\n      expression: GRBM_GUI_ACTIVE\n"
      "  - name: MINE\n    definitions:\n    - architectures: [sm_90]\n      expression: "
      "2*SQ_WAVES\n";
  const auto merged =
      rc::load_with_extra_definitions(ROCPROF_TEST_COUNTER_DEFS, extra, "--extra-counters");
  ASSERT_TRUE(merged.ok()) << all(merged.errors);
  ASSERT_EQ(merged.warnings.size(), 1u);
  EXPECT_EQ(merged.warnings[0].rfind("--extra-counters:6:7: counter 'GPUBusy' for sm_90 overrides "
                                     "the definition at ",
                                     0),
            0u)
      << merged.warnings[0];
  EXPECT_EQ(merged.definitions.find("GPUBusy")->for_architecture("sm_90")->expression,
            "GRBM_GUI_ACTIVE");
  EXPECT_NE(merged.definitions.find("GPUBusy")->for_architecture("sm_80"), nullptr);
  EXPECT_NE(merged.definitions.find("MINE"), nullptr);
  EXPECT_NE(merged.definitions.find("SQ_WAVES"), nullptr);

  const auto replaced = rc::load_with_extra_definitions(ROCPROF_TEST_COUNTER_DEFS, extra, "x",
                                                        rc::merge_mode::replace);
  ASSERT_TRUE(replaced.ok());
  EXPECT_EQ(replaced.definitions.counters().size(), 2u);

  const auto broken = rc::load_with_extra_definitions(
      ROCPROF_TEST_COUNTER_DEFS, "rocprofiler-sdk:\n  counters: [", "bad.yaml");
  EXPECT_FALSE(broken.ok());
  EXPECT_TRUE(broken.definitions.empty());
}

TEST(definitions, mutated_files_never_throw) {
  // Fuzz-style: byte flips, deletions and insertions in a valid file give errors or a valid set,
  // never an exception or a crash.
  const std::string original = shipped_like;
  const std::string bytes = "-:[]{}'\"#&*!|>%@`, \n\tab_.()0";
  std::mt19937 rng(2024);
  for (int round = 0; round < 3000; ++round) {
    std::string text = original;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text[at] = bytes[rng() % bytes.size()];
          break;
        case 1:
          text.erase(at, 1 + rng() % 8);
          break;
        default:
          text.insert(at, 1, bytes[rng() % bytes.size()]);
          break;
      }
    }
    const auto loaded = rc::parse_definitions(text, "fuzz.yaml");
    if (!loaded.ok()) {
      EXPECT_TRUE(loaded.definitions.empty());
    }
    for (const auto& entry : loaded.definitions.counters())
      for (const auto& def : entry.definitions)
        EXPECT_TRUE(def.parsed != nullptr || !def.block.empty()) << text;
  }
}
