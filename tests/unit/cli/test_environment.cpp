#include <gtest/gtest.h>

#include <filesystem>

#include "command_line.hpp"
#include "environment.hpp"
#include "passes.hpp"
#include "rocprof/test_support/test_env.hpp"

using namespace rocprof::cli;
using rocprof::test_support::temp_dir;

namespace {

struct env_case {
  environment base;
  tool_paths paths{"/opt/prof"};
};

pass_environment_result env_of(std::vector<std::string> args, const env_case& setup = {}) {
  const auto passes = build_passes(parse_command_line(args));
  pass_environment_input input;
  input.config = &passes.front().config;
  input.output_path = "/out";
  input.paths = setup.paths;
  input.base = &setup.base;
  return build_pass_environment(input);
}

std::string get(const pass_environment_result& result, const std::string& name) {
  const auto it = result.changes.find(name);
  return it == result.changes.end() ? "<unset>" : it->second;
}

}  // namespace

TEST(Environment, AlwaysSet) {
  const auto env = env_of({"--kernel-trace"});
  EXPECT_EQ(get(env, "ROCPROFILER_LIBRARY_CTOR"), "1");
  EXPECT_EQ(get(env, "ROCPROF_OUTPUT_PATH"), "/out");
  EXPECT_EQ(get(env, "ROCPROF_KERNEL_TRACE"), "1");
  EXPECT_EQ(get(env, "LD_PRELOAD"), "/opt/prof/lib/rocprofiler-sdk/librocprofiler-sdk-tool.so");
  EXPECT_EQ(get(env, "ROCP_TOOL_LIBRARIES"), get(env, "LD_PRELOAD"));
  EXPECT_EQ(get(env, "NVTX_INJECTION64_PATH"), "<unset>");
  EXPECT_EQ(get(env, "ROCPROF_MEMORY_COPY_TRACE"), "<unset>");
  // False flags write nothing: the tool's default is false.
  EXPECT_EQ(get(env_of({"--kernel-trace=no"}), "ROCPROF_KERNEL_TRACE"), "<unset>");
}

TEST(Environment, PreloadOrder) {
  env_case setup;
  setup.base["LD_PRELOAD"] = "/usr/lib/libexisting.so";
  setup.base["ROCP_TOOL_LIBRARIES"] = "/other/tool.so";
  const auto env = env_of({"--preload", "/lib/asan.so", "/lib/b.so", "--kernel-trace"}, setup);
  EXPECT_EQ(get(env, "LD_PRELOAD"),
            "/lib/asan.so:/lib/b.so:/usr/lib/libexisting.so:"
            "/opt/prof/lib/rocprofiler-sdk/librocprofiler-sdk-tool.so");
  EXPECT_EQ(get(env, "ROCP_TOOL_LIBRARIES"),
            "/other/tool.so:/opt/prof/lib/rocprofiler-sdk/librocprofiler-sdk-tool.so");
  // $ROCPROF_PRELOAD is the default of --preload.
  env_case from_env;
  from_env.base["ROCPROF_PRELOAD"] = "/x.so:/y.so";
  EXPECT_EQ(get(env_of({"--kernel-trace"}, from_env), "LD_PRELOAD").rfind("/x.so:/y.so:", 0), 0u);
}

