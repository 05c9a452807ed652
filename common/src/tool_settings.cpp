// The tool-side reader: every setting is looked up by its schema key, so the environment
// variable's name and its default come from the schema row alone.
#include <algorithm>
#include <cstdlib>

#include "rocprof/config/schema.hpp"
#include "rocprof/config/tool_settings.hpp"
#include "rocprof/config/values.hpp"

namespace rocprof::config {
namespace {

class env_reader {
 public:
  env_reader(const env_lookup& lookup, read_result& result) : lookup_(lookup), result_(result) {}

  // The raw environment text of a row, or its schema default when the variable is unset.
  std::string text(std::string_view key) const {
    const option_spec& spec = option(key);
    if (const char* value = raw(spec)) return value;
    return std::string(spec.default_value);
  }

  bool is_set(std::string_view key) const { return raw(option(key)) != nullptr; }

  bool boolean(std::string_view key) const {
    const option_spec& spec = option(key);
    const char* value = raw(spec);
    // flag rows default to false; negated rows carry their default ("1") in the schema.
    const std::string_view fallback = spec.default_value.empty() ? "0" : spec.default_value;
    if (value == nullptr) return *parse_env_bool(fallback);
    if (auto parsed = parse_env_bool(value)) return *parsed;
    result_.errors.push_back(std::string(spec.env) + ": empty value is not a boolean");
    return *parse_env_bool(fallback);
  }

  uint64_t integer(std::string_view key) const {
    const option_spec& spec = option(key);
    const auto fallback = parse_integer(spec.default_value).value_or(0);
    const char* value = raw(spec);
    if (value == nullptr) return fallback;
    // The tool takes decimal only, like rocprofv3's tool; the CLI converts hex before writing.
    const std::string_view text_value(value);
    const auto parsed = text_value.find_first_not_of("0123456789") == std::string_view::npos
                            ? parse_integer(text_value)
                            : std::nullopt;
    if (parsed) return *parsed;
    result_.warnings.push_back(std::string(spec.env) + "='" + value +
                               "' is not a decimal integer; using " + std::to_string(fallback));
    return fallback;
  }

  // A value that must be one of the row's choices (compared case-insensitively).
  std::string choice(std::string_view key) const {
    const option_spec& spec = option(key);
    std::string value = to_lower(text(key));
    if (value.empty() || value == spec.default_value) return value;
    for (auto word : words(spec.choices)) {
      if (value == word) return value;
    }
    result_.errors.push_back(std::string(spec.env) + "='" + value +
                             "' is not one of: " + std::string(spec.choices));
    return std::string(spec.default_value);
  }

 private:
  const char* raw(const option_spec& spec) const {
    return spec.env.empty() ? nullptr : lookup_(std::string(spec.env).c_str());
  }

