// Prints the option reference of docs/cli.md (Markdown) from the configuration schema, so the
// documentation cannot drift from the options: a test compares the two.
#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "rocprof/common/cuda_api_names.hpp"
#include "rocprof/config/domains.hpp"
#include "rocprof/config/schema.hpp"

namespace {

using rocprof::config::option_spec;
using rocprof::config::value_type;

// What this build does with options that the CLI handles itself (the others go to the tool).
const std::map<std::string_view, std::string_view> k_cli_notes = {
    {"version", "Prints the build identity and exits."},
    {"pc_sampling_beta_enabled",
     "Required with the other PC sampling options (or the variable already in the environment)."},
    {"pc_sampling_unit",
     "NVIDIA GPUs (CUPTI) offer `cycles`; checked against every GPU's configurations before the "
     "launch (`--list-avail` lists them)."},
    {"pc_sampling_method",
     "NVIDIA GPUs offer `stochastic` (hardware samples with warp states, aggregated per PC): "
     "`pc_sampling_stochastic.csv`, JSON `pc_sample_stochastic`, the hot-spot report "
     "(user-guide.md, PC sampling)."},
    {"pc_sampling_interval",
     "NVIDIA: a power of two in 32..2147483648 cycles; a value out of range or not a power of two "
     "is an error naming the nearest valid values."},
    {"input", "Read by the CLI; each job (or `pmc:` line) becomes one pass."},
    {"output_directory",
     "Checked (created, writable) by the CLI; each pass gets it, plus `/pass_N` or `/pmc_N` "
     "with several passes."},
    {"output_format", "Comma-joined, appended to an existing value."},
    {"log_level",
     "`env` prints the variables the CLI sets, `config` the resolved options (stderr); the other "
     "levels go to `ROCPROF_LOG_LEVEL`, `ROCPROFILER_LOG_LEVEL` and `ROCTX_LOG_LEVEL`."},
    {"extra_counters",
     "The CLI checks the file (errors name the file, line, counter and position) and passes "
     "its contents."},
    {"runtime_trace", "Expanded by the CLI (set-only-if-unset), see below."},
    {"sys_trace", "Expanded by the CLI (set-only-if-unset), see below."},
    {"hip_trace", "Expands to the HIP runtime and compiler options (no AMD backend here)."},
    {"hsa_trace", "Expands to the four HSA options (no AMD backend here)."},
    {"cuda_trace", "Expands to `--cuda-runtime-trace` and `--cuda-driver-trace`."},
    {"marker_trace",
     "ROCTx markers through the tool; NVTX through `NVTX_INJECTION64_PATH`=tool library. "
     "Appends `lib/librocprofiler-sdk-roctx.so` to `LD_PRELOAD` when that file exists."},
    {"kokkos_trace",
     "Sets `KOKKOS_TOOLS_LIBS` and `KOKKOS_PROFILE_LIBRARY` to the Kokkos connector; implies "
     "`--marker-trace` and `--kernel-rename`."},
    {"pmc",
     "Checked before launch (see above); `ROCPROF_COUNTER_COLLECTION=1` and "
     "`ROCPROF_COUNTERS=\"pmc: A B\"`; each further `--pmc` flag is one more pass (`pass_N`), "
     "or part of the same run with `--replay-mode kernel`. `.` belongs to names."},
    {"pmc_groups",
     "One `pmc: ...` line per group; an error together with `--pmc`; each group must fit one "
     "pass unless `--replay-mode kernel`."},
    {"replay_mode",
     "`kernel`: one run, CUPTI kernel replay (`ROCPROF_KERNEL_REPLAY=1`); `application`: the "
     "CLI splits groups into one-pass groups, one run each."},
    {"kernel_replay_beta_enabled", "Accepted and ignored."},
    {"counter_chip", "Used by the CLI's counter checks and `--list-avail`."},
    {"kernel_iteration_range",
     "Checked by the CLI (`[1-` is an error), joined with `, `; per kernel, 1-based."},
    {"cuda_api_include",
     "Checked by the CLI against CUPTI's function names, joined with `,`; CUPTI records only "
     "these (a call that launches traced GPU work is still seen, for the work's thread and "
     "correlation id)."},
    {"cuda_api_exclude",
     "Checked by the CLI against CUPTI's function names (a typo gets the closest names), joined "
     "with `,`; CUPTI is told not to record them (a call that launches traced GPU work is still "
     "seen, for the work's thread and correlation id)."},
    {"collection_period",
     "Converted by the CLI to nanoseconds with `--collection-period-unit`, joined with `;`."},
    {"collection_period_unit", "Used by the CLI to convert `--collection-period`."},
    {"list_avail",
     "Prints the CPU agents of /proc/cpuinfo and the GPU agents the profiler core lists after "
     "loading its backends (those under `--rocm-root` when given), or one line saying why "
     "none, with each GPU's PC sampling configurations; then each GPU's counters (or "
     "`--counter-chip`'s); with `-o`/`-d` also "
     "`<prefix>_basic_metrics.csv` and `<prefix>_derived_metrics.csv`."},
    {"preload", "Put first in `LD_PRELOAD`, before the existing value and the tool library."},
    {"rocm_root", "Where the CLI looks for `lib/rocprofiler-sdk/librocprofiler-sdk-tool.so`."},
    {"sdk_soversion", "Accepted and ignored (no versioned SDK library to resolve)."},
    {"sdk_version", "Accepted and ignored (no versioned SDK library to resolve)."},
    {"readlink", "Accepted and ignored."},
    {"realpath", "Accepted and ignored."},
    {"suppress_marker_preload", "Keeps the ROCTx library out of `LD_PRELOAD`."},
    {"echo", "Prints the environment and `command: [...]` of each pass; launches nothing."},
    {"disable_signal_handlers", "Written as `ROCPROF_SIGNAL_HANDLERS=0`."},
    {"minimum_output_data", "Written in bytes (KB x 1024)."},
    {"mangled_kernels", "Written as `ROCPROF_DEMANGLE_KERNELS=0`."},
    {"pid", "Reserved: any use is an error, as in rocprofv3 7.0."},
};

std::string value_of(const option_spec& spec) {
  switch (spec.type) {
    case value_type::boolean:
      return "BOOL";
    case value_type::integer:
      if (spec.min_value == 0 && spec.max_value == UINT64_MAX) return "INT";
      return "INT " + std::to_string(spec.min_value) + ".." + std::to_string(spec.max_value);
    case value_type::string:
      return std::string(spec.metavar.empty() ? "TEXT" : spec.metavar);
    case value_type::string_list:
      return std::string(spec.metavar) + (spec.zero_or_more ? " [...]" : " ...");
    case value_type::choice:
      return "`" + std::string(spec.choices) + "`";
    case value_type::choice_list:
      return "`" + std::string(spec.choices) + "` ...";
    case value_type::group_list:
      return "list of lists";
  }
  return "";
}

std::string names_of(const option_spec& spec) {
  if (spec.long_name.empty()) return "`" + std::string(spec.key) + "` (input file)";
  std::string names;
  if (!spec.short_name.empty()) names += "`-" + std::string(spec.short_name) + "`, ";
  names += "`--" + std::string(spec.long_name) + "`";
  for (auto alias : rocprof::config::words(spec.aliases))
    names += ", `--" + std::string(alias) + "`";
  if (spec.hidden) names += " (hidden)";
  return names;
}

std::string note_of(const option_spec& spec) {
  if (spec.amd_only) {
    return "Accepted and passed on; nothing is collected (no AMD backend in this build; one "
           "warning names it).";
  }
  if (const auto it = k_cli_notes.find(spec.key); it != k_cli_notes.end()) {
    return std::string(it->second);
  }
  if (spec.key == "cuda_api_queries") {  // the list itself, so the page cannot drift from it
    std::string listed;
    for (const auto query : rocprof::common::cuda_state_queries)
      listed += (listed.empty() ? "`" : ", `") + std::string(query) + "`";
    return "Off: the tool leaves " + listed +
           " out of the API trace (CUPTI records none of them) unless `--cuda-api-include` "
           "names them.";
  }
  if (const auto* backend = rocprof::config::find_backend(spec.backend)) {
    return "Collected by the " + std::string(backend->label) + " backend (sets `" +
           std::string(backend->injection) + "` when present).";
  }
  if (!spec.env.empty()) return "Passed to the tool library.";
  return "";
}

}  // namespace

