// Chip name <-> sm_XX architecture, and the table's coverage of what the real libcupti lists.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "metrics/chip_architecture.hpp"
#include "real_profiler_host.hpp"

namespace rocprof::cuda {
namespace {

TEST(chip_architecture, chips_map_to_their_architecture) {
  EXPECT_EQ(architecture_of_chip("GH100"), "sm_90");
  EXPECT_EQ(architecture_of_chip("gh100"), "sm_90");
  EXPECT_EQ(architecture_of_chip("GV100"), "sm_70");
  EXPECT_EQ(architecture_of_chip("GA100"), "sm_80");
  EXPECT_EQ(architecture_of_chip("GA104"), "sm_86");
  EXPECT_EQ(architecture_of_chip("GA10B"), "sm_87");
  EXPECT_EQ(architecture_of_chip("AD102"), "sm_89");
  EXPECT_EQ(architecture_of_chip("GB100"), "sm_100");
  EXPECT_EQ(architecture_of_chip("GB202"), "sm_120");
  EXPECT_EQ(architecture_of_chip("XX999"), "");
}

TEST(chip_architecture, architectures_map_to_their_chips) {
  EXPECT_EQ(chips_of_architecture("sm_90"), std::vector<std::string>{"GH100"});
  EXPECT_EQ(chips_of_architecture("sm_86"),
            (std::vector<std::string>{"GA102", "GA103", "GA104", "GA106", "GA107"}));
  EXPECT_EQ(chips_of_architecture("sm_75").size(), 5U);
  EXPECT_TRUE(chips_of_architecture("sm_95").empty());
  EXPECT_TRUE(chips_of_architecture("gfx90a").empty());
  EXPECT_EQ(representative_chip("sm_90"), "GH100");
  EXPECT_EQ(representative_chip("8.6"), "GA102");
  EXPECT_EQ(resolve_chip("sm_90"), "GH100");
  EXPECT_EQ(resolve_chip("gh100"), "GH100");
  EXPECT_EQ(resolve_chip("NOPE"), "NOPE");
}

TEST(chip_architecture, architecture_spellings) {
  using cc = std::pair<int, int>;
  EXPECT_EQ(parse_architecture("sm_90"), cc(9, 0));
  EXPECT_EQ(parse_architecture("SM90"), cc(9, 0));
  EXPECT_EQ(parse_architecture("9.0"), cc(9, 0));
  EXPECT_EQ(parse_architecture("90"), cc(9, 0));
  EXPECT_EQ(parse_architecture("sm_103"), cc(10, 3));
  EXPECT_EQ(parse_architecture("12.1"), cc(12, 1));
  for (const char* bad : {"", "sm_", "sm_9", "9.", ".0", "9.10", "sm_9a", "GH100", "1234"})
    EXPECT_FALSE(parse_architecture(bad).has_value()) << bad;
  EXPECT_EQ(architecture_name(9, 0), "sm_90");
  EXPECT_EQ(architecture_name(10, 3), "sm_103");
}

TEST(chip_architecture, every_row_is_consistent) {
  std::set<std::string> table;
  for (const chip_architecture& row : known_chip_architectures()) {
    EXPECT_TRUE(table.insert(row.chip).second) << "twice: " << row.chip;
    EXPECT_GE(row.major, 7) << row.chip;
    EXPECT_EQ(architecture_of_chip(row.chip), architecture_name(row.major, row.minor));
  }
  EXPECT_EQ(table.size(), 30U);  // the chips CUPTI 13.0 lists
}

class cupti_chips : public test::real_profiler_host_test {};

TEST_F(cupti_chips, the_table_covers_every_chip_cupti_lists) {
  std::vector<std::string> chips;
  ASSERT_TRUE(supported_chips(*api, chips).ok());
  EXPECT_GE(chips.size(), 30U);
  for (const std::string& chip : chips)
    EXPECT_TRUE(find_chip(chip).has_value()) << chip << " is listed by CUPTI but not in the table";
}

}  // namespace
}  // namespace rocprof::cuda
