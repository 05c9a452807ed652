#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

#include "rocprof/common/placeholders.hpp"

using rocprof::common::expand_placeholders;
using rocprof::common::placeholder_context;

namespace {

placeholder_context sample() {
  placeholder_context c;
  c.argv = {"./bin/my_app", "--", "-n", "4", "/data/in.txt"};
  c.pid = 1234;
  c.ppid = 1000;
  c.pgid = 1200;
  c.psid = 900;
  c.psize = 3;
  c.hostname = "node7";
  c.cwd = "/work/dir";
  c.launch_date = "2026-01-02";
  c.launch_time = "2026-01-02_03.04";
  return c;
}

std::string expand(const std::string& text) {
  return expand_placeholders(text, sample());
}

class Placeholders : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"SLURM_JOB_ID", "SLURM_PROCID", "MPI_RANK", "OMPI_COMM_WORLD_RANK",
                             "MPI_SIZE", "OMPI_COMM_WORLD_SIZE", "MY_VAR"}) {
      ::unsetenv(name);
    }
  }
};

}  // namespace

TEST_F(Placeholders, ProcessKeys) {
  EXPECT_EQ(expand("%pid%"), "1234");
  EXPECT_EQ(expand("{pid}"), "1234");
  EXPECT_EQ(expand("%p"), "1234");
  EXPECT_EQ(expand("%ppid%/{ppid}"), "1000/1000");
  EXPECT_EQ(expand("%pgid%"), "1200");
  EXPECT_EQ(expand("%psid%"), "900");
  EXPECT_EQ(expand("%psize%"), "3");
  EXPECT_EQ(expand("%hostname%/%h"), "node7/node7");
  EXPECT_EQ(expand("{hostname}"), "node7");
  EXPECT_EQ(expand("%cwd%"), "/work/dir");
  EXPECT_EQ(expand("%launch_date%"), "2026-01-02");
  EXPECT_EQ(expand("{launch_time}"), "2026-01-02_03.04");
  EXPECT_EQ(expand("%hostname%/%pid%"), "node7/1234");  // the default output prefix
}

TEST_F(Placeholders, ArgumentKeys) {
  // argv[1] "--" is dropped; '/' becomes '_' and leading '.' / '_' are stripped.
  EXPECT_EQ(expand("%tag%"), "my_app");
  EXPECT_EQ(expand("%args%"), "-n_4_data_in.txt");
  EXPECT_EQ(expand("%argt%"), "my_app_-n_4_data_in.txt");
  EXPECT_EQ(expand("%argv%"), "bin_my_app_-n_4_data_in.txt");
  EXPECT_EQ(expand("%arg0%"), "bin_my_app");
  EXPECT_EQ(expand("%arg1%"), "-n");
  EXPECT_EQ(expand("{arg2}"), "4");
  EXPECT_EQ(expand("%arg3%"), "data_in.txt");
  // Past the end: removed together with the separators that follow.
  EXPECT_EQ(expand("out_%arg9%_-/x"), "out_x");
}

TEST_F(Placeholders, SchedulerKeys) {
  EXPECT_EQ(expand("%job%_%j"), "0_0");
  EXPECT_EQ(expand("%rank%_%r_%nid%"), "0_0_0");
  EXPECT_EQ(expand("%size%_%s"), "1_1");
  ::setenv("SLURM_JOB_ID", "77", 1);
  ::setenv("OMPI_COMM_WORLD_RANK", "3", 1);
  ::setenv("OMPI_COMM_WORLD_SIZE", "8", 1);
  EXPECT_EQ(expand("%job%/%rank%/%size%/%nid%"), "77/3/8/3");
  ::setenv("SLURM_PROCID", "5", 1);  // SLURM's rank wins over MPI's
  EXPECT_EQ(expand("%rank%"), "5");
  ::setenv("MPI_SIZE", "2", 1);  // later names in the list win
  EXPECT_EQ(expand("%size%"), "8");
}

TEST_F(Placeholders, EnvironmentForms) {
  ::setenv("MY_VAR", "/lead/a b", 1);
  EXPECT_EQ(expand("%env{MY_VAR}%"), "lead_a_b");
  EXPECT_EQ(expand("$env{MY_VAR}"), "lead_a_b");
  EXPECT_EQ(expand("$ENV{MY_VAR}"), "lead_a_b");
  EXPECT_EQ(expand("%q{MY_VAR}"), "lead_a_b");
  EXPECT_EQ(expand("x%env{UNSET_VAR_XYZ}%y"), "xy");
  EXPECT_EQ(expand("%env{lower}%"), "%env{lower}%");  // names are [A-Z0-9_]+
}

TEST_F(Placeholders, RepeatsUntilStable) {
  ::setenv("MY_VAR", "%pid%", 1);
  EXPECT_EQ(expand("%env{MY_VAR}%"), "1234");
  EXPECT_EQ(expand("plain/text"), "plain/text");
}

TEST_F(Placeholders, CurrentProcess) {
  const auto context = placeholder_context::for_current_process();
  EXPECT_EQ(context.pid, static_cast<long>(::getpid()));
  EXPECT_EQ(context.ppid, static_cast<long>(::getppid()));
  EXPECT_FALSE(context.hostname.empty());
  EXPECT_FALSE(context.cwd.empty());
  EXPECT_FALSE(context.argv.empty());
  EXPECT_EQ(context.launch_date.size(), 10u);  // %F
  EXPECT_EQ(expand_placeholders("%pid%", context), std::to_string(::getpid()));
}