  const env_lookup& lookup_;
  read_result& result_;
};

std::vector<collection_period> parse_periods(const std::string& text, read_result& result) {
  std::vector<collection_period> periods;
  for (const auto& item : split_any(text, ";")) {
    const auto fields = split_any(item, ":");
    collection_period period;
    std::optional<uint64_t> values[3];
    for (size_t i = 0; i < fields.size() && i < 3; ++i)
      values[i] = parse_integer(fields[i]);
    if (fields.size() != 3 || !values[0] || !values[1] || !values[2]) {
      result.errors.push_back("ROCPROF_COLLECTION_PERIOD: '" + item +
                              "' is not DELAY:DURATION:REPEAT in nanoseconds");
      continue;
    }
    period.delay_ns = *values[0];
    period.duration_ns = *values[1];
    period.repeat = *values[2];
    periods.push_back(period);
  }
  return periods;
}

std::vector<std::string> parse_formats(const std::string& text, read_result& result) {
  std::vector<std::string> formats;
  for (const auto& token : split_any(text, " \t,;:")) {
    const std::string upper = to_upper(token);
    bool known = false;
    for (auto word : words(option("output_format").choices))
      known |= upper == to_upper(word);
    if (!known) {
      result.errors.push_back("ROCPROF_OUTPUT_FORMAT: unknown format '" + token + "'");
      continue;
    }
    if (std::find(formats.begin(), formats.end(), upper) == formats.end()) formats.push_back(upper);
  }
  if (formats.empty()) formats.push_back(to_upper(option("output_format").default_value));
  return formats;
}

}  // namespace

read_result read_tool_settings(const env_lookup& lookup) {
  const env_lookup get =
      lookup ? lookup : env_lookup([](const char* name) { return std::getenv(name); });
  read_result result;
  tool_settings& s = result.settings;
  const env_reader env(get, result);

  s.kernel_trace = env.boolean("kernel_trace");
  s.memory_copy_trace = env.boolean("memory_copy_trace");
  s.memory_allocation_trace = env.boolean("memory_allocation_trace");
  s.scratch_memory_trace = env.boolean("scratch_memory_trace");
  s.marker_api_trace = env.boolean("marker_trace");
  s.hip_runtime_api_trace = env.boolean("hip_runtime_trace");
  s.hip_compiler_api_trace = env.boolean("hip_compiler_trace");
  s.hsa_core_api_trace = env.boolean("hsa_core_trace");
  s.hsa_amd_ext_api_trace = env.boolean("hsa_amd_trace");
  s.hsa_image_ext_api_trace = env.boolean("hsa_image_trace");
  s.hsa_finalizer_ext_api_trace = env.boolean("hsa_finalizer_trace");
  s.rccl_api_trace = env.boolean("rccl_trace");
  s.rocdecode_api_trace = env.boolean("rocdecode_trace");
  s.rocjpeg_api_trace = env.boolean("rocjpeg_trace");
  s.cuda_runtime_api_trace = env.boolean("cuda_runtime_trace");
  s.cuda_driver_api_trace = env.boolean("cuda_driver_trace");
  s.kokkos_trace = env.boolean("kokkos_trace");

  s.counter_collection = env.boolean("counter_collection");
  s.counters = parse_pmc_line(env.text("pmc"));
  for (const auto& line : split_any(env.text("pmc_groups"), "\n")) {
    auto group = parse_pmc_line(line);
    if (!group.empty()) s.counter_groups.push_back(std::move(group));
  }
  s.counter_groups_interval = env.integer("pmc_group_interval");
  if (s.counter_groups_interval == 0) {
    result.errors.push_back("ROCPROF_COUNTER_GROUPS_INTERVAL: must be at least 1");
    s.counter_groups_interval = 1;
  }
  s.extra_counters_contents = env.text("extra_counters");

  s.output_path = env.text("output_directory");
  s.output_file = env.text("output_file");
  s.tmp_directory = env.is_set("tmp_directory") ? env.text("tmp_directory") : s.output_path;
  s.output_formats = parse_formats(env.text("output_format"), result);
  s.output_config = env.boolean("output_config");
  s.minimum_output_bytes = env.integer("minimum_output_data");

  s.demangle = env.boolean("mangled_kernels");  // the variable is ROCPROF_DEMANGLE_KERNELS
  s.truncate = env.boolean("truncate_kernels");
  s.kernel_rename = env.boolean("kernel_rename");
  s.kernel_include_regex = env.text("kernel_include_regex");
  s.kernel_exclude_regex = env.text("kernel_exclude_regex");
  s.kernel_iteration_range = env.text("kernel_iteration_range");

  s.group_by_queue = env.boolean("group_by_queue");
  s.agent_index = env.choice("agent_index");

  s.stats = env.boolean("stats");
  s.summary = env.boolean("summary");
  s.summary_per_domain = env.boolean("summary_per_domain");
  s.summary_groups = split_on(env.text("summary_groups"), option("summary_groups").separator);
  s.summary_output = env.text("summary_output_file");
  s.summary_units = env.choice("summary_units");

  s.collection_periods = parse_periods(env.text("collection_period"), result);
  s.collection_period_testing = env.boolean("collection_period_testing");
  s.selected_regions = env.boolean("selected_regions");
  s.signal_handlers = env.boolean("disable_signal_handlers");  // ROCPROF_SIGNAL_HANDLERS

  s.pc_sampling_method = env.choice("pc_sampling_method");
  s.pc_sampling_unit = env.choice("pc_sampling_unit");
  s.pc_sampling_interval = env.integer("pc_sampling_interval");

  s.advanced_thread_trace = env.boolean("advanced_thread_trace");

  s.perfetto_backend = env.choice("perfetto_backend");
  s.perfetto_buffer_size_kb = env.integer("perfetto_buffer_size");
  s.perfetto_shmem_size_hint_kb = env.integer("perfetto_shmem_size_hint");
  s.perfetto_buffer_fill_policy = env.choice("perfetto_buffer_fill_policy");

  s.benchmark_mode = env.choice("benchmark_mode");
  s.log_level = env.text("log_level");
  return result;
}

}  // namespace rocprof::config
