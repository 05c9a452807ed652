#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "rocprof/config/schema.hpp"
#include "rocprof/config/tool_settings.hpp"

using namespace rocprof::config;

namespace {

// A fixed environment: the reader is exercised through its real lookup hook.
read_result read(const std::map<std::string, std::string>& env) {
  return read_tool_settings([&env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

}  // namespace

TEST(ToolSettings, DefaultsComeFromTheSchema) {
  const auto result = read({});
  EXPECT_TRUE(result.errors.empty());
  EXPECT_TRUE(result.warnings.empty());
  const auto& s = result.settings;
  EXPECT_FALSE(s.traces("kernel_trace"));
  EXPECT_FALSE(s.traces("cuda_runtime_trace"));
  EXPECT_TRUE(s.domains.empty());
  EXPECT_EQ(s.output_path, option("output_directory").default_value);
  EXPECT_EQ(s.output_path, "%cwd%");
  EXPECT_EQ(s.output_file, "%hostname%/%pid%");
  EXPECT_EQ(s.tmp_directory, s.output_path);
  EXPECT_EQ(s.output_formats, std::vector<std::string>{"ROCPD"});
  EXPECT_TRUE(s.demangle);
  EXPECT_TRUE(s.signal_handlers);
  EXPECT_EQ(s.kernel_include_regex, ".*");
  EXPECT_EQ(s.summary_output, "stderr");
  EXPECT_EQ(s.summary_units, "nsec");
  EXPECT_EQ(s.agent_index, "relative");
  EXPECT_EQ(s.perfetto_backend, "inprocess");
  EXPECT_EQ(s.perfetto_buffer_size_kb, 1048576u);
  EXPECT_EQ(s.perfetto_shmem_size_hint_kb, 64u);
  EXPECT_EQ(s.perfetto_buffer_fill_policy, "discard");
  EXPECT_EQ(s.counter_groups_interval, 1u);
  EXPECT_EQ(s.pc_sampling_interval, 1u);
  EXPECT_TRUE(s.counters.empty());
  EXPECT_TRUE(s.collection_periods.empty());
}

TEST(ToolSettings, EveryTracingVariable) {
  // Tracing domains land in the settings' set under their schema key; the other flags in
  // their own members.
  const std::map<std::string, std::string> domains = {
      {"ROCPROF_KERNEL_TRACE", "kernel_trace"},
      {"ROCPROF_MEMORY_COPY_TRACE", "memory_copy_trace"},
      {"ROCPROF_MEMORY_ALLOCATION_TRACE", "memory_allocation_trace"},
      {"ROCPROF_SCRATCH_MEMORY_TRACE", "scratch_memory_trace"},
      {"ROCPROF_MARKER_API_TRACE", "marker_trace"},
      {"ROCPROF_HIP_RUNTIME_API_TRACE", "hip_runtime_trace"},
      {"ROCPROF_HIP_COMPILER_API_TRACE", "hip_compiler_trace"},
      {"ROCPROF_HSA_CORE_API_TRACE", "hsa_core_trace"},
      {"ROCPROF_HSA_AMD_EXT_API_TRACE", "hsa_amd_trace"},
      {"ROCPROF_HSA_IMAGE_EXT_API_TRACE", "hsa_image_trace"},
      {"ROCPROF_HSA_FINALIZER_EXT_API_TRACE", "hsa_finalizer_trace"},
      {"ROCPROF_RCCL_API_TRACE", "rccl_trace"},
      {"ROCPROF_ROCDECODE_API_TRACE", "rocdecode_trace"},
      {"ROCPROF_ROCJPEG_API_TRACE", "rocjpeg_trace"},
      {"ROCPROF_CUDA_RUNTIME_API_TRACE", "cuda_runtime_trace"},
      {"ROCPROF_CUDA_DRIVER_API_TRACE", "cuda_driver_trace"},
      {"ROCPROF_KOKKOS_TRACE", "kokkos_trace"},
  };
  const std::map<std::string, bool tool_settings::*> flags = {
      {"ROCPROF_COUNTER_COLLECTION", &tool_settings::counter_collection},
      {"ROCPROF_OUTPUT_CONFIG_FILE", &tool_settings::output_config},
      {"ROCPROF_TRUNCATE_KERNELS", &tool_settings::truncate},
      {"ROCPROF_KERNEL_RENAME", &tool_settings::kernel_rename},
      {"ROCPROF_KERNEL_HOST_CALLSTACK", &tool_settings::kernel_host_callstack},
      {"ROCPROF_GROUP_BY_QUEUE", &tool_settings::group_by_queue},
      {"ROCPROF_STATS", &tool_settings::stats},
      {"ROCPROF_STATS_SUMMARY", &tool_settings::summary},
      {"ROCPROF_STATS_SUMMARY_PER_DOMAIN", &tool_settings::summary_per_domain},
      {"ROCPROF_COLLECTION_PERIOD_TESTING", &tool_settings::collection_period_testing},
      {"ROCPROF_SELECTED_REGIONS", &tool_settings::selected_regions},
      {"ROCPROF_ADVANCED_THREAD_TRACE", &tool_settings::advanced_thread_trace},
  };
  const auto defaults = read({}).settings;
  const auto only_changes = [&](const tool_settings& s, const std::string& name) {
    for (const auto& [other, other_member] : flags) {
      if (other != name) {
        EXPECT_EQ(s.*other_member, defaults.*other_member) << name << " vs " << other;
      }
    }
  };
  for (const auto& [name, key] : domains) {
    EXPECT_TRUE(read({{name, "1"}}).settings.traces(key)) << name;
    EXPECT_TRUE(read({{name, "yes"}}).settings.traces(key)) << name;
    EXPECT_FALSE(read({{name, "off"}}).settings.traces(key)) << name;
    // Only this variable changes.
    const auto on = read({{name, "1"}}).settings;
    EXPECT_EQ(on.domains, (std::set<std::string, std::less<>>{key})) << name;
    only_changes(on, "");
  }
  for (const auto& [name, member] : flags) {
    EXPECT_TRUE(read({{name, "1"}}).settings.*member) << name;
    EXPECT_TRUE(read({{name, "yes"}}).settings.*member) << name;
    EXPECT_FALSE(read({{name, "off"}}).settings.*member) << name;
    // Only this variable changes.
    const auto on = read({{name, "1"}}).settings;
    EXPECT_TRUE(on.domains.empty()) << name;
    only_changes(on, name);
  }
}

TEST(ToolSettings, DomainsAreTheSchemasTracingDomains) {
  // Every row marked as a tracing domain is read into the set, and nothing else is.
  std::map<std::string, std::string> all;
  size_t rows = 0;
  for (const auto& spec : schema()) {
    if (!spec.domain) continue;
    ++rows;
    all[std::string(spec.env)] = "1";
  }
  const auto s = read(all).settings;
  EXPECT_EQ(s.domains.size(), rows);
  for (const auto& spec : schema()) {
    EXPECT_EQ(s.traces(spec.key), spec.domain) << spec.key;
  }
}

TEST(ToolSettings, EmptyPathsAndNamesMeanTheDefaults) {
  const auto s = read({{"ROCPROF_OUTPUT_PATH", ""}, {"ROCPROF_OUTPUT_FILE_NAME", ""}}).settings;
  EXPECT_EQ(s.output_path, "%cwd%");
  EXPECT_EQ(s.output_file, "%hostname%/%pid%");
  // A default-made settings object (the tool's tests) has them too, and the default format.
  const tool_settings made;
  EXPECT_EQ(made.output_path, s.output_path);
  EXPECT_EQ(made.output_file, s.output_file);
  EXPECT_EQ(made.output_formats, std::vector<std::string>{"ROCPD"});
}

TEST(ToolSettings, NegatedVariables) {
  EXPECT_FALSE(read({{"ROCPROF_DEMANGLE_KERNELS", "0"}}).settings.demangle);
  EXPECT_FALSE(read({{"ROCPROF_SIGNAL_HANDLERS", "0"}}).settings.signal_handlers);
  EXPECT_TRUE(read({{"ROCPROF_SIGNAL_HANDLERS", "1"}}).settings.signal_handlers);
}

TEST(ToolSettings, SpmCountersAndInterval) {
  const auto off = read({{"ROCPROF_SPM_COUNTERS", "spm: SQ_WAVES"}});
  EXPECT_TRUE(off.settings.spm_counters.empty()) << "only with ROCPROF_SPM_COUNTER_COLLECTION";
  const auto us = read({{"ROCPROF_SPM_COUNTER_COLLECTION", "1"},
                        {"ROCPROF_SPM_COUNTERS", "spm: SQ_WAVES dram__bytes_read.sum"},
                        {"ROCPROF_SPM_SAMPLE_INTERVAL", "10"}});
  EXPECT_EQ(us.settings.spm_counters,
            (std::vector<std::string>{"SQ_WAVES", "dram__bytes_read.sum"}));
  EXPECT_EQ(us.settings.spm_interval_ns, 10000u);
  const auto ns = read({{"ROCPROF_SPM_COUNTER_COLLECTION", "1"},
                        {"ROCPROF_SPM_COUNTERS", "spm: SQ_WAVES"},
                        {"ROCPROF_SPM_SAMPLE_INTERVAL", "2500"},
                        {"ROCPROF_SPM_SAMPLE_INTERVAL_UNIT", "ns"}});
  EXPECT_EQ(ns.settings.spm_interval_ns, 2500u);
}

TEST(ToolSettings, ValuesListsAndPeriods) {
  const auto result = read({
      {"ROCPROF_OUTPUT_PATH", "/out/%hostname%"},
      {"ROCPROF_OUTPUT_FILE_NAME", "run_%pid%"},
      {"ROCPROF_TMPDIR", "/scratch"},
      {"ROCPROF_OUTPUT_FORMAT", "csv,JSON;pftrace otf2:rocpd,csv"},
      {"ROCPROF_COUNTERS", "pmc: SQ_WAVES GRBM_COUNT"},
      {"ROCPROF_COUNTER_GROUPS", "pmc: A B\npmc: C"},
      {"ROCPROF_COUNTER_GROUPS_INTERVAL", "4"},
      {"ROCPROF_EXTRA_COUNTERS_CONTENTS", "X: {}"},
      {"ROCPROF_MINIMUM_OUTPUT_BYTES", "2048"},
      {"ROCPROF_KERNEL_FILTER_INCLUDE_REGEX", "gemm"},
      {"ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX", "copy"},
      {"ROCPROF_KERNEL_FILTER_RANGE", "[1, [3-5]]"},
      {"ROCPROF_CUDA_API_INCLUDE", "cudaLaunchKernel"},
      {"ROCPROF_CUDA_API_EXCLUDE", "cudaGetDevice,cuCtxGetCurrent cuKernelGetAttribute"},
      {"ROCPROF_CUDA_API_QUERIES", "1"},
      {"ROCPROF_AGENT_INDEX", "type-relative"},
      {"ROCPROF_STATS_SUMMARY_GROUPS", "KERNEL_DISPATCH|MEMORY_COPY##@@##.*_API"},
      {"ROCPROF_STATS_SUMMARY_OUTPUT", "summary"},
      {"ROCPROF_STATS_SUMMARY_UNITS", "MSEC"},
      {"ROCPROF_COLLECTION_PERIOD", "0:1000000000:1;5:6:0"},
      {"ROCPROF_PC_SAMPLING_METHOD", "host_trap"},
      {"ROCPROF_PC_SAMPLING_UNIT", "time"},
      {"ROCPROF_PC_SAMPLING_INTERVAL", "100"},
      {"ROCPROF_PERFETTO_BACKEND", "system"},
      {"ROCPROF_PERFETTO_BUFFER_SIZE_KB", "4096"},
      {"ROCPROF_PERFETTO_SHMEM_SIZE_HINT_KB", "128"},
      {"ROCPROF_PERFETTO_BUFFER_FILL_POLICY", "ring_buffer"},
      {"ROCPROF_BENCHMARK_MODE", "execution-profile"},
      {"ROCPROF_LOG_LEVEL", "info"},
  });
  ASSERT_TRUE(result.errors.empty()) << result.errors.front();
  const auto& s = result.settings;
  EXPECT_EQ(s.output_path, "/out/%hostname%");
  EXPECT_EQ(s.output_file, "run_%pid%");
  EXPECT_EQ(s.tmp_directory, "/scratch");
  EXPECT_EQ(s.output_formats,
            (std::vector<std::string>{"CSV", "JSON", "PFTRACE", "OTF2", "ROCPD"}));
  EXPECT_EQ(s.counters, (std::vector<std::string>{"SQ_WAVES", "GRBM_COUNT"}));
  ASSERT_EQ(s.counter_groups.size(), 2u);
  EXPECT_EQ(s.counter_groups[0], (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(s.counter_groups[1], (std::vector<std::string>{"C"}));
  EXPECT_EQ(s.counter_groups_interval, 4u);
  EXPECT_EQ(s.extra_counters_contents, "X: {}");
  EXPECT_EQ(s.minimum_output_bytes, 2048u);
  EXPECT_EQ(s.kernel_include_regex, "gemm");
  EXPECT_EQ(s.kernel_exclude_regex, "copy");
  EXPECT_EQ(s.kernel_iteration_range, "[1, [3-5]]");
  EXPECT_EQ(s.cuda_api_include, std::vector<std::string>{"cudaLaunchKernel"});
  EXPECT_EQ(s.cuda_api_exclude,
            (std::vector<std::string>{"cudaGetDevice", "cuCtxGetCurrent", "cuKernelGetAttribute"}));
  EXPECT_TRUE(s.cuda_api_queries);
  EXPECT_EQ(s.agent_index, "type-relative");
  EXPECT_EQ(s.summary_groups, (std::vector<std::string>{"KERNEL_DISPATCH|MEMORY_COPY", ".*_API"}));
  EXPECT_EQ(s.summary_output, "summary");
  EXPECT_EQ(s.summary_units, "msec");
  ASSERT_EQ(s.collection_periods.size(), 2u);
  EXPECT_EQ(s.collection_periods[0].duration_ns, 1000000000u);
  EXPECT_EQ(s.collection_periods[0].repeat, 1u);
  EXPECT_EQ(s.collection_periods[1].delay_ns, 5u);
  EXPECT_EQ(s.pc_sampling_method, "host_trap");
  EXPECT_EQ(s.pc_sampling_unit, "time");
  EXPECT_EQ(s.pc_sampling_interval, 100u);
  EXPECT_EQ(s.perfetto_backend, "system");
  EXPECT_EQ(s.perfetto_buffer_size_kb, 4096u);
  EXPECT_EQ(s.perfetto_shmem_size_hint_kb, 128u);
  EXPECT_EQ(s.perfetto_buffer_fill_policy, "ring_buffer");
  EXPECT_EQ(s.benchmark_mode, "execution-profile");
  EXPECT_EQ(s.log_level, "info");
}

TEST(ToolSettings, CounterReplayAndIterations) {
  const auto result = read({{"ROCPROF_KERNEL_REPLAY", "1"},
                            {"ROCPROF_COUNTERS", "pmc: smsp__inst_executed.sum, SQ_WAVES:device=1"},
                            {"ROCPROF_KERNEL_FILTER_RANGE", "[2, [5-6]]"}});
  EXPECT_TRUE(result.errors.empty());
  const auto& s = result.settings;
  EXPECT_TRUE(s.kernel_replay);
  EXPECT_EQ(s.counters, (std::vector<std::string>{"smsp__inst_executed.sum", "SQ_WAVES:device=1"}));
  EXPECT_TRUE(s.kernel_iterations.includes(6));
  EXPECT_FALSE(s.kernel_iterations.includes(3));
  EXPECT_FALSE(read({}).settings.kernel_replay);
  EXPECT_TRUE(read({}).settings.kernel_iterations.intervals.empty());
  const auto bad = read({{"ROCPROF_KERNEL_FILTER_RANGE", "[1-"}});
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_NE(bad.errors[0].find("ROCPROF_KERNEL_FILTER_RANGE"), std::string::npos);
}

TEST(ToolSettings, ErrorsNameTheVariable) {
  const auto bad_bool = read({{"ROCPROF_KERNEL_TRACE", ""}});
  ASSERT_EQ(bad_bool.errors.size(), 1u);
  EXPECT_NE(bad_bool.errors[0].find("ROCPROF_KERNEL_TRACE"), std::string::npos);

  for (const char* name :
       {"ROCPROF_STATS_SUMMARY_UNITS", "ROCPROF_PERFETTO_BACKEND", "ROCPROF_PC_SAMPLING_METHOD",
        "ROCPROF_PC_SAMPLING_UNIT", "ROCPROF_AGENT_INDEX", "ROCPROF_OUTPUT_FORMAT",
        "ROCPROF_COLLECTION_PERIOD"}) {
    const auto result = read({{name, "bogus"}});
    ASSERT_EQ(result.errors.size(), 1u) << name;
    EXPECT_NE(result.errors[0].find(name), std::string::npos) << result.errors[0];
  }
  EXPECT_EQ(read({{"ROCPROF_COUNTER_GROUPS_INTERVAL", "0"}}).errors.size(), 1u);
}

TEST(ToolSettings, BadIntegerWarnsAndKeepsDefault) {
  const auto result = read({{"ROCPROF_PERFETTO_BUFFER_SIZE_KB", "0x10"}});
  EXPECT_TRUE(result.errors.empty());
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_NE(result.warnings[0].find("ROCPROF_PERFETTO_BUFFER_SIZE_KB"), std::string::npos);
  EXPECT_EQ(result.settings.perfetto_buffer_size_kb, 1048576u);
}

TEST(ToolSettings, DefaultLookupIsGetenv) {
  ::setenv("ROCPROF_KERNEL_TRACE", "1", 1);
  EXPECT_TRUE(read_tool_settings().settings.traces("kernel_trace"));
  ::unsetenv("ROCPROF_KERNEL_TRACE");
  EXPECT_FALSE(read_tool_settings().settings.traces("kernel_trace"));
}
