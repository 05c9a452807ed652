#include <gtest/gtest.h>

#include "rocprof/config/values.hpp"

using namespace rocprof::config;

TEST(Values, BoolWordsOfRocprofv3) {
  for (const char* yes : {"y", "yes", "t", "true", "on", "1", "TRUE", "Yes", "ON"}) {
    EXPECT_EQ(parse_bool_word(yes), std::optional<bool>(true)) << yes;
  }
  for (const char* no : {"n", "no", "f", "false", "off", "0", "False", "NO", "Off"}) {
    EXPECT_EQ(parse_bool_word(no), std::optional<bool>(false)) << no;
  }
  for (const char* bad : {"", "maybe", "2", "yess", "tru"}) {
    EXPECT_FALSE(parse_bool_word(bad).has_value()) << bad;
  }
}

TEST(Values, EnvBoolAsTheToolReadsIt) {
  EXPECT_EQ(parse_env_bool("0"), std::optional<bool>(false));
  EXPECT_EQ(parse_env_bool("OFF"), std::optional<bool>(false));
  EXPECT_EQ(parse_env_bool("n"), std::optional<bool>(false));
  EXPECT_EQ(parse_env_bool("000"), std::optional<bool>(false));
  EXPECT_EQ(parse_env_bool("1"), std::optional<bool>(true));
  EXPECT_EQ(parse_env_bool("42"), std::optional<bool>(true));
  EXPECT_EQ(parse_env_bool("anything"), std::optional<bool>(true));
  EXPECT_FALSE(parse_env_bool("").has_value());
}

TEST(Values, IntegersDecimalAndHex) {
  EXPECT_EQ(parse_integer("0"), std::optional<uint64_t>(0));
  EXPECT_EQ(parse_integer("1048576"), std::optional<uint64_t>(1048576));
  EXPECT_EQ(parse_integer("0x10000000"), std::optional<uint64_t>(0x10000000));
  EXPECT_EQ(parse_integer("0XF"), std::optional<uint64_t>(15));
  for (const char* bad : {"", "-1", "12a", "0x", "1.5", "99999999999999999999999"}) {
    EXPECT_FALSE(parse_integer(bad).has_value()) << bad;
  }
}

TEST(Values, SplitJoinAndCase) {
  EXPECT_EQ(split_any("a, b;;c", " ,;"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(split_on("A##@@##B.*##@@##", "##@@##"), (std::vector<std::string>{"A", "B.*"}));
  EXPECT_EQ(join({"x", "y"}, ", "), "x, y");
  EXPECT_EQ(to_lower("CsV"), "csv");
  EXPECT_EQ(to_upper("csv"), "CSV");
}

TEST(Values, PmcLineParsing) {
  EXPECT_EQ(parse_pmc_line("pmc: SQ_WAVES, GRBM_COUNT  SQ_WAVES # comment GRBM_GUI_ACTIVE"),
            (std::vector<std::string>{"SQ_WAVES", "GRBM_COUNT"}));
  EXPECT_EQ(parse_pmc_line("pmc: A:device=1 B"), (std::vector<std::string>{"A:device=1", "B"}));
  EXPECT_EQ(parse_pmc_line("A B"), (std::vector<std::string>{"A", "B"}));
  EXPECT_TRUE(parse_pmc_line("# pmc: A").empty());
}

TEST(Values, PmcLinesKeepNvidiaMetricNames) {
  // '.' is not a separator here (a deviation from rocprofv3: its names never contain one).
  EXPECT_EQ(parse_pmc_line("pmc: smsp__inst_executed.sum,dram__bytes_read.sum.per_second SQ_WAVES"),
            (std::vector<std::string>{"smsp__inst_executed.sum", "dram__bytes_read.sum.per_second",
                                      "SQ_WAVES"}));
  EXPECT_EQ(parse_pmc_line("pmc: LTS.TriageCompute.lts__t_sectors.sum:device=1"),
            (std::vector<std::string>{"LTS.TriageCompute.lts__t_sectors.sum:device=1"}));
}

TEST(Values, CounterRequests) {
  auto plain = rocprof::config::parse_counter_request("SQ_WAVES");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->name, "SQ_WAVES");
  EXPECT_FALSE(plain->device);
  auto device = rocprof::config::parse_counter_request("smsp__warps_launched.sum:device=3");
  ASSERT_TRUE(device);
  EXPECT_EQ(device->name, "smsp__warps_launched.sum");
  EXPECT_EQ(device->device, std::optional<uint64_t>(3));
  for (const char* bad : {"A:dev=1", "A:device=", "A:device=x", "A:device=-1"})
    EXPECT_FALSE(rocprof::config::parse_counter_request(bad)) << bad;
}
