// The config JSON (results.json metadata.config, <prefix>_config.json): rocprofv3's 70 keys in
// its order and under its names (rocprofv3-facts.md §5.2), then this tool's own.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "output_stage.hpp"

namespace {

using rocprof::config::tool_settings;

const std::vector<std::string> rocprofv3_keys = {"benchmark_mode",
                                                 "kernel_trace",
                                                 "hsa_core_api_trace",
                                                 "hsa_amd_ext_api_trace",
                                                 "hsa_image_ext_api_trace",
                                                 "hsa_finalizer_ext_api_trace",
                                                 "marker_api_trace",
                                                 "memory_copy_trace",
                                                 "memory_allocation_trace",
                                                 "scratch_memory_trace",
                                                 "counter_collection",
                                                 "hip_runtime_api_trace",
                                                 "hip_compiler_api_trace",
                                                 "rccl_api_trace",
                                                 "rocdecode_api_trace",
                                                 "rocjpeg_api_trace",
                                                 "mpi_rank",
                                                 "mpi_size",
                                                 "collection_periods",
                                                 "counters",
                                                 "extra_counters_contents",
                                                 "kernel_filter_include",
                                                 "kernel_filter_exclude",
                                                 "kernel_filter_range",
                                                 "demangle",
                                                 "truncate",
                                                 "minimum_output_bytes",
                                                 "enable_signal_handlers",
                                                 "selected_regions",
                                                 "counter_groups_random_seed",
                                                 "counter_groups_interval",
                                                 "pc_sampling_host_trap",
                                                 "pc_sampling_stochastic",
                                                 "pc_sampling_method",
                                                 "pc_sampling_unit",
                                                 "pc_sampling_interval",
                                                 "pc_sampling_method_value",
                                                 "pc_sampling_unit_value",
                                                 "advanced_thread_trace",
                                                 "att_serialize_all",
                                                 "att_param_shader_engine_mask",
                                                 "att_param_buffer_size",
                                                 "att_param_simd_select",
                                                 "att_param_target_cu",
                                                 "att_library_path",
                                                 "att_param_perfcounters",
                                                 "att_param_perf_ctrl",
                                                 "output_path",
                                                 "output_file",
                                                 "tmp_directory",
                                                 "raw_output_path",
                                                 "raw_output_file",
                                                 "raw_tmp_directory",
                                                 "perfetto_shmem_size_hint",
                                                 "perfetto_buffer_size",
                                                 "perfetto_buffer_fill_policy",
                                                 "perfetto_backend",
                                                 "summary",
                                                 "summary_per_domain",
                                                 "summary_groups",
                                                 "summary_unit",
                                                 "summary_file",
                                                 "csv_output",
                                                 "json_output",
                                                 "pftrace_output",
                                                 "otf2_output",
                                                 "summary_output",
                                                 "rocpd_output",
                                                 "kernel_rename",
                                                 "group_by_queue"};

nlohmann::ordered_json config_of(const tool_settings& s) {
  return nlohmann::ordered_json::parse(rocprof::tool::settings_to_json(s));
}

TEST(ConfigJson, RocprofV3KeysFirstInItsOrder) {
  ASSERT_EQ(rocprofv3_keys.size(), 70u);
  const auto j = config_of(tool_settings{});
  std::vector<std::string> keys;
  for (const auto& item : j.items())
    keys.push_back(item.key());
  ASSERT_GE(keys.size(), rocprofv3_keys.size());
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.begin() + 70), rocprofv3_keys);
}

TEST(ConfigJson, ValuesUnderRocprofV3Names) {
  tool_settings s;
  s.domains.insert("marker_trace");
  s.summary = true;
  s.summary_per_domain = true;
  s.summary_units = "nsec";
  s.summary_output = "summary";
  s.summary_groups = {"KERNEL_DISPATCH|MEMORY_COPY", ".*_API"};
  s.output_formats = {"JSON", "PFTRACE"};
  s.kernel_include_regex = "add.*";
  s.kernel_iteration_range = "[1, [3-5]]";
  s.signal_handlers = false;
  s.collection_periods = {{10, 20, 1}};
  s.counters = {"SQ_WAVES", "GRBM_COUNT"};
  s.output_path = "/tmp/out-%pid%";
  s.pc_sampling_method = "host_trap";
  s.pc_sampling_unit = "time";
  const auto j = config_of(s);
  EXPECT_TRUE(j.at("marker_api_trace").get<bool>());
  EXPECT_TRUE(j.at("summary").get<bool>());
  EXPECT_EQ(j.at("summary_unit"), "nsec");
  EXPECT_EQ(j.at("summary_file"), "summary");
  EXPECT_EQ(j.at("summary_groups"),
            nlohmann::ordered_json({"KERNEL_DISPATCH|MEMORY_COPY", ".*_API"}));
  EXPECT_TRUE(j.at("summary_output").get<bool>());
  EXPECT_TRUE(j.at("json_output").get<bool>());
  EXPECT_TRUE(j.at("pftrace_output").get<bool>());
  EXPECT_FALSE(j.at("csv_output").get<bool>());
  EXPECT_FALSE(j.at("rocpd_output").get<bool>());
  EXPECT_EQ(j.at("kernel_filter_include"), "add.*");
  EXPECT_EQ(j.at("kernel_filter_range"), nlohmann::ordered_json({1, 3, 4, 5}));
  EXPECT_FALSE(j.at("enable_signal_handlers").get<bool>());
  EXPECT_EQ(j.at("collection_periods").at("container").at(0).at("duration"), 20);
  EXPECT_EQ(j.at("counters"), nlohmann::ordered_json::array({{"SQ_WAVES", "GRBM_COUNT"}}));
  EXPECT_EQ(j.at("raw_output_path"), "/tmp/out-%pid%");
  EXPECT_EQ(j.at("output_path").get<std::string>().find('%'), std::string::npos);
  EXPECT_TRUE(j.at("pc_sampling_host_trap").get<bool>());
  EXPECT_EQ(j.at("pc_sampling_method_value"), 2);
  EXPECT_EQ(j.at("pc_sampling_unit_value"), 3);
  EXPECT_EQ(j.at("att_param_buffer_size"), 268435456);
  // None of the names this tool used before rocprofv3's.
  for (const char* old : {"summary_units", "signal_handlers", "collection_period",
                          "kernel_include_regex", "kernel_iteration_range"})
    EXPECT_FALSE(j.contains(old)) << old;
}

// Our own options follow rocprofv3's keys: the CUDA API function lists as lists.
TEST(ConfigJson, CudaApiFunctionLists) {
  tool_settings s;
  s.cuda_api_include = {"cudaLaunchKernel", "cudaMemcpy"};
  s.cuda_api_exclude = {"cudaMemcpy"};
  const auto j = config_of(s);
  EXPECT_EQ(j.at("cuda_api_include"), nlohmann::ordered_json({"cudaLaunchKernel", "cudaMemcpy"}));
  EXPECT_EQ(j.at("cuda_api_exclude"), nlohmann::ordered_json({"cudaMemcpy"}));
  EXPECT_EQ(config_of(tool_settings{}).at("cuda_api_include"), nlohmann::ordered_json::array());
  EXPECT_EQ(config_of(tool_settings{}).at("cuda_api_queries"), false);
  s.cuda_api_queries = true;
  EXPECT_EQ(config_of(s).at("cuda_api_queries"), true);
}

}  // namespace
