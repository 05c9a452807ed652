// rocpd's option table and parser (AMD's defaults, environment defaults, errors), MPI rank
// selection helpers and the result-table renderings.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "options.hpp"
#include "result_table.hpp"
#include "rocprof/common/mpi_rank.hpp"

namespace {

using namespace rocprof::rocpd_cli;

rocpd_args parse(const std::vector<std::string>& args) {
  std::ostringstream out;
  auto parsed = parse_rocpd_args(args, out);
  EXPECT_TRUE(parsed) << out.str();
  return parsed ? *parsed : rocpd_args{};
}

TEST(rocpd_options, convert_defaults_are_amds) {
  ::unsetenv("ROCPD_OUTPUT_NAME");
  ::unsetenv("ROCPD_OUTPUT_PATH");
  const auto a = parse({"convert", "-i", "a.db", "b.db", "-f", "csv", "perfetto"});
  EXPECT_EQ(a.command, "convert");
  EXPECT_EQ(a.list("input"), (std::vector<std::string>{"a.db", "b.db"}));
  EXPECT_EQ(a.list("output_format"), (std::vector<std::string>{"csv", "pftrace"}));
  EXPECT_EQ(a.text("output_file"), "out");
  EXPECT_EQ(a.text("output_path"), "./rocpd-output-data");
  EXPECT_EQ(a.text("agent_index_value"), "relative");
  EXPECT_TRUE(a.flag("inclusive"));
  EXPECT_FALSE(a.flag("kernel_rename"));
}

TEST(rocpd_options, environment_defaults) {
  ::setenv("ROCPD_OUTPUT_NAME", "from_env", 1);
  const auto a = parse({"summary", "-i", "a.db"});
  EXPECT_EQ(a.text("output_file"), "from_env");
  EXPECT_EQ(a.text("format"), "console");
  ::unsetenv("ROCPD_OUTPUT_NAME");
  EXPECT_EQ(parse({"summary", "-i", "a.db"}).text("output_file"), "");
}

TEST(rocpd_options, errors) {
  std::ostringstream out;
  EXPECT_THROW(parse_rocpd_args({"convert", "-i", "a.db", "-f", "xml"}, out), usage_error);
  EXPECT_THROW(parse_rocpd_args({"convert", "-f", "csv"}, out), usage_error);  // no -i
  EXPECT_THROW(parse_rocpd_args({"query", "-i", "a.db"}, out), usage_error);   // no --query
  EXPECT_THROW(parse_rocpd_args(
                   {"convert", "-i", "a", "-f", "csv", "--start", "1", "--start-marker", "x"}, out),
               usage_error);
  EXPECT_THROW(parse_rocpd_args({"summary", "-i", "a", "--inclusive", "maybe"}, out), usage_error);
  EXPECT_THROW(parse_rocpd_args({"frobnicate"}, out), usage_error);
}

TEST(rocpd_options, help_of_every_subcommand) {
  for (const auto& c : rocpd_commands()) {
    std::ostringstream out;
    EXPECT_FALSE(parse_rocpd_args({std::string{c.name}, "--help"}, out));
    EXPECT_NE(out.str().find("--input"), std::string::npos) << c.name;
  }
}

TEST(mpi_rank, launcher_variables_in_order) {
  std::map<std::string, std::string> env = {{"OMPI_COMM_WORLD_RANK", "2"},
                                            {"OMPI_COMM_WORLD_SIZE", "4"}};
  const auto lookup = [&env](const char* n) -> const char* {
    const auto it = env.find(n);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  auto id = rocprof::common::detect_mpi_rank(lookup);
  ASSERT_TRUE(id);
  EXPECT_EQ(id->rank, 2);
  EXPECT_EQ(id->size, 4);
  EXPECT_EQ(id->rank_variable, "OMPI_COMM_WORLD_RANK");
  env["SLURM_PROCID"] = "7";  // Slurm comes before Open MPI
  env["SLURM_NTASKS"] = "16";
  id = rocprof::common::detect_mpi_rank(lookup);
  ASSERT_TRUE(id);
  EXPECT_EQ(id->rank, 7);
  id = rocprof::common::detect_mpi_rank(lookup, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE");
  ASSERT_TRUE(id);
  EXPECT_EQ(id->rank, 2);
  env.clear();
  EXPECT_FALSE(rocprof::common::detect_mpi_rank(lookup));
}

TEST(mpi_rank, rank_lists) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  std::string error;
  ASSERT_TRUE(rocprof::common::parse_rank_ranges("0-3,8,10-15", &ranges, &error)) << error;
  EXPECT_TRUE(rocprof::common::rank_in(ranges, 2));
  EXPECT_TRUE(rocprof::common::rank_in(ranges, 8));
  EXPECT_FALSE(rocprof::common::rank_in(ranges, 9));
  EXPECT_TRUE(rocprof::common::rank_in(ranges, 15));
  for (const char* bad : {"", "1,,2", "3-1", "a", "-2", "1-"})
    EXPECT_FALSE(rocprof::common::parse_rank_ranges(bad, &ranges, &error)) << bad;
}

TEST(result_table, renderings) {
  result_table t;
  t.name = "x";
  t.columns = {"Name", "Calls", "AVG"};
  t.rows.push_back({cell::text("a,b"), cell::integer(3), cell::real(1.5)});
  t.rows.push_back({cell::text("c"), cell::integer(10), cell{}});
  EXPECT_EQ(render(t, "csv"), "Name,Calls,AVG\n\"a,b\",3,1.5\nc,10,\n");
  EXPECT_EQ(render(t, "console"),
            "Name Calls      AVG\n a,b     3 1.500000\n   c    10     None\n");
  EXPECT_NE(render(t, "json").find("\"AVG\": null"), std::string::npos);
  EXPECT_NE(render(t, "md").find("| a,b | 3 | 1.500000 |"), std::string::npos);
  EXPECT_NE(render(t, "html").find("<td>a,b</td>"), std::string::npos);
}

}  // namespace
