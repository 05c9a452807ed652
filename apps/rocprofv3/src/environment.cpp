#include "environment.hpp"

#include <cmath>

#include "counter_check.hpp"
#include "passes.hpp"
#include "rocprof/config/collection_period.hpp"
#include "rocprof/config/domains.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/config/tool_settings.hpp"
#include "rocprof/config/values.hpp"

extern char** environ;

namespace rocprof::cli {
namespace {

using config::env_form;

std::string env_name(const char* key) {
  return std::string(config::option(key).env);
}

// a:b with empty parts left out.
std::string join_path_list(const std::vector<std::string>& parts) {
  std::vector<std::string> kept;
  for (const auto& part : parts) {
    if (!part.empty()) kept.push_back(part);
  }
  return config::join(kept, ":");
}

// validate_pass() has checked every period already (value_checks.cpp).
std::string collection_periods(const job& config) {
  const std::string unit = config.text("collection_period_unit").value_or("sec");
  std::vector<std::string> out;
  for (const auto& period : config.list("collection_period")) {
    const auto parsed = config::parse_period_in_unit(period, unit);
    if (!parsed.period) throw usage_error("argument --collection-period: " + parsed.error);
    out.push_back(config::format_period_ns(*parsed.period));
  }
  return config::join(out, ";");
}

// The tool reads its settings from the environment the application gets (what rocprofv3
// inherited, with this pass's changes over it). Whatever it would refuse, rocprofv3 refuses
// now: that also covers ROCPROF_* variables the user exported, which no option checked.
void check_tool_accepts(const environment& base, const environment& changes) {
  const auto lookup = [&](const char* name) -> const char* {
    if (const auto it = changes.find(name); it != changes.end()) return it->second.c_str();
    if (const auto it = base.find(name); it != base.end()) return it->second.c_str();
    return nullptr;
  };
  const auto result = config::read_tool_settings(lookup);
  if (result.errors.empty()) return;
  const std::string& error = result.errors.front();
  for (const auto& spec : config::schema()) {
    const size_t length = spec.env.size();
    if (spec.env.empty() || error.size() <= length || error.compare(0, length, spec.env) != 0 ||
        (error[length] != ':' && error[length] != '=')) {
      continue;  // not this variable's message (ROCPROF_COUNTER_GROUPS vs _INTERVAL)
    }
    const bool ours = changes.count(std::string(spec.env)) != 0;
    throw usage_error(
        (ours && !spec.long_name.empty()
             ? "argument --" + std::string(spec.long_name) + " (" + std::string(spec.env) + ")"
             : std::string("environment variable ") + std::string(spec.env)) +
        error.substr(spec.env.size()));
  }
  throw usage_error(error);
}

// The generic forms of the schema; custom rows are handled by name below.
void write_generic(const job& config, environment& env) {
  for (const auto& spec : config::schema()) {
    const std::string key(spec.key);
    if (spec.env.empty() || !config.has(key)) continue;
    const std::string name(spec.env);
    switch (spec.form) {
      case env_form::flag:
        if (config.flag(key)) env[name] = "1";
        break;
      case env_form::negated_flag:
        if (config.flag(key)) env[name] = "0";
        break;
      case env_form::text:
        env[name] = *config.text(key);
        break;
      case env_form::joined:
        env[name] = config::join(config.list(key), spec.separator);
        break;
      case env_form::none:
      case env_form::custom:
        break;
    }
  }
}

}  // namespace

environment current_environment() {
  environment env;
  for (char** item = environ; item != nullptr && *item != nullptr; ++item) {
    const std::string entry(*item);
    const size_t eq = entry.find('=');
    if (eq != std::string::npos) env.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return env;
}

std::vector<const config::backend_spec*> wanted_backends(const job& config) {
  std::vector<const config::backend_spec*> wanted;
  for (const auto& backend : config::backends()) {
    for (const auto& spec : config::schema()) {
      if (spec.backend == backend.name && option_on(config, spec)) {
        wanted.push_back(&backend);
        break;
      }
    }
  }
  return wanted;
}

pass_environment_result build_pass_environment(const pass_environment_input& input) {
  const job& config = *input.config;
  const environment& base = *input.base;
  pass_environment_result result;
  environment& env = result.changes;

  write_generic(config, env);

  env["ROCPROFILER_LIBRARY_CTOR"] = "1";
  env[env_name("output_directory")] = input.output_path;

  if (config.has("output_format")) {
    const std::string ours = config::join(config.list("output_format"), ",");
    const std::string name = env_name("output_format");
    const std::string existing = environment_value(base, name);
    env[name] = existing.empty() ? ours : existing + "," + ours;
  }
  if (auto level = config.text("log_level"); level && *level != "env" && *level != "config") {
    for (const char* name : {"ROCPROF_LOG_LEVEL", "ROCPROFILER_LOG_LEVEL", "ROCTX_LOG_LEVEL"}) {
      env[name] = *level;
    }
  }
  if (auto path = config.text("extra_counters"))
    env[env_name("extra_counters")] = read_extra_counters(*path);
  if (config.has("pmc")) {
    env[env_name("counter_collection")] = "1";
    env[env_name("pmc")] = "pmc: " + config::join(config.list("pmc"), " ");
  }
  if (config.has("pmc_groups")) {
    env[env_name("counter_collection")] = "1";
    std::vector<std::string> lines;
    for (const auto& group : config.list("pmc_groups"))
      lines.push_back("pmc: " + group);
    env[env_name("pmc_groups")] = config::join(lines, "\n");
  }
  if (config.has("spm")) {
    env[env_name("spm_counter_collection")] = "1";
    env[env_name("spm")] = "spm: " + config::join(config.list("spm"), " ");
  }
  if (config.text("replay_mode") == std::optional<std::string>("kernel")) {
    env[env_name("replay_mode")] = "1";  // ROCPROF_KERNEL_REPLAY
  }
  // CUDA API calls from CUPTI's API activity records: rocprofv3's default wherever CUDA API
  // calls are traced (issue 15: no callback per call, CUPTI's own floor). --cuda-api-args asks
  // the plugin for a callback per call with arguments (ROCPROF_CUDA_API_ARGS, written above),
  // as does --cuda-api-records=no; validate_pass refused the two asked for together.
  const bool cuda_api = config.flag("cuda_runtime_trace") || config.flag("cuda_driver_trace");
  if (config.flag("cuda_api_records") ||
      (cuda_api && !config.flag("cuda_api_args") && !config.has("cuda_api_records")))
    env[env_name("cuda_api_records")] = "1";
  if (auto output = config.text("summary_output_file")) {
    const std::string lower = config::to_lower(*output);
    env[env_name("summary_output_file")] = lower == "stdout" || lower == "stderr" ? lower : *output;
  }
  if (config.has("collection_period"))
    env[env_name("collection_period")] = collection_periods(config);
  if (auto kb = config.number("minimum_output_data")) {
    // The schema's range keeps KB x 1024 within 64 bits.
    env[env_name("minimum_output_data")] = std::to_string(*kb * 1024);
  }
  if (config.has("att_perfcounters")) {
    env[env_name("att_perfcounters")] =
        config::to_upper(config::join(config.list("att_perfcounters"), " "));
  }
  if (auto activity = config.number("att_activity")) {
    env[env_name("att_perfcounter_ctrl")] = std::to_string(*activity);
    env[env_name("att_perfcounters")] =
        "SQ_BUSY_CU_CYCLES SQ_VALU_MFMA_BUSY_CYCLES SQ_ACTIVE_INST_VALU SQ_ACTIVE_INST_LDS "
        "SQ_ACTIVE_INST_VMEM SQ_ACTIVE_INST_FLAT SQ_ACTIVE_INST_SCA SQ_ACTIVE_INST_MISC";
  }

  // Injection. LD_PRELOAD: --preload libraries, then what was there, then the tool.
  const tool_paths& paths = input.paths;
  std::vector<std::string> preload = config.list("preload");
  if (!config.has("preload"))
    preload = config::split_any(environment_value(base, "ROCPROF_PRELOAD"), ":");
  preload.push_back(environment_value(base, "LD_PRELOAD"));
  preload.push_back(paths.tool());
  const bool markers = config.flag("marker_trace");
  if (markers && !config.flag("suppress_marker_preload") && is_file(paths.roctx())) {
    preload.push_back(paths.roctx());
  }
  env["LD_PRELOAD"] = join_path_list(preload);
  env["ROCP_TOOL_LIBRARIES"] =
      join_path_list({environment_value(base, "ROCP_TOOL_LIBRARIES"), paths.tool()});
  if (markers) env["NVTX_INJECTION64_PATH"] = paths.tool();
  if (config.flag("kokkos_trace")) {
    // Kokkos 4 reads KOKKOS_TOOLS_LIBS; Debian's Kokkos 3.7 reads only KOKKOS_PROFILE_LIBRARY.
    env["KOKKOS_TOOLS_LIBS"] = paths.kokkosp();
    env["KOKKOS_PROFILE_LIBRARY"] = paths.kokkosp();
  }
  // Backends that record a domain of this pass: the vendor runtime loads them (e.g. CUDA's
  // driver through CUDA_INJECTION64_PATH), which hands them to the core.
  for (const config::backend_spec* backend : wanted_backends(config)) {
    const std::string plugin = paths.backend(backend->name);
    const std::string label(backend->label);
    if (!is_file(plugin)) {
      result.warnings.push_back(label + " backend plugin not found at " + plugin + "; " + label +
                                " activity, API and counters will not be collected");
    } else if (!backend->injection.empty()) {
      env[std::string(backend->injection)] = plugin;
    }
  }
  check_tool_accepts(base, env);
  return result;
}

std::string environment_value(const environment& env, const std::string& name) {
  const auto it = env.find(name);
  return it == env.end() ? std::string() : it->second;
}

}  // namespace rocprof::cli