TEST(Environment, MarkersKokkosAndCuda) {
  temp_dir dir;
  std::filesystem::create_directories(dir.path() + "/lib/rocprofiler-sdk");
  dir.write("lib/librocprofiler-sdk-roctx.so", "");
  env_case setup;
  setup.paths.root = dir.path();
  const auto markers = env_of({"--marker-trace"}, setup);
  const std::string tool = dir.path() + "/lib/rocprofiler-sdk/librocprofiler-sdk-tool.so";
  EXPECT_EQ(get(markers, "NVTX_INJECTION64_PATH"), tool);
  EXPECT_EQ(get(markers, "LD_PRELOAD"),
            tool + ":" + dir.path() + "/lib/librocprofiler-sdk-roctx.so");
  EXPECT_EQ(get(env_of({"--marker-trace", "--suppress-marker-preload"}, setup), "LD_PRELOAD"),
            tool);

  const auto kokkos = env_of({"--kokkos-trace"}, setup);
  const std::string kokkosp =
      dir.path() + "/lib/rocprofiler-sdk/librocprofiler-sdk-tool-kokkosp.so";
  EXPECT_EQ(get(kokkos, "KOKKOS_TOOLS_LIBS"), kokkosp);
  EXPECT_EQ(get(kokkos, "KOKKOS_PROFILE_LIBRARY"), kokkosp);
  EXPECT_EQ(get(kokkos, "ROCPROF_KOKKOS_TRACE"), "1");
  EXPECT_EQ(get(kokkos, "ROCPROF_MARKER_API_TRACE"), "1");
  EXPECT_EQ(get(kokkos, "ROCPROF_KERNEL_RENAME"), "1");

  // CUDA plugin absent: a warning and no injection variable.
  const auto missing = env_of({"--cuda-trace"}, setup);
  EXPECT_EQ(get(missing, "CUDA_INJECTION64_PATH"), "<unset>");
  ASSERT_EQ(missing.warnings.size(), 1u);
  EXPECT_NE(missing.warnings[0].find("librocprofiler-sdk-cuda.so"), std::string::npos);
  // Present: set for CUDA domains, kernel/memory tracing and counters, not for markers alone.
  dir.write("lib/rocprofiler-sdk/librocprofiler-sdk-cuda.so", "");
  const std::string plugin = dir.path() + "/lib/rocprofiler-sdk/librocprofiler-sdk-cuda.so";
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"--cuda-runtime-trace"},
                                             {"--cuda-driver-trace"},
                                             {"--kernel-trace"},
                                             {"--memory-copy-trace"},
                                             {"--memory-allocation-trace"},
                                             {"--pmc", "A"}}) {
    EXPECT_EQ(get(env_of(args, setup), "CUDA_INJECTION64_PATH"), plugin) << args[0];
  }
  EXPECT_EQ(get(env_of({"--marker-trace"}, setup), "CUDA_INJECTION64_PATH"), "<unset>");
  const auto cuda = env_of({"--cuda-trace"}, setup);
  EXPECT_EQ(get(cuda, "ROCPROF_CUDA_RUNTIME_API_TRACE"), "1");
  EXPECT_EQ(get(cuda, "ROCPROF_CUDA_DRIVER_API_TRACE"), "1");
}

// The CUDA plugin's switches reach it through the environment, like --cuda-nested-driver-trace.
TEST(Environment, CudaApiRecordsSwitch) {
  EXPECT_EQ(get(env_of({"--sys-trace", "--cuda-api-records"}), "ROCPROF_CUDA_API_RECORDS"), "1");
  // The default wherever CUDA API calls are traced (issue 15); --cuda-api-args and
  // --cuda-api-records=no ask for callbacks, and nothing is set without CUDA API tracing.
  EXPECT_EQ(get(env_of({"--sys-trace"}), "ROCPROF_CUDA_API_RECORDS"), "1");
  for (const char* option :
       {"--cuda-trace", "--cuda-runtime-trace", "--cuda-driver-trace", "--runtime-trace"})
    EXPECT_EQ(get(env_of({option}), "ROCPROF_CUDA_API_RECORDS"), "1") << option;
  EXPECT_EQ(get(env_of({"--kernel-trace"}), "ROCPROF_CUDA_API_RECORDS"), "<unset>");
  EXPECT_EQ(get(env_of({"--sys-trace", "--cuda-api-args"}), "ROCPROF_CUDA_API_RECORDS"), "<unset>");
  EXPECT_EQ(get(env_of({"--sys-trace", "--cuda-api-records=no"}), "ROCPROF_CUDA_API_RECORDS"),
            "<unset>");
  EXPECT_EQ(get(env_of({"--kernel-trace", "--cuda-api-records"}), "ROCPROF_CUDA_API_RECORDS"), "1");
  EXPECT_EQ(get(env_of({"--sys-trace", "--cuda-nested-driver-trace", "--cuda-api-records"}),
                "ROCPROF_CUDA_NESTED_DRIVER_API"),
            "1");
}

