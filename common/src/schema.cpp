#include "rocprof/config/schema.hpp"

#include <stdexcept>
#include <string>

#include "rocprof/config/values.hpp"
#include "schema_rows.hpp"

namespace rocprof::config {
namespace {

using namespace rows;
using vt = value_type;
using ef = env_form;

std::vector<option_spec> build_schema() {
  std::vector<option_spec> table = {
      row("version", "version")
          .s("v")
          .only(option_scope::cli_only)
          .in("Options")
          .says("Print the version of this build and exit"),

      // I/O
      row("input", "input")
          .s("i")
          .of(vt::string)
          .only(option_scope::cli_only)
          .in(k_io)
          .meta("INPUT")
          .says("Run configuration: a .txt counter file (pmc: lines) or a .yaml, "
                ".yml or .json file with a top-level 'jobs' list"),
      row("output_file", "output-file")
          .s("o")
          .of(vt::string)
          .def("%hostname%/%pid%")
          .to("ROCPROF_OUTPUT_FILE_NAME", ef::text)
          .in(k_io)
          .meta("OUTPUT_FILE")
          .says("Output file name prefix; may contain '/' and placeholders"),
      row("output_directory", "output-directory")
          .s("d")
          .of(vt::string)
          .def("%cwd%")
          .to("ROCPROF_OUTPUT_PATH", ef::custom)
          .in(k_io)
          .meta("OUTPUT_DIRECTORY")
          .says("Output directory; placeholders allowed (%cwd%: the current directory)"),
      row("output_format", "output-format")
          .s("f")
          .of(vt::choice_list)
          .among("csv json pftrace otf2 rocpd")
          .def("rocpd")
          .to("ROCPROF_OUTPUT_FORMAT", ef::custom)
          .in(k_io)
          .meta("FORMAT")
          .says("Output formats, several allowed"),
      row("output_config", "output-config")
          .to("ROCPROF_OUTPUT_CONFIG_FILE", ef::flag)
          .in(k_io)
          .meta("BOOL")
          .says("Also write PREFIX_config.json with the resolved configuration"),
      row("log_level", "log-level")
          .of(vt::choice)
          .among("fatal error warning info trace env config")
          .to("ROCPROF_LOG_LEVEL", ef::custom)
          .in(k_io)
          .meta("LEVEL")
          .says("Logging level of the tool; 'env' and 'config' print what the CLI sets"),
      row("extra_counters", "extra-counters")
          .s("E")
          .of(vt::string)
          .to("ROCPROF_EXTRA_COUNTERS_CONTENTS", ef::custom)
          .in(k_io)
          .meta("YAML")
          .says("YAML file with extra counter definitions (its contents are passed on)"),

  };
  // The domain table (aggregate, basic, granular and counter rows) comes next in --help order.
  for (auto& spec : domain_rows())
    table.push_back(spec);
  for (auto& spec : pc_sampling_rows())
    table.push_back(spec);
  const std::vector<option_spec> rest = {
      // Post-processing
      row("stats", "stats")
          .to("ROCPROF_STATS", ef::flag)
          .in(k_post)
          .meta("BOOL")
          .says("Write per-domain statistics files"),
      row("summary", "summary")
          .s("S")
          .to("ROCPROF_STATS_SUMMARY", ef::flag)
          .in(k_post)
          .meta("BOOL")
          .says("Print one summary table of all domains at exit"),
      row("summary_per_domain", "summary-per-domain")
          .s("D")
          .to("ROCPROF_STATS_SUMMARY_PER_DOMAIN", ef::flag)
          .in(k_post)
          .meta("BOOL")
          .says("Print one summary table per domain"),
      row("summary_groups", "summary-groups")
          .of(vt::string_list)
          .to("ROCPROF_STATS_SUMMARY_GROUPS", ef::joined)
          .sep("##@@##")
          .in(k_post)
          .meta("REGULAR_EXPRESSION")
          .says("One summary per regex over the domain names it fully matches"),

      // Summary
      row("summary_output_file", "summary-output-file")
          .of(vt::string)
          .def("stderr")
          .to("ROCPROF_STATS_SUMMARY_OUTPUT", ef::custom)
          .in(k_summary)
          .meta("FILE")
          .says("Summary destination: stdout, stderr or a file name"),
      row("summary_units", "summary-units")
          .s("u")
          .of(vt::choice)
          .among("sec msec usec nsec")
          .def("nsec")
          .to("ROCPROF_STATS_SUMMARY_UNITS", ef::text)
          .in(k_summary)
          .meta("UNIT")
          .says("Time unit of the summary tables"),

      // Kernel naming
      row("mangled_kernels", "mangled-kernels")
          .s("M")
          .def("1")
          .to("ROCPROF_DEMANGLE_KERNELS", ef::negated_flag)
          .in(k_naming)
          .meta("BOOL")
          .says("Keep kernel names mangled"),
      row("truncate_kernels", "truncate-kernels")
          .s("T")
          .alias("basenames")
          .to("ROCPROF_TRUNCATE_KERNELS", ef::flag)
          .in(k_naming)
          .meta("BOOL")
          .says("Truncate demangled kernel names to the function name"),
      row("kernel_rename", "kernel-rename")
          .alias("roctx-rename")
          .to("ROCPROF_KERNEL_RENAME", ef::flag)
          .in(k_naming)
          .meta("BOOL")
          .says("Name kernels after the innermost enclosing marker range"),
      row("kernel_host_callstack", "kernel-host-callstack")
          .to("ROCPROF_KERNEL_HOST_CALLSTACK", ef::flag)
          .in(k_naming)
          .meta("BOOL")
          .says("Record the host call stack of each kernel launch (function, file, line)"),

      // Filtering
      row("kernel_include_regex", "kernel-include-regex")
          .of(vt::string)
          .def(".*")
          .to("ROCPROF_KERNEL_FILTER_INCLUDE_REGEX", ef::text)
          .in(k_filter)
          .meta("REGULAR_EXPRESSION")
          .says("Profile only kernels whose name contains a match (counters, thread trace)"),
      row("kernel_exclude_regex", "kernel-exclude-regex")
          .of(vt::string)
          .to("ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX", ef::text)
          .in(k_filter)
          .meta("REGULAR_EXPRESSION")
          .says("Then drop kernels whose name contains a match"),
      row("kernel_iteration_range", "kernel-iteration-range")
          .of(vt::string_list)
          .to("ROCPROF_KERNEL_FILTER_RANGE", ef::joined)
          .sep(", ")
          .in(k_filter)
          .meta("RANGE")
          .says("Iterations of each kernel to profile, e.g. \"[1, 2, [5-8]]\""),
      row("cuda_api_include", "cuda-api-include")
          .of(vt::string_list)
          .to("ROCPROF_CUDA_API_INCLUDE", ef::joined)
          .sep(",")
          .in(k_filter)
          .meta("FUNCTION")
          .says("Record only these CUDA runtime/driver API functions in the API trace (space or "
                "comma separated, e.g. cudaLaunchKernel cudaMemcpyAsync)"),
      row("cuda_api_exclude", "cuda-api-exclude")
          .of(vt::string_list)
          .to("ROCPROF_CUDA_API_EXCLUDE", ef::joined)
          .sep(",")
          .in(k_filter)
          .meta("FUNCTION")
          .says("Leave these CUDA runtime/driver API functions out of the API trace (space or "
                "comma separated, e.g. cudaGetDevice cuCtxGetCurrent); they still run"),
      row("collection_period", "collection-period")
          .s("P")
          .of(vt::string_list)
          .to("ROCPROF_COLLECTION_PERIOD", ef::custom)
          .in(k_filter)
          .meta("DELAY:DURATION:REPEAT")
          .says("Time windows of collection"),
      row("collection_period_unit", "collection-period-unit")
          .of(vt::choice)
          .among("hour min sec msec usec nsec")
          .cli_def("sec")
          .in(k_filter)
          .meta("UNIT")
          .says("Unit of --collection-period delays and durations"),
      row("collection_period_testing", "")
          .def("0")
          .to("ROCPROF_COLLECTION_PERIOD_TESTING", ef::flag)
          .only(option_scope::env_only)
          .says("Write the collection periods log"),
      row("selected_regions", "selected-regions")
          .to("ROCPROF_SELECTED_REGIONS", ef::flag)
          .in(k_filter)
          .meta("BOOL")
          .says("Start paused; roctxProfilerResume/Pause switch collection on and off"),

      // Perfetto
      row("perfetto_backend", "perfetto-backend")
          .of(vt::choice)
          .among("inprocess system")
          .def("inprocess")
          .to("ROCPROF_PERFETTO_BACKEND", ef::text)
          .in(k_perfetto)
          .meta("KIND")
          .says("Perfetto backend ('system' needs the traced daemons)"),
      row("perfetto_buffer_size", "perfetto-buffer-size")
          .of(vt::integer)
          .range(1, UINT32_MAX)
          .def("1048576")
          .to("ROCPROF_PERFETTO_BUFFER_SIZE_KB", ef::text)
          .in(k_perfetto)
          .meta("KB")
          .says("Perfetto trace buffer size in KB"),
      row("perfetto_buffer_fill_policy", "perfetto-buffer-fill-policy")
          .of(vt::choice)
          .among("discard ring_buffer")
          .def("discard")
          .to("ROCPROF_PERFETTO_BUFFER_FILL_POLICY", ef::text)
          .in(k_perfetto)
          .meta("POLICY")
          .says("What happens when the Perfetto buffer is full"),
      row("perfetto_shmem_size_hint", "perfetto-shmem-size-hint")
          .of(vt::integer)
          .range(0, UINT32_MAX)
          .def("64")
          .to("ROCPROF_PERFETTO_SHMEM_SIZE_HINT_KB", ef::text)
          .in(k_perfetto)
          .meta("KB")
          .says("Perfetto shared memory size hint in KB"),

      // Display
      row("list_avail", "list-avail")
          .s("L")
          .in(k_display)
          .meta("BOOL")
          .says("List the agents and counters available on this machine"),
      row("group_by_queue", "group-by-queue")
          .to("ROCPROF_GROUP_BY_QUEUE", ef::flag)
          .in(k_display)
          .meta("BOOL")
          .says("Group kernels and copies by queue instead of stream"),

      // Advanced
      row("preload", "preload")
          .of(vt::string_list)
          .star()
          .in(k_advanced)
          .meta("LIB")
          .says("Libraries put first in LD_PRELOAD (default: $ROCPROF_PRELOAD split on ':')"),
      row("rocm_root", "rocm-root")
          .of(vt::string)
          .in(k_advanced)
          .meta("PATH")
          .says("Installation root holding lib/ (default: the parent of rocprofv3's bin/)"),
      row("sdk_soversion", "sdk-soversion")
          .of(vt::integer)
          .in(k_advanced)
          .meta("N")
          .says("Accepted for compatibility; this build needs no SDK library version"),
      row("sdk_version", "sdk-version")
          .of(vt::string)
          .in(k_advanced)
          .meta("X.Y.Z")
          .says("Accepted for compatibility; this build needs no SDK library version"),
      row("readlink", "readlink").in(k_advanced).hide().meta("BOOL"),
      row("realpath", "realpath").in(k_advanced).hide().meta("BOOL"),
      row("benchmark_mode", "benchmark-mode")
          .of(vt::choice)
          .among("disabled-sdk-contexts sdk-buffer-overhead sdk-callback-overhead "
                 "tool-runtime-overhead execution-profile")
          .to("ROCPROF_BENCHMARK_MODE", ef::text)
          .in(k_advanced)
          .hide()
          .meta("MODE"),
      row("agent_index", "agent-index")
          .s("A")
          .of(vt::choice)
          .among("absolute relative type-relative")
          .def("relative")
          .to("ROCPROF_AGENT_INDEX", ef::text)
          .in(k_advanced)
          .meta("KIND")
          .says("How agents are numbered in outputs"),
      row("suppress_marker_preload", "suppress-marker-preload").in(k_advanced).hide().meta("BOOL"),
      row("echo", "echo").only(option_scope::cli_only).in(k_advanced).hide().meta("BOOL"),
      row("disable_signal_handlers", "disable-signal-handlers")
          .def("1")
          .to("ROCPROF_SIGNAL_HANDLERS", ef::negated_flag)
          .in(k_advanced)
          .meta("BOOL")
          .says("Do not install the tool's signal handlers"),
      row("minimum_output_data", "minimum-output-data")
          .of(vt::integer)
          .range(0, UINT64_MAX / 1024)
          .def("0")
          .to("ROCPROF_MINIMUM_OUTPUT_BYTES", ef::custom)
          .in(k_advanced)
          .meta("KB")
          .says("Write no output unless at least this many KB were collected"),
      row("tmp_directory", "")
          .of(vt::string)
          .to("ROCPROF_TMPDIR", ef::text)
          .only(option_scope::env_only)
          .says("Directory of spill and journal files (default: output path)"),
      row("recovery_registry", "")
          .of(vt::string)
          .to("ROCPROF_RECOVERY_REGISTRY", ef::text)
          .only(option_scope::env_only)
          .says("Set by rocprofv3: where each process registers its record journal"),
      row("launch_time_format", "")
          .of(vt::string)
          .def("%F_%H.%M")
          .to("ROCPROF_TIME_FORMAT", ef::text)
          .only(option_scope::env_only)
          .says("strftime format of %launch_time%"),
      row("launch_date_format", "")
          .of(vt::string)
          .def("%F")
          .to("ROCPROF_DATE_FORMAT", ef::text)
          .only(option_scope::env_only)
          .says("strftime format of %launch_date%"),

      // MPI (rocprofv3's newer driver, facts §1.9): read by the CLI, which runs unselected
      // ranks unprofiled and exports the variable names it used.
      row("profile_mpi_ranks", "profile-mpi-ranks")
          .of(vt::string)
          .only(option_scope::cli_only)
          .in("MPI options")
          .meta("SPEC")
          .says("Profile only these MPI ranks, e.g. 0-3,8,10-15 (default: $ROCPROF_MPI_RANKS, "
                "else every rank)"),
      row("mpi_world_rank_variable", "mpi-world-rank-variable")
          .of(vt::string)
          .to("ROCPROF_MPI_RANK_VAR", ef::custom)
          .only(option_scope::cli_only)
          .in("MPI options")
          .meta("ENV")
          .says("Variable holding the MPI world rank (with --mpi-world-size-variable; default: "
                "the first set of the launchers' variables)"),
      row("mpi_world_size_variable", "mpi-world-size-variable")
          .of(vt::string)
          .to("ROCPROF_MPI_SIZE_VAR", ef::custom)
          .only(option_scope::cli_only)
          .in("MPI options")
          .meta("ENV")
          .says("Variable holding the MPI world size (with --mpi-world-rank-variable)"),

      // Reserved
      row("pid", "pid")
          .s("p")
          .of(vt::string_list)
          .in(k_reserved)
          .hide()
          .meta("PID")
          .only(option_scope::cli_only),

  };
  table.insert(table.end(), rest.begin(), rest.end());
  for (auto& spec : thread_trace_rows())
    table.push_back(spec);
  return table;
}

}  // namespace

const std::vector<option_spec>& schema() {
  static const std::vector<option_spec> table = build_schema();
  return table;
}

const option_spec* find_option(std::string_view key) {
  for (const auto& spec : schema()) {
    if (spec.key == key) return &spec;
  }
  return nullptr;
}

const option_spec& option(std::string_view key) {
  if (const auto* spec = find_option(key)) return *spec;
  throw std::logic_error("configuration schema has no key '" + std::string(key) + "'");
}

std::string integer_range_problem(const option_spec& spec, uint64_t value) {
  if (value >= spec.min_value && value <= spec.max_value) return {};
  const std::string got = " (got " + std::to_string(value) + ")";
  if (spec.max_value == UINT64_MAX) {
    return (spec.min_value == 1 ? std::string("must be greater than 0")
                                : "must be at least " + std::to_string(spec.min_value)) +
           got;
  }
  if (spec.min_value == 0) return "must be at most " + std::to_string(spec.max_value) + got;
  return "must be between " + std::to_string(spec.min_value) + " and " +
         std::to_string(spec.max_value) + got;
}

std::vector<std::string_view> words(std::string_view field) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos < field.size()) {
    const size_t start = field.find_first_not_of(' ', pos);
    if (start == std::string_view::npos) break;
    const size_t end = field.find(' ', start);
    const size_t stop = end == std::string_view::npos ? field.size() : end;
    out.push_back(field.substr(start, stop - start));
    pos = stop;
  }
  return out;
}

std::optional<std::string_view> find_choice(const option_spec& spec, std::string_view word) {
  for (auto choice : words(spec.choices)) {
    if (equal_ignoring_case(choice, word)) return choice;
  }
  return std::nullopt;
}

}  // namespace rocprof::config
