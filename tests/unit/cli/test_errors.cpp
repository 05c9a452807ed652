// Every error case of the command line, through the same run function as the executable: one
// line "rocprofv3: error: ..." on stderr, exit status 1, and the application never starts.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <sstream>

#include "cuda_api_names_check.hpp"
#include "rocprof/common/cuda_api_names.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "run.hpp"

using rocprof::cli::run_rocprofv3;
using rocprof::test_support::temp_dir;

namespace {

class Errors : public ::testing::Test {
 protected:
  // The application would create `marker_` if it ever ran.
  std::vector<std::string> app() const { return {"--", "/usr/bin/touch", marker_}; }

  void expect_error(std::vector<std::string> args, const std::string& expected_part) {
    args.insert(args.begin(), {"--rocm-root", ROCPROF_TEST_BUILD_ROOT, "-d", dir_.path()});
    std::ostringstream out, err;
    EXPECT_EQ(run_rocprofv3(args, out, err), 1);
    const std::string text = err.str();
    size_t error_lines = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("rocprofv3: error: ", 0) == 0) ++error_lines;
    }
    EXPECT_EQ(error_lines, 1u) << text;
    EXPECT_NE(text.find(expected_part), std::string::npos) << text;
    EXPECT_NE(::access(marker_.c_str(), F_OK), 0) << "the application was launched";
  }

  temp_dir dir_;
  const std::string marker_ = dir_.path() + "/launched";
};

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

}  // namespace

TEST_F(Errors, NoApplication) {
  expect_error({"--kernel-trace"}, "no application");
  expect_error({"--kernel-trace", "--"}, "no application");
  std::ostringstream out, err;
  EXPECT_EQ(run_rocprofv3({"--list-avail"}, out, err), 0);
  EXPECT_NE(out.str().find("CPU agents"), std::string::npos);
}

TEST_F(Errors, UnknownOptionBadBooleanBadChoice) {
  expect_error(with({"--kernel-trace", "--no-such-option"}, app()), "no-such-option");
  expect_error(with({"--kernel-trace", "maybe"}, app()), "maybe");
  expect_error(with({"--kernel-trace", "-f", "xml"}, app()), "xml");
  expect_error(with({"--kernel-trace", "--perfetto-backend", "remote"}, app()), "remote");
}

TEST_F(Errors, InvalidRegularExpressions) {
  expect_error(with({"--kernel-trace", "--kernel-include-regex", "(a"}, app()),
               "--kernel-include-regex");
  expect_error(with({"--kernel-trace", "--kernel-exclude-regex", "[z-a]"}, app()),
               "--kernel-exclude-regex");
  expect_error(with({"--kernel-trace", "--summary-groups", "*._API"}, app()), "--summary-groups");
}

TEST_F(Errors, InputFiles) {
  const auto malformed = dir_.write("bad.json", "{\"jobs\": [");
  expect_error(with({"-i", malformed}, app()), "bad.json");
  const auto unknown = dir_.write("unknown.yaml", "jobs:\n  - kernel_trac: true\n");
  expect_error(with({"-i", unknown}, app()), "kernel_trac");
  const auto conflict = dir_.write("conflict.yaml", "jobs:\n  - kernel_trace: false\n");
  expect_error(with({"-i", conflict, "--kernel-trace"}, app()), "conflicting");
}

TEST_F(Errors, OutputDirectory) {
  const auto file = dir_.write("a_file", "x");
  expect_error(with({"--kernel-trace", "-d", file + "/sub"}, app()), "output directory");
  expect_error(with({"--kernel-trace", "-d", file}, app()), "not a directory");
  // /proc/self exists but takes no new files, for root too.
  expect_error(with({"--kernel-trace", "-d", "/proc/self"}, app()), "not writable");
  if (::geteuid() != 0) {  // root may write to a 0500 directory
    const auto locked = dir_.path() + "/locked";
    ::mkdir(locked.c_str(), 0500);
    expect_error(with({"--kernel-trace", "-d", locked}, app()), "not writable");
  }
}