// API calls come from CUPTI's API records by default (nothing to set); --cuda-api-args asks the
// plugin for a callback per call with arguments. Both together contradict each other.
TEST(Environment, CudaApiArgsSwitch) {
  EXPECT_EQ(get(env_of({"--sys-trace"}), "ROCPROF_CUDA_API_ARGS"), "<unset>");
  for (const char* form : {"--cuda-api-args", "--cuda-api-args=yes", "--cuda-api-args=1"}) {
    const auto env = env_of({"--sys-trace", form});
    EXPECT_EQ(get(env, "ROCPROF_CUDA_API_ARGS"), "1") << form;
    EXPECT_EQ(get(env, "ROCPROF_CUDA_API_RECORDS"), "<unset>") << form;
  }
  EXPECT_EQ(get(env_of({"--sys-trace", "--cuda-api-args=no"}), "ROCPROF_CUDA_API_ARGS"), "<unset>");
  EXPECT_EQ(get(env_of({"--cuda-runtime-trace", "--cuda-api-args"}), "ROCPROF_CUDA_API_ARGS"), "1");
  EXPECT_THROW(env_of({"--sys-trace", "--cuda-api-args=maybe"}), usage_error);
  try {
    env_of({"--sys-trace", "--cuda-api-records", "--cuda-api-args"});
    ADD_FAILURE() << "--cuda-api-records with --cuda-api-args was accepted";
  } catch (const usage_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("--cuda-api-records"), std::string::npos) << message;
    EXPECT_NE(message.find("--cuda-api-args"), std::string::npos) << message;
  }
  // One of them switched off is no conflict.
  EXPECT_EQ(get(env_of({"--sys-trace", "--cuda-api-records=no", "--cuda-api-args"}),
                "ROCPROF_CUDA_API_ARGS"),
            "1");
  EXPECT_EQ(get(env_of({"--sys-trace", "--cuda-api-records", "--cuda-api-args=no"}),
                "ROCPROF_CUDA_API_RECORDS"),
            "1");
}

