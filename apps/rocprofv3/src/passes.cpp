#include "passes.hpp"

#include <cstdlib>
#include <regex>

#include "input_file.hpp"
#include "rocprof/config/domains.hpp"
#include "rocprof/config/schema.hpp"

namespace rocprof::cli {
namespace {

void check_regex(const std::string& pattern, const std::string& what) {
  try {
    std::regex compiled(pattern, std::regex::ECMAScript);
    (void)compiled;
  } catch (const std::regex_error& error) {
    throw usage_error(what + ": invalid regular expression '" + pattern + "': " + error.what());
  }
}

std::string option_of(const std::string& key) {
  return "--" + std::string(config::option(key).long_name);
}

}  // namespace

job merge_job(const job& cli, const job& file_job) {
  job merged = file_job;
  for (const auto& [key, cli_value] : cli.values) {
    const auto it = file_job.values.find(key);
    if (it != file_job.values.end() && it->second != cli_value) {
      const auto where = file_job.where.count(key) ? file_job.where.at(key) : "input file";
      throw usage_error(where + ": conflicting value " + to_string(it->second) +
                        " versus command line " + option_of(key) + " " + to_string(cli_value));
    }
    merged.values[key] = cli_value;
  }
  if (merged.has("pmc") && merged.has("pmc_groups")) {
    const auto where = file_job.where.count("pmc_groups") ? file_job.where.at("pmc_groups")
                                                          : std::string("input file");
    throw usage_error(where + ": 'pmc_groups' cannot be combined with --pmc / 'pmc'");
  }
  return merged;
}

bool option_on(const job& config, const config::option_spec& spec) {
  const std::string key(spec.key);
  return spec.type == config::value_type::boolean ? config.flag(key) : config.has(key);
}

void expand_aggregates(job& config) {
  // The schema's aggregate rows in rocprofv3's order (kokkos, sys, runtime, hip, hsa, cuda):
  // an aggregate set by an earlier one (sys-trace sets hip-trace) is expanded after it.
  for (const config::option_spec* aggregate : config::aggregates_in_expansion_order()) {
    if (!config.flag(std::string(aggregate->key))) continue;
    for (auto key : config::words(aggregate->expands))
      config.set_if_unset(std::string(key), true);
  }
}

void validate_pass(const job& config, const std::string& label) {
  const std::string prefix = label.empty() ? std::string() : label + ": ";
  if (config.has("pid")) {
    throw usage_error(prefix +
                      "-p/--pid is reserved for attaching to a process; "
                      "the collection period option is -P/--collection-period");
  }
  for (const char* key : {"kernel_include_regex", "kernel_exclude_regex"}) {
    if (auto pattern = config.text(key)) check_regex(*pattern, prefix + option_of(key));
  }
  for (const auto& pattern : config.list("summary_groups")) {
    check_regex(pattern, prefix + "--summary-groups");
  }
  // PC sampling: unit, method and interval together, and the beta opt-in.
  const bool unit = config.has("pc_sampling_unit");
  const bool method = config.has("pc_sampling_method");
  const bool interval = config.has("pc_sampling_interval");
  if (unit || method || interval) {
    if (!(unit && method && interval)) {
      throw usage_error(prefix +
                        "PC sampling needs all of --pc-sampling-unit, "
                        "--pc-sampling-method and --pc-sampling-interval");
    }
    if (config.number("pc_sampling_interval").value_or(0) == 0) {
      throw usage_error(prefix + "--pc-sampling-interval must be greater than 0");
    }
    const auto& beta = config::option("pc_sampling_beta_enabled");
    if (!config.flag("pc_sampling_beta_enabled") &&
        std::getenv(std::string(beta.env).c_str()) == nullptr) {
      throw usage_error(prefix + "PC sampling needs --pc-sampling-beta-enabled (or " +
                        std::string(beta.env) + " in the environment)");
    }
    // One profiling session per GPU context: CUPTI's PC sampling and range profiler exclude each
    // other (probe H8), as AMD's PC sampling and counter collection do.
    if (config.has("pmc") || config.has("pmc_groups"))
      throw usage_error(prefix + "PC sampling cannot be combined with --pmc (counter collection)");
  }
  // Thread trace counters and --pmc share the hardware.
  const bool att_counters = config.has("att_perfcounters") || config.has("att_perfcounter_ctrl");
  if ((att_counters || config.has("att_activity")) && config.has("pmc")) {
    throw usage_error(prefix +
                      "--att-perfcounters/--att-perfcounter-ctrl/--att-activity cannot be "
                      "combined with --pmc");
  }
  if (config.has("att_activity") && att_counters) {
    throw usage_error(prefix +
                      "--att-activity cannot be combined with --att-perfcounters or "
                      "--att-perfcounter-ctrl");
  }
  if (const auto interval_value = config.number("pmc_group_interval")) {
    if (*interval_value == 0) throw usage_error(prefix + "'pmc_group_interval' must be at least 1");
  }
}

std::vector<pass> build_passes(const command_line& line) {
  job cli = line.options;
  if (line.pmc_passes.size() == 1) cli.values["pmc"] = line.pmc_passes.front();
  const bool pmc_passes = line.pmc_passes.size() > 1;

  std::vector<pass> passes;
  if (auto input = cli.text("input")) {
    auto file = read_input_file(*input);
    for (const auto& file_job : file.jobs) {
      passes.push_back({merge_job(cli, file_job), file.sub_directory});
    }
  }
  if (pmc_passes) {
    // Each --pmc flag is one more pass, after the input file's passes.
    for (const auto& counters : line.pmc_passes) {
      job config = cli;
      config.values["pmc"] = counters;
      passes.push_back({config, "pass_"});
    }
  }
  if (passes.empty()) passes.push_back({cli, ""});

  for (size_t index = 0; index < passes.size(); ++index) {
    auto& current = passes[index];
    if (!current.sub_directory.empty()) current.sub_directory += std::to_string(index + 1);
    expand_aggregates(current.config);
    for (const auto& spec : config::schema()) {
      if (!spec.cli_default.empty() && !current.config.has(std::string(spec.key))) {
        current.config.values[std::string(spec.key)] = std::string(spec.cli_default);
      }
    }
    validate_pass(current.config, current.sub_directory);
  }
  return passes;
}

}  // namespace rocprof::cli