TEST_F(Errors, Application) {
  expect_error({"--kernel-trace", "--", dir_.path() + "/missing_app"}, "does not exist");
  const auto script = dir_.write("not_executable", "#!/bin/sh\n");
  ::chmod(script.c_str(), 0644);
  expect_error({"--kernel-trace", "--", script}, "not executable");
  expect_error({"--kernel-trace", "--", "no_such_program_in_path_xyz"}, "not found");
}

TEST_F(Errors, PcSamplingAndExclusiveOptions) {
  expect_error(with({"--pc-sampling-unit", "time", "--pc-sampling-beta-enabled"}, app()),
               "--pc-sampling-interval");
  ::unsetenv("ROCPROFILER_PC_SAMPLING_BETA_ENABLED");
  expect_error(with({"--pc-sampling-unit", "time", "--pc-sampling-method", "host_trap",
                     "--pc-sampling-interval", "1"},
                    app()),
               "beta");
  expect_error(with({"--pc-sampling-beta-enabled", "--pc-sampling-unit", "time",
                     "--pc-sampling-method", "host_trap", "--pc-sampling-interval", "0"},
                    app()),
               "greater than 0");
  expect_error(
      with({"--pc-sampling-beta-enabled", "--pc-sampling-unit", "cycles", "--pc-sampling-method",
            "stochastic", "--pc-sampling-interval", "4096", "--pmc", "A"},
           app()),
      "cannot be combined with --pmc");
  expect_error(with({"--pmc", "A", "--att-activity", "8"}, app()), "--pmc");
  expect_error(with({"--att", "--att-activity", "8", "--att-perfcounter-ctrl", "2"}, app()),
               "--att-activity");
  expect_error(with({"-p", "123"}, app()), "reserved");
  expect_error(with({"--stats"}, app()), "summary");
}

// Issue 14: every bad value is refused before launch, with a message naming the option or the
// file, line and key; the bombs among them within a second.
TEST_F(Errors, RegexesRe2CannotRunOrThatWouldExplode) {
  expect_error(with({"--kernel-trace", "--kernel-include-regex", "(a)\\1"}, app()),
               "argument --kernel-include-regex: invalid regular expression '(a)\\1': "
               "backreference \\1");
  expect_error(with({"--kernel-trace", "--kernel-exclude-regex", "a(?!b)"}, app()),
               "negative lookahead");
  const std::string deep = std::string(2000, '(') + std::string(2000, ')');
  const auto start = std::chrono::steady_clock::now();
  expect_error(with({"--kernel-trace", "--kernel-include-regex", deep}, app()), "nested more");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  expect_error(with({"--kernel-trace", "--summary-groups", ".*", "x\\2"}, app()),
               "--summary-groups");
}

TEST_F(Errors, NumbersOutOfRangeNeverWrapAround) {
  expect_error(with({"--kernel-trace", "--minimum-output-data", "18014398509481984"}, app()),
               "argument --minimum-output-data: must be at most 18014398509481983");
  expect_error(with({"--kernel-trace", "--minimum-output-data", "99999999999999999999"}, app()),
               "invalid integer value");
  expect_error(
      with({"--kernel-trace", "-P", "99999999999:1:1", "--collection-period-unit", "hour"}, app()),
      "argument --collection-period: '99999999999:1:1': the delay is longer than");
  expect_error(with({"--kernel-trace", "-P", "1:1:99999999999999999999"}, app()), "repeat count");
  expect_error(with({"--kernel-trace", "--perfetto-buffer-size", "4294967296"}, app()),
               "--perfetto-buffer-size: must be between 1 and 4294967295");
  expect_error(
      with({"--pc-sampling-beta-enabled", "--pc-sampling-unit", "time", "--pc-sampling-method",
            "host_trap", "--pc-sampling-interval", "99999999999999999999"},
           app()),
      "--pc-sampling-interval");
  const auto file = dir_.write("interval.yaml",
                               "jobs:\n  - pmc: [A]\n  - pmc_groups: [[A], [B]]\n"
                               "    pmc_group_interval: 0\n");
  expect_error(with({"-i", file}, app()),
               "interval.yaml:4: jobs[1]: key 'pmc_group_interval': must be greater than 0");
}

