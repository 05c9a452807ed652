#include "passes.hpp"

#include <algorithm>
#include <cstdlib>

#include "input_file.hpp"
#include "rocprof/config/domains.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/config/values.hpp"
#include "value_checks.hpp"

namespace rocprof::cli {
namespace {

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
}  // --spm (rocprofv3's SPM beta): device-wide sampling owns the GPU's performance monitors.
static void check_spm(const job& config, const std::string& prefix) {
  const auto& beta = config::option("spm_beta_enabled");
  if (!config.flag("spm_beta_enabled") && std::getenv(std::string(beta.env).c_str()) == nullptr)
    throw usage_error(prefix + "--spm needs --spm-beta-enabled (or " + std::string(beta.env) +
                      " in the environment)");
  if (config.list("spm").empty()) throw usage_error(prefix + "--spm needs counter names");
  // Both program the same hardware counters: PM sampling enables them device-wide for the whole
  // run while --pmc reprograms them around each counted kernel (CUPTI refuses one while the
  // other holds the device; rocprofv3 rejects the combination for the same reason on AMD).
  if (config.has("pmc") || config.has("pmc_groups"))
    throw usage_error(prefix +
                      "--spm cannot be combined with --pmc: both use the GPU's performance "
                      "monitors (device-wide sampling versus per-kernel counting)");
  if (config.has("pc_sampling_method") || config.has("pc_sampling_unit"))
    throw usage_error(prefix +
                      "--spm cannot be combined with PC sampling: PC sampling reprograms the "
                      "same monitors for the whole run");
  const uint64_t interval = config.number("spm_sample_interval").value_or(100);
  const bool in_ns = config.text("spm_sample_interval_unit") == std::optional<std::string>("ns");
  const uint64_t ns = in_ns ? interval : interval * 1000;
  if (ns < 1000)
    throw usage_error(prefix + "--spm-sample-interval " + std::to_string(interval) +
                      (in_ns ? " ns" : " us") +
                      " is below the hardware minimum of 1 us (1000 ns) for PM sampling");
}

void validate_pass(const job& config, const std::string& label,
                   const std::vector<std::string>& app) {
  const std::string prefix = label.empty() ? std::string() : label + ": ";
  if (config.has("pid")) {
    throw usage_error(prefix +
                      "-p/--pid is reserved for attaching to a process; "
                      "the collection period option is -P/--collection-period");
  }
  check_pass_values(config, prefix, app);
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
  if (config.has("replay_mode")) {
    if (!config.has("pmc") && !config.has("pmc_groups")) {
      throw usage_error(prefix +
                        "--replay-mode needs counters (--pmc, or pmc / pmc_groups in "
                        "an input file)");
    }
    if (config.has("pc_sampling_method") || config.has("pc_sampling_unit")) {
      throw usage_error(prefix + "--replay-mode cannot be combined with PC sampling");
    }
  }
  if (config.has("spm")) check_spm(config, prefix);
  // Records carry no arguments: asking for both is a contradiction, not a preference.
  if (config.flag("cuda_api_records") && config.flag("cuda_api_args"))
    throw usage_error(prefix +
                      "--cuda-api-records cannot be combined with --cuda-api-args: CUPTI's API "
                      "activity records carry no arguments (--cuda-api-args records them "
                      "through a callback per call)");
}

std::vector<pass> build_passes(const command_line& line) {
  job cli = line.options;
  std::vector<std::vector<std::string>> groups = line.pmc_passes;
  // With --replay-mode kernel every --pmc group is collected in the same run (each counted
  // kernel is replayed as often as the groups need): the groups become one, as rocprofv3's newer
  // driver folds them into one run; an input file's jobs stay runs of their own.
  const bool folded =
      cli.text("replay_mode") == std::optional<std::string>("kernel") && groups.size() > 1;
  if (folded) {
    std::vector<std::string> all;
    for (const auto& group : groups)
      for (const auto& name : group)
        if (std::find(all.begin(), all.end(), name) == all.end()) all.push_back(name);
    groups = {all};
  }
  const bool has_input = cli.has("input");
  // A single --pmc merges into the input file's jobs like any option; several flags (or the
  // folded groups beside an input file) are passes of their own.
  const bool own_passes = line.pmc_passes.size() > 1 && (!folded || has_input);
  if (!own_passes && groups.size() == 1) cli.values["pmc"] = groups.front();

  std::vector<pass> passes;
  if (auto input = cli.text("input")) {
    auto file = read_input_file(*input);
    for (const auto& file_job : file.jobs) {
      passes.push_back({merge_job(cli, file_job), file.sub_directory});
    }
  }
  if (own_passes) {
    // Each --pmc flag is one more pass, after the input file's passes.
    for (const auto& counters : groups) {
      job config = cli;
      config.values["pmc"] = counters;
      passes.push_back({config, "pass_"});
    }
  }
  // rocprofv3 adds pass_N / pmc_N only when there are several passes or the one pass collects
  // counters (rocprofv3-facts.md §1.2): a single job without them writes where -d says.
  if (passes.size() == 1 && passes.front().config.list("pmc").empty()) {
    passes.front().sub_directory.clear();
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
    validate_pass(current.config, current.sub_directory, line.app);
  }
  return passes;
}

}  // namespace rocprof::cli
