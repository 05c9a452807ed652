// The tool-side reader: every setting is looked up by its schema key, so the environment
// variable's name and its default come from the schema row alone.
#include <algorithm>
#include <cstdlib>

#include "rocprof/common/cuda_api_names.hpp"
#include "rocprof/common/safe_regex.hpp"
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

  // Like text(), and an empty value also means the default (paths and names).
  std::string text_or_default(std::string_view key) const {
    const std::string value = text(key);
    return value.empty() ? std::string(option(key).default_value) : value;
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
    if (!parsed) {
      result_.warnings.push_back(std::string(spec.env) + "='" + value +
                                 "' is not a decimal integer; using " + std::to_string(fallback));
      return fallback;
    }
    // The row's range holds for the variable where the CLI writes the value as it is.
    if (spec.form == env_form::text) {
      if (auto problem = integer_range_problem(spec, *parsed); !problem.empty()) {
        result_.errors.push_back(std::string(spec.env) + ": " + problem);
        return fallback;
      }
    }
    return *parsed;
  }

  // A value that must be one of the row's choices (compared case-insensitively).
  std::string choice(std::string_view key) const {
    const option_spec& spec = option(key);
    const std::string value = text(key);
    if (value.empty()) return value;
    if (equal_ignoring_case(value, spec.default_value)) return std::string(spec.default_value);
    if (const auto word = find_choice(spec, value)) return std::string(*word);
    result_.errors.push_back(std::string(spec.env) + "='" + to_lower(value) +
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

std::string env_of(std::string_view key) {
  return std::string(option(key).env);
}

std::vector<collection_period> parse_periods(const std::string& text, read_result& result) {
  std::vector<collection_period> periods;
  for (const auto& item : split_any(text, ";")) {
    auto parsed = parse_period_ns(item);
    if (parsed.period) {
      periods.push_back(*parsed.period);
    } else {
      result.errors.push_back(env_of("collection_period") + ": " + parsed.error);
    }
  }
  return periods;
}

// The counter names as the tool splits them, each checked by the one rule the CLI applies too.
std::vector<std::string> checked_counters(std::string_view key, const std::string& line,
                                          read_result& result) {
  auto names = parse_pmc_line(line);
  for (const auto& name : names) {
    if (auto problem = counter_name_problem(name); !problem.empty()) {
      result.errors.push_back(env_of(key) + ": " + problem);
      return {};
    }
  }
  return names;
}

void check_regex(std::string_view key, const std::string& pattern, read_result& result) {
  if (auto problem = common::regex_problem(pattern); !problem.empty()) {
    result.errors.push_back(env_of(key) + ": invalid regular expression " +
                            common::quote_pattern(pattern) + ": " + problem);
  }
}

// The tokens of ROCPROF_OUTPUT_FORMAT (separated by space, tab, ',', ';' or ':') in the tool's
// spelling, each once; the schema's default when it names none. `errors` may be null.
std::vector<std::string> parse_formats(std::string_view text, std::vector<std::string>* errors) {
  const option_spec& spec = option("output_format");
  std::vector<std::string> formats;
  for (const auto& token : split_any(text, " \t,;:")) {
    const auto word = find_choice(spec, token);
    if (!word) {
      if (errors != nullptr)
        errors->push_back(std::string(spec.env) + ": unknown format '" + token + "'");
      continue;
    }
    std::string name = to_upper(*word);  // rocprofv3's tool spells formats in upper case
    if (std::find(formats.begin(), formats.end(), name) == formats.end())
      formats.push_back(std::move(name));
  }
  if (formats.empty() && text != spec.default_value)
    return parse_formats(spec.default_value, nullptr);
  return formats;
}

}  // namespace

read_result read_tool_settings(const env_lookup& lookup) {
  const env_lookup get =
      lookup ? lookup : env_lookup([](const char* name) { return std::getenv(name); });
  read_result result;
  tool_settings& s = result.settings;
  const env_reader env(get, result);

  for (const auto& spec : schema()) {
    if (spec.domain && env.boolean(spec.key)) s.domains.emplace(spec.key);
  }

  s.counter_collection = env.boolean("counter_collection");
  s.counters = checked_counters("pmc", env.text("pmc"), result);
  for (const auto& line : split_any(env.text("pmc_groups"), "\n")) {
    auto group = checked_counters("pmc_groups", line, result);
    if (!group.empty()) s.counter_groups.push_back(std::move(group));
  }
  s.counter_groups_interval = env.integer("pmc_group_interval");
  s.extra_counters_contents = env.text("extra_counters");
  s.kernel_replay = env.boolean("replay_mode");  // the variable is ROCPROF_KERNEL_REPLAY
  if (env.boolean("spm_counter_collection")) {
    std::string spm = env.text("spm");
    if (spm.rfind("spm:", 0) == 0) spm = "pmc:" + spm.substr(4);  // the same line syntax
    s.spm_counters = parse_pmc_line(spm);
    const uint64_t interval = env.integer("spm_sample_interval");
    s.spm_interval_ns = env.text("spm_sample_interval_unit") == "ns" ? interval : interval * 1000;
  }

  s.output_path = env.text_or_default("output_directory");
  s.output_file = env.text_or_default("output_file");
  s.tmp_directory = env.is_set("tmp_directory") ? env.text("tmp_directory") : s.output_path;
  s.recovery_registry = env.text("recovery_registry");
  s.output_formats = parse_formats(env.text("output_format"), &result.errors);
  s.output_config = env.boolean("output_config");
  s.minimum_output_bytes = env.integer("minimum_output_data");

  s.demangle = env.boolean("mangled_kernels");  // the variable is ROCPROF_DEMANGLE_KERNELS
  s.truncate = env.boolean("truncate_kernels");
  s.kernel_rename = env.boolean("kernel_rename");
  s.kernel_host_callstack = env.boolean("kernel_host_callstack");
  s.kernel_include_regex = env.text("kernel_include_regex");
  s.kernel_exclude_regex = env.text("kernel_exclude_regex");
  s.kernel_iteration_range = env.text("kernel_iteration_range");
  auto iterations = parse_iteration_range(s.kernel_iteration_range);
  if (!iterations.error.empty()) {
    result.errors.push_back(env_of("kernel_iteration_range") + ": " + iterations.error);
  }
  s.kernel_iterations = std::move(iterations);
  check_regex("kernel_include_regex", s.kernel_include_regex, result);
  check_regex("kernel_exclude_regex", s.kernel_exclude_regex, result);
  s.cuda_api_include = common::split_cuda_api_names(env.text("cuda_api_include"));
  s.cuda_api_exclude = common::split_cuda_api_names(env.text("cuda_api_exclude"));
  s.cuda_api_queries = env.boolean("cuda_api_queries");

  s.group_by_queue = env.boolean("group_by_queue");
  s.agent_index = env.choice("agent_index");

  s.stats = env.boolean("stats");
  s.summary = env.boolean("summary");
  s.summary_per_domain = env.boolean("summary_per_domain");
  s.summary_groups = split_on(env.text("summary_groups"), option("summary_groups").separator);
  for (const auto& pattern : s.summary_groups)
    check_regex("summary_groups", pattern, result);
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

std::vector<std::string> default_output_formats() {
  return parse_formats(option("output_format").default_value, nullptr);
}

}  // namespace rocprof::config