TEST_F(Errors, IterationRangeAndPlaceholders) {
  expect_error(with({"--kernel-trace", "--kernel-iteration-range", "[1-"}, app()),
               "argument --kernel-iteration-range: '1-' is not a range A-B");
  expect_error(with({"--kernel-trace", "--kernel-iteration-range", "1", "[0-3]"}, app()),
               "count from 1");
  expect_error(with({"--kernel-trace", "-o", "out_%arg99999999999999999999%"}, app()),
               "argument --output-file: '%arg99999999999999999999%': the argument index");
  expect_error(with({"--kernel-trace", "-d", dir_.path() + "/{arg123456789012}"}, app()),
               "argument --output-directory");
}

TEST_F(Errors, CounterNamesFollowTheToolsRule) {
  expect_error(with({"--pmc", "SQ_WAVES", "BAD\xff"}, app()),
               "argument --pmc: counter name 'BAD...' is not valid UTF-8");
  expect_error(with({"--pmc", "A\x01B"}, app()), "control character");
  const auto file = dir_.write("counters.txt", "pmc: A B\npmc: C \xfe\n");
  expect_error(with({"-i", file}, app()), "counters.txt:2: counter name");
}

TEST_F(Errors, ExportedToolVariablesAreCheckedToo) {
  // No option names these: the user's environment would make the tool refuse the run.
  ::setenv("ROCPROF_KERNEL_FILTER_RANGE", "[1-", 1);
  expect_error(with({"--kernel-trace"}, app()),
               "environment variable ROCPROF_KERNEL_FILTER_RANGE: '1-' is not a range");
  ::unsetenv("ROCPROF_KERNEL_FILTER_RANGE");
  ::setenv("ROCPROF_STATS_SUMMARY_GROUPS", "(?<=x)", 1);
  expect_error(with({"--kernel-trace"}, app()), "ROCPROF_STATS_SUMMARY_GROUPS");
  ::unsetenv("ROCPROF_STATS_SUMMARY_GROUPS");
}

TEST_F(Errors, KernelIterationRangesAndReplay) {
  expect_error(with({"--kernel-trace", "--kernel-iteration-range", "[1-"}, app()),
               "argument --kernel-iteration-range: '1-' is not a range A-B");
  expect_error(with({"--kernel-trace", "--kernel-iteration-range", "[1,", "x]"}, app()), "'x'");
  const auto job = dir_.write("range.yaml",
                              "jobs:\n  - kernel_trace: true\n"
                              "    kernel_iteration_range: \"[3-1]\"\n");
  expect_error(with({"-i", job}, app()), "the range ends before it starts");
  expect_error(with({"--kernel-trace", "--replay-mode", "kernel"}, app()), "needs counters");
  expect_error(with({"--pmc", "A", "--replay-mode", "sometimes"}, app()), "sometimes");
}

// Names CUPTI does not know are refused before launch with the closest function names; the
// runtime's version-suffixed spelling is accepted.
TEST_F(Errors, CudaApiExcludeNames) {
  if (!rocprof::cli::cuda_api_names_known()) GTEST_SKIP() << "built without CUPTI's headers";
  expect_error(with({"--sys-trace", "--cuda-api-exclude", "cudaGetDevic"}, app()),
               "argument --cuda-api-exclude: unknown CUDA API function 'cudaGetDevic'; closest "
               "names: cudaGetDevice");
  expect_error(with({"--sys-trace", "--cuda-api-exclude", "cudaMemcpy,cuCtxGetCurent"}, app()),
               "'cuCtxGetCurent'; closest names: cuCtxGetCurrent");
  const auto job = dir_.write("exclude.yaml",
                              "jobs:\n  - sys_trace: true\n"
                              "    cuda_api_exclude: [cudaGetDevice, notACudaCall]\n");
  expect_error(with({"-i", job}, app()), "'notACudaCall'");
  expect_error(with({"--sys-trace", "--cuda-api-include", "cudaLaunchKernal"}, app()),
               "argument --cuda-api-include: unknown CUDA API function 'cudaLaunchKernal'");
}

