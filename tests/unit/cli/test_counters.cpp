// The CLI's counter checks before launch (counter_check.hpp) with a fake backend: unknown names
// and their closest names, counters of other architectures, -E errors with file and position,
// groups that need several passes (the error and its split), --replay-mode kernel and
// application, pmc_groups, :device=N, and the listing parser of the CUDA plugin's JSON.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "command_line.hpp"
#include "counter_check.hpp"
#include "counter_listing.hpp"
#include "native_counters.hpp"
#include "passes.hpp"
#include "rocprof/test_support/test_env.hpp"

namespace {

using namespace rocprof::cli;
using rocprof::test_support::temp_dir;

// A chip with four base metrics a__x, b__y, c__z, d__w (roll-ups .sum and .avg); a pass holds
// two distinct base metrics.
class fake_backend final : public counter_backend {
 public:
  native_listing list(const std::string& chip) override {
    ++lists;
    native_listing out;
    if (chip != "GH100" && chip != "sm_90") {
      out.error = "unknown chip " + chip;
      return out;
    }
    out.chip = "GH100";
    out.architecture = "sm_90";
    out.suffix_sets = {{".sum", ".avg"}};
    for (const char* name : {"a__x", "b__y", "c__z", "d__w"})
      out.counters.push_back({name, "counter", std::string("# of ") + name, "sm", "event", 0});
    out.index();
    return out;
  }
  size_t count_passes(const std::string&, const std::vector<std::string>& names,
                      std::string& why) override {
    std::set<std::string> bases;
    for (const auto& n : names)
      bases.insert(n.substr(0, n.find('.')));
    if (bases.count("d__w") && bases.size() > 1) {
      why = "d__w cannot share a config";
      return 0;
    }
    return (bases.size() + 1) / 2;
  }
  int lists = 0;
};

constexpr const char* definitions = R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: WAVES
    description: 'warps (a__x.sum)'
    properties: []
    definitions:
    - architectures: [sm_90]
      expression: a__x.sum
  - name: BOTH
    description: 'a and b'
    properties: []
    definitions:
    - architectures: [sm_90]
      expression: a__x.sum + b__y.sum
  - name: OLD_ONLY
    description: 'sm_80 only'
    properties: []
    definitions:
    - architectures: [sm_80]
      expression: a__x.sum
)";

class counter_check_test : public ::testing::Test {
 protected:
  counter_check_test() {
    setup_.listings = &listings_;
    setup_.shipped_definitions = dir_.write("counter_defs.yaml", definitions);
    setup_.targets.push_back(named_chip_target("GH100"));
  }

  counter_check_result check(const std::vector<std::string>& args) {
    return check_pass_counters(build_passes(parse_command_line(args)), setup_);
  }

  std::string error_of(const std::vector<std::string>& args) {
    try {
      check(args);
    } catch (const usage_error& e) {
      return e.what();
    }
    return "";
  }

  temp_dir dir_;
  fake_backend backend_;
  native_listings listings_{backend_};
  counter_check_setup setup_;
};

TEST_F(counter_check_test, native_and_derived_names_that_fit_one_pass) {
  const auto result = check({"--pmc", "WAVES", "b__y.sum,a__x.avg"});
  ASSERT_EQ(result.passes.size(), 1u);
  // Handed over as written ("pmc: WAVES b__y.sum,a__x.avg"); the tool splits the same way.
  EXPECT_EQ(result.passes[0].config.list("pmc"),
            (std::vector<std::string>{"WAVES", "b__y.sum,a__x.avg"}));
  EXPECT_EQ(result.passes[0].sub_directory, "");
  EXPECT_EQ(backend_.lists, 1);  // the chip is listed once
}