TEST(Environment, ValueForms) {
  temp_dir dir;
  const auto extra = dir.write("extra.yaml", "MY_COUNTER:\n  expression: A+B\n");
  env_case setup;
  setup.base["ROCPROF_OUTPUT_FORMAT"] = "json";
  const auto env = env_of({"--kernel-trace",
                           "-f",
                           "csv",
                           "pftrace",
                           "--pmc",
                           "A",
                           "B",
                           "-M",
                           "-T",
                           "--disable-signal-handlers",
                           "--minimum-output-data",
                           "3",
                           "--summary-groups",
                           "A.*",
                           "B",
                           "--kernel-iteration-range",
                           "1",
                           "[3-4]",
                           "-P",
                           "1:2.5:3",
                           "0:1:0",
                           "--collection-period-unit",
                           "msec",
                           "--log-level",
                           "warning",
                           "-E",
                           extra,
                           "--summary-output-file",
                           "STDOUT",
                           "-u",
                           "usec",
                           "-o",
                           "%hostname%/out",
                           "-A",
                           "absolute",
                           "--perfetto-buffer-fill-policy",
                           "ring_buffer",
                           "--att-target-cu",
                           "0x2",
                           "--kernel-include-regex",
                           "gemm",
                           "--group-by-queue",
                           "--output-config",
                           "--stats",
                           "-S",
                           "-D",
                           "--selected-regions"},
                          setup);
  EXPECT_EQ(get(env, "ROCPROF_OUTPUT_FORMAT"), "json,csv,pftrace");  // appended
  EXPECT_EQ(get(env, "ROCPROF_COUNTER_COLLECTION"), "1");
  EXPECT_EQ(get(env, "ROCPROF_COUNTERS"), "pmc: A B");
  EXPECT_EQ(get(env, "ROCPROF_DEMANGLE_KERNELS"), "0");
  EXPECT_EQ(get(env, "ROCPROF_TRUNCATE_KERNELS"), "1");
  EXPECT_EQ(get(env, "ROCPROF_SIGNAL_HANDLERS"), "0");
  EXPECT_EQ(get(env, "ROCPROF_MINIMUM_OUTPUT_BYTES"), "3072");
  EXPECT_EQ(get(env, "ROCPROF_STATS_SUMMARY_GROUPS"), "A.*##@@##B");
  EXPECT_EQ(get(env, "ROCPROF_KERNEL_FILTER_RANGE"), "1, [3-4]");
  EXPECT_EQ(get(env, "ROCPROF_COLLECTION_PERIOD"), "1000000:2500000:3;0:1000000:0");
  for (const char* name : {"ROCPROF_LOG_LEVEL", "ROCPROFILER_LOG_LEVEL", "ROCTX_LOG_LEVEL"}) {
    EXPECT_EQ(get(env, name), "warning");
  }
  EXPECT_EQ(get(env, "ROCPROF_EXTRA_COUNTERS_CONTENTS"), "MY_COUNTER:\n  expression: A+B\n");
  EXPECT_EQ(get(env, "ROCPROF_STATS_SUMMARY_OUTPUT"), "stdout");
  EXPECT_EQ(get(env, "ROCPROF_STATS_SUMMARY_UNITS"), "usec");
  EXPECT_EQ(get(env, "ROCPROF_OUTPUT_FILE_NAME"), "%hostname%/out");
  EXPECT_EQ(get(env, "ROCPROF_AGENT_INDEX"), "absolute");
  EXPECT_EQ(get(env, "ROCPROF_PERFETTO_BUFFER_FILL_POLICY"), "ring_buffer");
  EXPECT_EQ(get(env, "ROCPROF_ATT_PARAM_TARGET_CU"), "2");
  EXPECT_EQ(get(env_of({"--att", "--att-perfcounters", "sq_waves:0x1", "grbm_count"}),
                "ROCPROF_ATT_PARAM_PERFCOUNTERS"),
            "SQ_WAVES:0X1 GRBM_COUNT");
  EXPECT_EQ(get(env, "ROCPROF_KERNEL_FILTER_INCLUDE_REGEX"), "gemm");
  for (const char* name :
       {"ROCPROF_GROUP_BY_QUEUE", "ROCPROF_OUTPUT_CONFIG_FILE", "ROCPROF_STATS",
        "ROCPROF_STATS_SUMMARY", "ROCPROF_STATS_SUMMARY_PER_DOMAIN", "ROCPROF_SELECTED_REGIONS"}) {
    EXPECT_EQ(get(env, name), "1") << name;
  }
  // env/config log levels are for the CLI only.
  EXPECT_EQ(get(env_of({"--kernel-trace", "--log-level", "env"}), "ROCPROF_LOG_LEVEL"), "<unset>");
  // The ATT activity preset, PMC groups and their interval.
  const auto att = env_of({"--att", "--att-activity", "8"});
  EXPECT_EQ(get(att, "ROCPROF_ADVANCED_THREAD_TRACE"), "1");
  EXPECT_EQ(get(att, "ROCPROF_ATT_PARAM_PERFCOUNTER_CTRL"), "8");
  EXPECT_NE(get(att, "ROCPROF_ATT_PARAM_PERFCOUNTERS").find("SQ_BUSY_CU_CYCLES"),
            std::string::npos);
  const auto groups =
      dir.write("g.yaml", "jobs:\n  - pmc_groups: [[A, B], [C]]\n    pmc_group_interval: 5\n");
  const auto grouped = env_of({"-i", groups});
  EXPECT_EQ(get(grouped, "ROCPROF_COUNTER_GROUPS"), "pmc: A B\npmc: C");
  EXPECT_EQ(get(grouped, "ROCPROF_COUNTER_GROUPS_INTERVAL"), "5");
  EXPECT_EQ(get(grouped, "ROCPROF_COUNTER_COLLECTION"), "1");
  // PC sampling, complete.
  const auto pc = env_of({"--pc-sampling-beta-enabled", "--pc-sampling-unit", "time",
                          "--pc-sampling-method", "host_trap", "--pc-sampling-interval", "10"});
  EXPECT_EQ(get(pc, "ROCPROFILER_PC_SAMPLING_BETA_ENABLED"), "1");
  EXPECT_EQ(get(pc, "ROCPROF_PC_SAMPLING_UNIT"), "time");
  EXPECT_EQ(get(pc, "ROCPROF_PC_SAMPLING_METHOD"), "host_trap");
  EXPECT_EQ(get(pc, "ROCPROF_PC_SAMPLING_INTERVAL"), "10");
  // SPM, on the command line and as job keys.
  const auto spm = env_of(
      {"--spm-beta-enabled", "--spm", "SQ_WAVES", "GRBM_COUNT", "--spm-sample-interval", "10"});
  EXPECT_EQ(get(spm, "ROCPROFILER_SPM_BETA_ENABLED"), "1");
  EXPECT_EQ(get(spm, "ROCPROF_SPM_COUNTER_COLLECTION"), "1");
  EXPECT_EQ(get(spm, "ROCPROF_SPM_COUNTERS"), "spm: SQ_WAVES GRBM_COUNT");
  EXPECT_EQ(get(spm, "ROCPROF_SPM_SAMPLE_INTERVAL"), "10");
  const auto spm_job = dir.write("spm.yaml",
                                 "jobs:\n  - spm: [SQ_WAVES]\n    spm_beta_enabled: true\n"
                                 "    spm_sample_interval: 2000\n"
                                 "    spm_sample_interval_unit: ns\n");
  const auto from_job = env_of({"-i", spm_job});
  EXPECT_EQ(get(from_job, "ROCPROF_SPM_COUNTERS"), "spm: SQ_WAVES");
  EXPECT_EQ(get(from_job, "ROCPROF_SPM_SAMPLE_INTERVAL_UNIT"), "ns");
}

TEST(Environment, BadHandOffValues) {
  EXPECT_THROW(env_of({"-P", "1:2"}), usage_error);
  EXPECT_THROW(env_of({"-P", "a:b:c"}), usage_error);
  EXPECT_THROW(env_of({"-E", "/nonexistent/extra.yaml"}), usage_error);
}
