// Kept counter checks (counter_check_memo.hpp): where they are kept, what their key names, and
// that only a file holding the same whole key counts as a pass.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "counter_check_memo.hpp"
#include "rocprof/test_support/test_env.hpp"

namespace {

using namespace rocprof::cli;
using rocprof::test_support::temp_dir;

pass pmc_pass(std::vector<std::string> counters, const std::string& extra = "") {
  pass p;
  p.config.values["pmc"] = std::move(counters);
  if (!extra.empty()) p.config.values["extra_counters"] = extra;
  return p;
}

std::vector<counter_target> gh100() {
  counter_target t;
  t.label = "chip GH100";
  t.chip = "GH100";
  return {t};
}

size_t files_in(const std::string& folder) {
  if (!std::filesystem::exists(folder)) return 0;
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder))
    ++n;
  return n;
}

TEST(CounterCheckMemo, FolderComesFromTheVariableThenXdgThenHome) {
  EXPECT_EQ(counter_check_memo::folder_from(
                {{"ROCPROF_COUNTER_CHECK_CACHE", "/tmp/kept"}, {"HOME", "/home/u"}}),
            "/tmp/kept");
  EXPECT_EQ(
      counter_check_memo::folder_from({{"ROCPROF_COUNTER_CHECK_CACHE", "0"}, {"HOME", "/home/u"}}),
      "");
  EXPECT_EQ(counter_check_memo::folder_from({{"ROCPROF_COUNTER_CHECK_CACHE", "off"}}), "");
  EXPECT_EQ(
      counter_check_memo::folder_from(
          {{"ROCPROF_COUNTER_CHECK_CACHE", "1"}, {"XDG_CACHE_HOME", "/x"}, {"HOME", "/home/u"}}),
      "/x/rocprofv3/counter-checks");
  EXPECT_EQ(counter_check_memo::folder_from({{"HOME", "/home/u"}}),
            "/home/u/.cache/rocprofv3/counter-checks");
  EXPECT_EQ(counter_check_memo::folder_from({}), "");
  // Neither a folder nor on/off: refused, naming the variable.
  try {
    counter_check_memo::folder_from({{"ROCPROF_COUNTER_CHECK_CACHE", "kept"}});
    ADD_FAILURE() << "a value that is neither a folder nor on/off was accepted";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("ROCPROF_COUNTER_CHECK_CACHE='kept'"), std::string::npos)
        << e.what();
  }
}

TEST(CounterCheckMemo, KeyNamesTheSourceTargetsDefinitionsAndCounters) {
  temp_dir dir("memo");
  const std::string shipped = dir.write("defs.yaml", "counters: []\n");
  const std::string key =
      counter_check_key({pmc_pass({"SQ_WAVES", "GRBM_COUNT"})}, gh100(), shipped, "cupti x 1 2");
  EXPECT_NE(key.find("backend cupti x 1 2\n"), std::string::npos);
  EXPECT_NE(key.find("target chip GH100 | GH100 | -\n"), std::string::npos);
  EXPECT_NE(key.find("definitions " + shipped + " 13 "), std::string::npos);
  EXPECT_NE(key.find(" pmc SQ_WAVES GRBM_COUNT\n"), std::string::npos);
  EXPECT_NE(key.find("program "), std::string::npos);

  // Each input moves the key; an unknown source or an unreadable -E file gives none.
  EXPECT_NE(key, counter_check_key({pmc_pass({"SQ_WAVES"})}, gh100(), shipped, "cupti x 1 2"));
  EXPECT_NE(key, counter_check_key({pmc_pass({"SQ_WAVES", "GRBM_COUNT"})}, gh100(), shipped,
                                   "cupti x 1 3"));
  dir.write("defs.yaml", "counters: [] \n");
  EXPECT_NE(key, counter_check_key({pmc_pass({"SQ_WAVES", "GRBM_COUNT"})}, gh100(), shipped,
                                   "cupti x 1 2"));
  EXPECT_EQ(counter_check_key({pmc_pass({"SQ_WAVES"})}, gh100(), shipped, ""), "");
  EXPECT_EQ(counter_check_key({pmc_pass({"SQ_WAVES"}, dir.path() + "/missing.yaml")}, gh100(),
                              shipped, "cupti"),
            "");
  const std::string extra = dir.write("extra.yaml", "a");
  const std::string with_extra =
      counter_check_key({pmc_pass({"SQ_WAVES"}, extra)}, gh100(), shipped, "cupti");
  dir.write("extra.yaml", "b");
  EXPECT_NE(with_extra,
            counter_check_key({pmc_pass({"SQ_WAVES"}, extra)}, gh100(), shipped, "cupti"));
}

TEST(CounterCheckMemo, KeptPassesComeBackWithTheirWarnings) {
  temp_dir dir("memo");
  const counter_check_memo memo(dir.path() + "/kept");
  std::vector<std::string> warnings;
  EXPECT_FALSE(memo.passed("key one\n", warnings));
  memo.keep("key one\n", {"first warning", "second"});
  memo.keep("key two\n", {});
  EXPECT_EQ(files_in(dir.path() + "/kept"), 2u);
  ASSERT_TRUE(memo.passed("key one\n", warnings));
  EXPECT_EQ(warnings, (std::vector<std::string>{"first warning", "second"}));
  warnings.clear();
  EXPECT_TRUE(memo.passed("key two\n", warnings));
  EXPECT_TRUE(warnings.empty());
  EXPECT_FALSE(memo.passed("key three\n", warnings));
  EXPECT_FALSE(memo.passed("", warnings));  // no key: never a pass
}

TEST(CounterCheckMemo, OnlyTheWholeKeyCounts) {
  temp_dir dir("memo");
  const counter_check_memo memo(dir.path());
  memo.keep("key one\n", {});
  // Another text under the same file name (as a hash collision or a damaged file would be).
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    std::ofstream(entry.path()) << "key one\nand more";
  std::vector<std::string> warnings;
  EXPECT_FALSE(memo.passed("key one\n", warnings));
}

TEST(CounterCheckMemo, NoFolderKeepsNothing) {
  temp_dir dir("memo");
  const std::string file = dir.write("a_file", "x");
  const counter_check_memo under_a_file(file + "/kept");  // cannot be created
  under_a_file.keep("key\n", {});
  std::vector<std::string> warnings;
  EXPECT_FALSE(under_a_file.passed("key\n", warnings));
  const counter_check_memo none("");
  none.keep("key\n", {});
  EXPECT_FALSE(none.passed("key\n", warnings));
}

}  // namespace
