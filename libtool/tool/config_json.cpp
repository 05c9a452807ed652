// The resolved configuration as JSON: rocprofv3's `config` object (results.json
// metadata.config, <prefix>_config.json, rocpd's process extdata). Its 70 keys come in
// rocprofv3's order and under its names and types (rocprofv3-facts.md §5.2); the keys of what
// only this tool has (CUDA and Kokkos domains, the output formats as given, --stats,
// --agent-index) follow them.
#include <nlohmann/json.hpp>

#include "output_stage.hpp"
#include "rocprof/common/placeholders.hpp"
#include "rocprof/config/domains.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/config/values.hpp"

namespace rocprof::tool {
namespace {

using ojson = nlohmann::ordered_json;

// rocprofv3's tracing flags, in its order, by their setting names (ROCPROF_<NAME> lower-cased).
constexpr const char* rocprofv3_trace_flags[] = {"kernel_trace",
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
                                                 "rocjpeg_api_trace"};

bool is_rocprofv3_flag(const std::string& name) {
  for (const char* flag : rocprofv3_trace_flags)
    if (name == flag) return true;
  return false;
}

// A schema option read from the environment the tool was given, else its schema default: the
// thread-trace parameters, which the tool accepts without a backend to hand them to.
uint64_t number_setting(const char* key) {
  const auto& spec = config::option(key);
  const char* value = std::getenv(std::string(spec.env).c_str());
  const auto number = config::parse_integer(value != nullptr ? value : spec.default_value);
  return number.value_or(0);
}

std::string text_setting(const char* key) {
  const char* value = std::getenv(std::string(config::option(key).env).c_str());
  return value != nullptr ? value : std::string(config::option(key).default_value);
}

// --kernel-iteration-range as the set of iterations rocprofv3 keeps ("[1, [3-5]]" -> 1 3 4 5).
// A range is listed up to 65536 values: the JSON is a record of the setting, not its engine.
ojson iteration_set(const std::string& text) {
  ojson out = ojson::array();
  for (const auto& word : config::split_any(text, "[], ")) {
    const size_t dash = word.find('-');
    const auto first = config::parse_integer(word.substr(0, dash));
    if (!first) continue;
    const auto last =
        dash == std::string::npos ? first : config::parse_integer(word.substr(dash + 1));
    for (uint64_t i = *first; last && i <= *last && i - *first < 65536; ++i)
      out.push_back(i);
  }
  return out;
}

// rocprofiler-sdk's enumerators (fwd.h): method none 0, stochastic 1, host_trap 2; unit none 0,
// instructions 1, cycles 2, time 3.
int pc_sampling_method_value(const std::string& method) {
  return method == "stochastic" ? 1 : method == "host_trap" ? 2 : 0;
}
int pc_sampling_unit_value(const std::string& unit) {
  return unit == "instructions" ? 1 : unit == "cycles" ? 2 : unit == "time" ? 3 : 0;
}

bool has_format(const config::tool_settings& s, const char* format) {
  for (const auto& f : s.output_formats)
    if (f == format) return true;
  return false;
}

}  // namespace

std::string settings_to_json(const config::tool_settings& s) {
  ojson j;
  j["benchmark_mode"] = s.benchmark_mode;
  for (const char* flag : rocprofv3_trace_flags)
    j[flag] = false;
  for (const auto& spec : config::schema()) {
    const std::string name = config::setting_name(spec);
    if (spec.domain && is_rocprofv3_flag(name)) j[name] = s.traces(spec.key);
  }
  j["counter_collection"] = s.counter_collection;

  const auto context = common::placeholder_context::for_current_process();
  const auto number = [&](const char* placeholder) {
    return config::parse_integer(common::expand_placeholders(placeholder, context)).value_or(0);
  };
  j["mpi_rank"] = number("%rank%");
  j["mpi_size"] = number("%size%");
  ojson periods = ojson::array();
  for (const auto& p : s.collection_periods)
    periods.push_back({{"delay", p.delay_ns}, {"duration", p.duration_ns}, {"repeat", p.repeat}});
  j["collection_periods"] = {{"container", periods}};  // a queue, as rocprofv3's serializer
  j["counters"] = s.counters.empty() ? ojson::array() : ojson::array({s.counters});
  j["extra_counters_contents"] = s.extra_counters_contents;
  j["kernel_filter_include"] = s.kernel_include_regex.empty() ? ".*" : s.kernel_include_regex;
  j["kernel_filter_exclude"] = s.kernel_exclude_regex;
  j["kernel_filter_range"] = iteration_set(s.kernel_iteration_range);
  j["demangle"] = s.demangle;
  j["truncate"] = s.truncate;
  j["minimum_output_bytes"] = s.minimum_output_bytes;
  j["enable_signal_handlers"] = s.signal_handlers;
  j["selected_regions"] = s.selected_regions;
  j["counter_groups_random_seed"] = 0;  // no counter-group randomisation here
  j["counter_groups_interval"] = s.counter_groups_interval;

  const std::string method = s.pc_sampling_method.empty() ? "none" : s.pc_sampling_method;
  const std::string unit = s.pc_sampling_unit.empty() ? "none" : s.pc_sampling_unit;
  j["pc_sampling_host_trap"] = method == "host_trap";
  j["pc_sampling_stochastic"] = method == "stochastic";
  j["pc_sampling_method"] = method;
  j["pc_sampling_unit"] = unit;
  j["pc_sampling_interval"] = s.pc_sampling_interval;
  j["pc_sampling_method_value"] = pc_sampling_method_value(method);
  j["pc_sampling_unit_value"] = pc_sampling_unit_value(unit);

  j["advanced_thread_trace"] = s.advanced_thread_trace;
  j["att_serialize_all"] = number_setting("att_serialize_all") != 0;
  j["att_param_shader_engine_mask"] = number_setting("att_shader_engine_mask");
  j["att_param_buffer_size"] = number_setting("att_buffer_size");
  j["att_param_simd_select"] = number_setting("att_simd_select");
  j["att_param_target_cu"] = number_setting("att_target_cu");
  j["att_library_path"] = text_setting("att_library_path");
  ojson perfcounters = ojson::array();
  for (const auto& name : config::split_any(text_setting("att_perfcounters"), ", "))
    perfcounters.push_back({{"counter_name", name}, {"simd_mask", 0xf}});
  j["att_param_perfcounters"] = perfcounters;
  j["att_param_perf_ctrl"] = number_setting("att_perfcounter_ctrl");

  // The output part: paths expanded for this process, then as given.
  const auto options = make_output_options(s);
  j["output_path"] = options.output_directory;
  j["output_file"] = options.file_prefix;
  j["tmp_directory"] = common::expand_placeholders(s.tmp_directory, context);
  j["raw_output_path"] = s.output_path;
  j["raw_output_file"] = s.output_file;
  j["raw_tmp_directory"] = s.tmp_directory;
  j["perfetto_shmem_size_hint"] = s.perfetto_shmem_size_hint_kb;
  j["perfetto_buffer_size"] = s.perfetto_buffer_size_kb;
  j["perfetto_buffer_fill_policy"] = s.perfetto_buffer_fill_policy;
  j["perfetto_backend"] = s.perfetto_backend;
  j["summary"] = s.summary;
  j["summary_per_domain"] = s.summary_per_domain;
  j["summary_groups"] = s.summary_groups;
  j["summary_unit"] = s.summary_units;
  j["summary_file"] = s.summary_output;
  j["csv_output"] = has_format(s, "CSV");
  j["json_output"] = has_format(s, "JSON");
  j["pftrace_output"] = has_format(s, "PFTRACE");
  j["otf2_output"] = has_format(s, "OTF2");
  j["summary_output"] = s.summary || s.summary_per_domain || !s.summary_groups.empty();
  j["rocpd_output"] = has_format(s, "ROCPD");
  j["kernel_rename"] = s.kernel_rename;
  j["group_by_queue"] = s.group_by_queue;

  // Ours.
  for (const auto& spec : config::schema()) {
    const std::string name = config::setting_name(spec);
    if (spec.domain && !is_rocprofv3_flag(name)) j[name] = s.traces(spec.key);
  }
  j["output_format"] = s.output_formats;
  j["stats"] = s.stats;
  j["agent_index"] = s.agent_index;
  j["counter_groups"] = s.counter_groups;
  j["kernel_replay"] = s.kernel_replay;
  j["kernel_host_callstack"] = s.kernel_host_callstack;
  j["cuda_api_include"] = s.cuda_api_include;
  j["cuda_api_exclude"] = s.cuda_api_exclude;
  j["cuda_api_queries"] = s.cuda_api_queries;
  return j.dump();
}

}  // namespace rocprof::tool