TEST_F(counter_check_test, unknown_counters_name_the_closest_names) {
  auto message = error_of({"--pmc", "WAVEZ"});
  EXPECT_NE(message.find("--pmc: counter 'WAVEZ' is not available on chip GH100"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("closest names: WAVES"), std::string::npos) << message;
  message = error_of({"--pmc", "a__x.summ"});
  EXPECT_NE(message.find("'.summ' is not a roll-up or sub-metric of a__x"), std::string::npos)
      << message;
  message = error_of({"--pmc", "a__x"});
  EXPECT_NE(message.find("is a base metric"), std::string::npos) << message;
  message = error_of({"--pmc", "OLD_ONLY"});
  EXPECT_NE(message.find("defined for sm_80, not for sm_90"), std::string::npos) << message;
  message = error_of({"--pmc", "A:dev=1"});
  EXPECT_NE(message.find("'A:dev=1' is not NAME or NAME:device=N"), std::string::npos) << message;
}

TEST_F(counter_check_test, a_group_of_several_passes_needs_a_replay_mode) {
  const auto message = error_of({"--pmc", "a__x.sum", "b__y.sum", "c__z.sum"});
  EXPECT_NE(message.find("need 2 hardware passes on sm_90"), std::string::npos) << message;
  EXPECT_NE(message.find("A split that fits one pass each: --pmc"), std::string::npos) << message;
  EXPECT_NE(message.find("--replay-mode kernel"), std::string::npos) << message;
  // Kernel replay collects it in one run, unchanged.
  const auto kernel =
      check({"--pmc", "a__x.sum", "b__y.sum", "c__z.sum", "--replay-mode", "kernel"});
  ASSERT_EQ(kernel.passes.size(), 1u);
  EXPECT_EQ(kernel.passes[0].config.list("pmc").size(), 3u);
}

TEST_F(counter_check_test, application_replay_runs_each_one_pass_group) {
  const auto result =
      check({"--pmc", "a__x.sum", "b__y.sum", "c__z.sum", "--replay-mode", "application"});
  ASSERT_EQ(result.passes.size(), 2u);
  std::set<std::string> all;
  for (size_t i = 0; i < result.passes.size(); ++i) {
    EXPECT_EQ(result.passes[i].sub_directory, "pass_" + std::to_string(i + 1));
    const auto group = result.passes[i].config.list("pmc");
    EXPECT_LE(group.size(), 2u);
    all.insert(group.begin(), group.end());
  }
  EXPECT_EQ(all, (std::set<std::string>{"a__x.sum", "b__y.sum", "c__z.sum"}));
}

TEST_F(counter_check_test, kernel_replay_folds_the_pmc_flags_into_one_run) {
  const auto result =
      check({"--pmc", "a__x.sum", "--pmc", "b__y.sum", "c__z.sum", "--replay-mode", "kernel"});
  ASSERT_EQ(result.passes.size(), 1u);
  EXPECT_EQ(result.passes[0].sub_directory, "");
  EXPECT_EQ(result.passes[0].config.list("pmc"),
            (std::vector<std::string>{"a__x.sum", "b__y.sum", "c__z.sum"}));
  // Without replay each flag stays a run of its own.
  EXPECT_EQ(check({"--pmc", "a__x.sum", "--pmc", "b__y.sum"}).passes.size(), 2u);
}

TEST_F(counter_check_test, refusals_of_the_backend_are_reported) {
  const auto message = error_of({"--pmc", "a__x.sum", "d__w.sum"});
  EXPECT_NE(message.find("d__w cannot share a config"), std::string::npos) << message;
}

TEST_F(counter_check_test, device_suffixes_pick_the_gpu) {
  setup_.targets.clear();
  setup_.targets.push_back(named_chip_target("GH100"));
  setup_.targets.back().device = 0;
  setup_.targets.push_back(named_chip_target("GH100"));
  setup_.targets.back().device = 1;
  // On each GPU alone the group fits one pass; together it would not.
  EXPECT_EQ(check({"--pmc", "a__x.sum", "b__y.sum:device=0", "c__z.sum:device=1"}).passes.size(),
            1u);
  EXPECT_NE(
      error_of({"--pmc", "a__x.sum", "b__y.sum", "c__z.sum:device=1"}).find("hardware passes"),
      std::string::npos);
}

TEST_F(counter_check_test, pmc_groups_must_fit_one_pass_each) {
  const auto file = dir_.write(
      "groups.yaml", "jobs:\n  - pmc_groups: [[a__x.sum], [a__x.sum, b__y.sum, c__z.sum]]\n");
  const auto message = error_of({"-i", file});
  EXPECT_NE(message.find("group 2"), std::string::npos) << message;
  EXPECT_NE(message.find("Groups that fit one pass each: ["), std::string::npos) << message;
  EXPECT_EQ(check({"-i", file, "--replay-mode", "kernel"}).passes.size(), 1u);
}

TEST_F(counter_check_test, extra_definitions_load_with_file_and_position) {
  const auto good =
      dir_.write("extra.yaml",
                 "rocprofiler-sdk:\n  counters-schema-version: 1\n  counters:\n  - name: MINE\n"
                 "    description: 'mine'\n    properties: []\n    definitions:\n"
                 "    - architectures: [sm_90]\n      expression: reduce(c__z.sum,sum)*2\n");
  EXPECT_EQ(check({"--pmc", "MINE", "-E", good}).passes.size(), 1u);
  const auto bad =
      dir_.write("bad.yaml",
                 "rocprofiler-sdk:\n  counters-schema-version: 1\n  counters:\n  - name: BROKEN\n"
                 "    description: 'typo'\n    properties: []\n    definitions:\n"
                 "    - architectures: [sm_90]\n      expression: reduce(c__z.sum,summ)/2\n");
  auto message = error_of({"--pmc", "WAVES", "-E", bad});
  EXPECT_NE(message.find("bad.yaml:9:"), std::string::npos) << message;
  EXPECT_NE(message.find("counter 'BROKEN'"), std::string::npos) << message;
  EXPECT_NE(message.find("summ"), std::string::npos) << message;
  const auto missing =
      dir_.write("missing.yaml",
                 "rocprofiler-sdk:\n  counters-schema-version: 1\n  counters:\n  - name: NEEDS\n"
                 "    description: 'x'\n    properties: []\n    definitions:\n"
                 "    - architectures: [sm_90]\n      expression: e__v.sum\n");
  message = error_of({"--pmc", "NEEDS", "-E", missing});
  EXPECT_NE(message.find("missing.yaml:8:"), std::string::npos) << message;
  EXPECT_NE(message.find("needs 'e__v.sum'"), std::string::npos) << message;
}

TEST_F(counter_check_test, the_listing_shows_sets_once_and_derived_expressions) {
  rocprof::counters::definition_set defs =
      load_pass_definitions(setup_.shipped_definitions, "", nullptr);
  catalogue_cache cache;
  const auto& target = setup_.targets.front();
  const auto& cat = cache.of(target, listings_.of(target.chip), defs, "", {});
  std::ostringstream out;
  print_target_counters(out, cat);
  const std::string text = out.str();
  EXPECT_NE(text.find("Counter_Name        :\tWAVES\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Expression          :\ta__x.sum\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  Set 1 (2): .sum .avg\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Counter_Name        :\td__w\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("OLD_ONLY"), std::string::npos) << text;
  const auto files = write_counter_files(dir_.path() + "/list", {{"0", &cat}});
  ASSERT_EQ(files.size(), 2u);
  const auto derived = rocprof::test_support::read_file(files[1]);
  EXPECT_EQ(derived.substr(0, derived.find('\n')),
            R"("Agent_Id","Name","Description","Expression","Dimensions")");
  EXPECT_NE(derived.find(R"("0","BOTH","a and b","a__x.sum + b__y.sum")"), std::string::npos)
      << derived;
}

// Issue 14: a link planted at a --list-avail file name is replaced, its target left untouched.
TEST_F(counter_check_test, list_avail_files_replace_a_planted_link_without_following_it) {
  rocprof::counters::definition_set defs =
      load_pass_definitions(setup_.shipped_definitions, "", nullptr);
  catalogue_cache cache;
  const auto& target = setup_.targets.front();
  const auto& cat = cache.of(target, listings_.of(target.chip), defs, "", {});
  const std::string victim = dir_.path() + "/victim.txt";
  {
    std::ofstream v(victim);
    v << "precious";
  }
  const std::string basic = dir_.path() + "/list_basic_metrics.csv";
  ASSERT_EQ(::symlink(victim.c_str(), basic.c_str()), 0);
  const auto files = write_counter_files(dir_.path() + "/list", {{"0", &cat}});
  EXPECT_EQ(rocprof::test_support::read_file(victim), "precious");
  struct stat st {};
  ASSERT_EQ(::lstat(basic.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(rocprof::test_support::read_file(files[0]).substr(0, 11), R"("Agent_Id",)");
}

TEST(native_listing, reads_the_plugin_json_and_dotted_base_names) {
  const auto listing = parse_native_listing(
      R"({"chip":"GH100","architecture":"sm_90","max_hardware_metrics_per_pass":88,
          "sub_metric_sets":[[".sum",".avg.per_second"],[".ratio"]],
          "metrics":[{"name":"smsp__warps_launched","type":"counter","description":"# of warps",
                      "hw_unit":"smsp","dimension_unit":"warp","sub_metric_set":0},
                     {"name":"LTS.TriageCompute.lts__t_sectors","type":"counter",
                      "sub_metric_set":0},
                     {"name":"sm__ratio","type":"ratio","sub_metric_set":1}]})");
  EXPECT_EQ(listing.error, "");
  EXPECT_EQ(listing.max_per_pass, 88u);
  EXPECT_TRUE(listing.has("smsp__warps_launched.sum"));
  EXPECT_TRUE(listing.has("smsp__warps_launched.avg.per_second"));
  EXPECT_TRUE(listing.has("LTS.TriageCompute.lts__t_sectors.sum"));
  EXPECT_TRUE(listing.has("sm__ratio.ratio"));
  EXPECT_FALSE(listing.has("sm__ratio.sum"));
  EXPECT_FALSE(listing.has("smsp__warps_launched"));
  EXPECT_EQ(listing.full_names().size(), 5u);
  EXPECT_NE(parse_native_listing("not json").error, "");
  EXPECT_EQ(parse_native_listing(R"({"error":"no libcupti"})").error, "no libcupti");
}

}  // namespace