int main() {
  std::vector<std::string_view> groups;
  for (const auto& spec : rocprof::config::schema()) {
    if (spec.scope == rocprof::config::option_scope::env_only) continue;
    bool seen = false;
    for (auto group : groups)
      seen |= group == spec.group;
    if (!seen) groups.push_back(spec.group);
  }
  for (auto group : groups) {
    std::cout << "### " << group << "\n\n"
              << "| Option | Value | Default | Environment | Meaning | This build |\n"
              << "|---|---|---|---|---|---|\n";
    for (const auto& spec : rocprof::config::schema()) {
      if (spec.group != group || spec.scope == rocprof::config::option_scope::env_only) continue;
      const auto def = !spec.cli_default.empty() ? spec.cli_default : spec.default_value;
      std::cout << "| " << names_of(spec) << " | " << value_of(spec) << " | "
                << (def.empty() ? "" : "`" + std::string(def) + "`") << " | "
                << (spec.env.empty() ? "" : "`" + std::string(spec.env) + "`") << " | " << spec.help
                << " | " << note_of(spec) << " |\n";
    }
    std::cout << "\n";
  }
  std::cout << "### Tool settings without an option\n\n"
            << "| Variable | Default | Meaning |\n|---|---|---|\n";
  for (const auto& spec : rocprof::config::schema()) {
    if (spec.scope != rocprof::config::option_scope::env_only) continue;
    std::cout << "| `" << spec.env << "` | "
              << (spec.default_value.empty() ? "" : "`" + std::string(spec.default_value) + "`")
              << " | " << spec.help << " |\n";
  }
  return 0;
}