// The state queries the API trace leaves out by default are functions CUPTI names (a typo there
// would leave a query recorded, silently).
TEST_F(Errors, StateQueriesAreCudaFunctions) {
  if (!rocprof::cli::cuda_api_names_known()) GTEST_SKIP() << "built without CUPTI's headers";
  for (const auto query : rocprof::common::cuda_state_queries)
    EXPECT_EQ(rocprof::cli::cuda_api_name_problem(query), "") << query;
}

TEST_F(Errors, SpmRefusals) {
  expect_error(with({"--spm", "SQ_WAVES"}, app()), "--spm needs --spm-beta-enabled");
  expect_error(with({"--spm-beta-enabled", "--spm", "SQ_WAVES", "--pmc", "SQ_WAVES"}, app()),
               "--spm cannot be combined with --pmc");
  expect_error(with({"--spm-beta-enabled", "--spm", "SQ_WAVES", "--pc-sampling-beta-enabled",
                     "--pc-sampling-method", "host_trap", "--pc-sampling-unit", "time",
                     "--pc-sampling-interval", "10"},
                    app()),
               "--spm cannot be combined with PC sampling");
  expect_error(with({"--spm-beta-enabled", "--spm", "SQ_WAVES", "--spm-sample-interval", "999",
                     "--spm-sample-interval-unit", "ns"},
                    app()),
               "below the hardware minimum of 1 us");
  expect_error(
      with({"--spm-beta-enabled", "--spm", "SQ_WAVES", "--spm-sample-interval-unit", "sclk_cycles"},
           app()),
      "sclk_cycles");
  const auto job = dir_.write("spm.yaml",
                              "jobs:\n  - spm: [SQ_WAVES]\n    spm_beta_enabled: true\n"
                              "    pmc: [SQ_WAVES]\n");
  expect_error(with({"-i", job}, app()), "--spm cannot be combined with --pmc");
}

TEST_F(Errors, MissingToolLibrary) {
  std::ostringstream out, err;
  EXPECT_EQ(
      run_rocprofv3({"--rocm-root", dir_.path(), "--kernel-trace", "--", "/usr/bin/touch", marker_},
                    out, err),
      1);
  EXPECT_NE(err.str().find("tool library not found"), std::string::npos) << err.str();
  EXPECT_NE(::access(marker_.c_str(), F_OK), 0);
}

TEST(Run, EchoPrintsWithoutRunning) {
  temp_dir dir;
  const std::string marker = dir.path() + "/launched";
  std::ostringstream out, err;
  EXPECT_EQ(run_rocprofv3({"--rocm-root", ROCPROF_TEST_BUILD_ROOT, "-d", dir.path(),
                           "--kernel-trace", "--echo", "--", "/usr/bin/touch", marker},
                          out, err),
            0);
  EXPECT_NE(out.str().find("command: ['/usr/bin/touch', '" + marker + "']"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("ROCPROF_KERNEL_TRACE=1"), std::string::npos);
  EXPECT_NE(::access(marker.c_str(), F_OK), 0);
}

TEST(Run, VersionAndHelp) {
  std::ostringstream out, err;
  EXPECT_EQ(run_rocprofv3({"--version"}, out, err), 0);
  EXPECT_NE(out.str().find("         version: "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("compiler_version: "), std::string::npos);
  std::ostringstream help, none;
  EXPECT_EQ(run_rocprofv3({"-h"}, help, none), 0);
  EXPECT_NE(help.str().find("--sys-trace"), std::string::npos);
}
