// JSON writers: results.json (streamed) and config.json, parsed by Python's json module with
// counts computed from the synthetic trace.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/api_args.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;

TEST(json_writer, results_and_config_read_back_by_python_json) {
  ASSERT_TRUE(ts::have_program("python3")) << ts::missing_reader("python3");
  ts::temp_dir dir{"json"};
  ts::synthetic_options so;
  so.records_per_kind = 400;
  auto t = ts::make_synthetic_trace(so);
  trace::output_options o;
  o.output_directory = dir.path();
  o.file_prefix = "out";
  o.stats = true;
  std::string error;
  for (const char* name : {"json", "config"}) {
    auto w = trace::make_writer(name, o, &error);
    ASSERT_TRUE(w) << error;
    ASSERT_EQ(ts::write_synthetic_trace(*w, t, 64), "") << name;
  }

  nlohmann::json buffer_records = nlohmann::json::object();
  size_t marker_strings = 0;
  for (const auto& r : t.api) {
    auto key = std::string{trace::info(r.domain).json_key};
    buffer_records[key] = buffer_records.value(key, 0) + 1;
    marker_strings += r.message != 0;
  }
  buffer_records["kernel_dispatch"] = t.kernels.size();
  buffer_records["memory_copy"] = t.memory_copies.size();
  buffer_records["memory_set"] = t.memory_sets.size();
  buffer_records["memory_allocation"] = t.memory_allocations.size();
  buffer_records["scratch_memory"] = t.scratch_memory.size();
  buffer_records["pc_sample_host_trap"] = t.pc_samples.size();
  buffer_records["device_counter_sample"] = t.device_counter_samples.size();
  std::set<uint64_t> dispatches;
  for (const auto& c : t.counter_values)
    dispatches.insert(c.dispatch_id);
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [k, v] : t.defs.process.environment)
    env[k] = v;
  nlohmann::json expected{{"pid", t.defs.process.pid},
                          {"command", t.defs.process.command},
                          {"agents", t.defs.agents.size()},
                          {"buffer_records", buffer_records},
                          {"marker_strings", marker_strings},
                          {"counter_dispatches", dispatches.size()},
                          {"counter_values", t.counter_values.size()},
                          // Every stats domain the synthetic trace fills, in -D order.
                          {"summary_domains",
                           {"HSA_API", "HIP_API", "MARKER_API", "KERNEL_DISPATCH", "MEMORY_COPY",
                            "SCRATCH_MEMORY", "RCCL_API", "MEMORY_ALLOCATION", "ROCDECODE_API",
                            "ROCJPEG_API", "CUDA_RUNTIME_API", "CUDA_DRIVER_API", "MEMORY_SET"}},
                          {"config", nlohmann::json::parse(t.defs.process.config_json)},
                          {"environment", env}};
  const std::string expected_path = dir.path() + "/expected.json";
  std::ofstream{expected_path} << expected.dump();

  int status = 0;
  auto out = ts::run_command("python3 " + ts::shell_quote(ROCPROF_CHECK_JSON_SCRIPT) + " " +
                                 ts::shell_quote(o.path_for("results", "json")) + " " +
                                 ts::shell_quote(o.path_for("config", "json")) + " " +
                                 ts::shell_quote(expected_path) + " 2>&1",
                             &status);
  EXPECT_EQ(status, 0) << out;
  // The streamed part files are gone.
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 3u);  // results.json, config.json, expected.json
}

TEST(json_writer, empty_trace_is_valid_json) {
  ASSERT_TRUE(ts::have_program("python3")) << ts::missing_reader("python3");
  ts::temp_dir dir{"json-empty"};
  auto t = ts::make_synthetic_trace({});
  trace::output_options o;
  o.output_directory = dir.path();
  o.file_prefix = "empty";
  std::string error;
  auto w = trace::make_writer("json", o, &error);
  ASSERT_TRUE(w) << error;
  w->begin(t.defs);
  ASSERT_EQ(w->finish(), "");
  int status = 0;
  auto out = ts::run_command(
      "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
      "t=d[\"rocprofiler-sdk-tool\"][0]; assert all(len(v)==0 for v in "
      "t[\"buffer_records\"].values())' " +
          ts::shell_quote(o.path_for("results", "json")) + " 2>&1",
      &status);
  EXPECT_EQ(status, 0) << out;
}

TEST(api_args_text, arguments_survive_the_round_trip_and_separators_are_replaced) {
  trace::api_args_text text{-3};
  text.add("size_t", "count", "4096");
  text.add("const char*", "name",
           "a\x1e"
           "b\x1f"
           "c");
  std::vector<std::string> seen;
  trace::for_each_api_arg(text.text(), [&](const trace::api_arg_view& a) {
    seen.push_back(std::string(a.type) + "|" + std::string(a.name) + "|" + std::string(a.value));
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"size_t|count|4096", "const char*|name|a?b?c"}));
  EXPECT_EQ(trace::api_args_retval(text.text()), -3);
  EXPECT_EQ(trace::api_args_retval(trace::api_args_text{0}.text()), 0);
}

TEST(json_writer, cuda_api_records_carry_their_arguments_and_return_value) {
  ts::temp_dir dir{"json-args"};
  ts::synthetic_options so;
  so.records_per_kind = 20;
  auto t = ts::make_synthetic_trace(so);
  const auto args_id = ts::add_copy_arguments(t.defs, 2);
  size_t with_args = 0;
  for (auto& r : t.api) {
    if (r.domain != trace::api_domain::cuda_runtime) continue;
    r.args = args_id;
    ++with_args;
  }
  ASSERT_GT(with_args, 0u);
  trace::output_options o;
  o.output_directory = dir.path();
  o.file_prefix = "args";
  std::string error;
  auto w = trace::make_writer("json", o, &error);
  ASSERT_TRUE(w) << error;
  ASSERT_EQ(ts::write_synthetic_trace(*w, t, 16), "");
  std::ifstream in{o.path_for("results", "json")};
  const auto doc = nlohmann::json::parse(in)["rocprofiler-sdk-tool"][0];
  size_t found = 0;
  for (const auto& r : doc["buffer_records"]["cuda_api"]) {
    if (!r.contains("args")) continue;
    ++found;
    EXPECT_EQ(r["args"],
              nlohmann::json::parse(R"([{"type":"void*","name":"dst","value":"0xd000"},)"
                                    R"({"type":"size_t","name":"count","value":"4096"}])"));
    EXPECT_EQ(r["retval"], 2);
  }
  EXPECT_EQ(found, with_args);
}

}  // namespace
