#include "passes.hpp"

#include <cstdlib>
#include <regex>

#include "input_file.hpp"
#include "rocprof/config/schema.hpp"

namespace rocprof::cli {
namespace {

void set_all(job& config, const std::vector<const char*>& keys) {
  for (const char* key : keys)
    config.set_if_unset(key, true);
}

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

void expand_aggregates(job& config) {
  // 1. Kokkos connector: its regions are markers, and kernels take the region names.
  if (config.flag("kokkos_trace")) set_all(config, {"marker_trace", "kernel_rename"});
  // 2. System trace: every API and activity domain.
  if (config.flag("sys_trace")) {
    set_all(config, {"hip_trace", "hsa_trace", "marker_trace", "kernel_trace", "memory_copy_trace",
                     "memory_allocation_trace", "scratch_memory_trace", "rccl_trace",
                     "rocdecode_trace", "rocjpeg_trace", "cuda_trace"});
  }
  // 3. Runtime trace: runtime APIs and activity, no compiler/driver/HSA layer.
  if (config.flag("runtime_trace")) {
    set_all(config, {"hip_runtime_trace", "marker_trace", "kernel_trace", "memory_copy_trace",
                     "memory_allocation_trace", "scratch_memory_trace", "rccl_trace",
                     "rocdecode_trace", "rocjpeg_trace", "cuda_runtime_trace"});
  }
  // 4-5. HIP and HSA groups; 6. the CUDA group, expanded last like them.
  if (config.flag("hip_trace")) set_all(config, {"hip_compiler_trace", "hip_runtime_trace"});
  if (config.flag("hsa_trace")) {
    set_all(config, {"hsa_core_trace", "hsa_amd_trace", "hsa_image_trace", "hsa_finalizer_trace"});
  }
  if (config.flag("cuda_trace")) set_all(config, {"cuda_runtime_trace", "cuda_driver_trace"});
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
