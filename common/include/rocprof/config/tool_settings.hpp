// The tool library's view of the configuration: what rocprofv3 (the CLI) resolved for one pass
// and handed over through environment variables. Read once at tool start-up.
//
// The names, types, defaults and environment variables come from the one configuration schema
// (rocprof/config/schema.hpp); nothing here repeats a default. The CLI is the writer of these
// variables, read_tool_settings() the reader.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rocprof/config/collection_period.hpp"
#include "rocprof/config/iteration_range.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/config/values.hpp"

namespace rocprof::config {

// The output formats when ROCPROF_OUTPUT_FORMAT names none: the schema's default, spelled as
// the tool spells formats (upper case, as rocprofv3's tool).
std::vector<std::string> default_output_formats();

struct tool_settings {
  // Tracing domains that are on: the keys of the schema's tracing-domain rows (kernel_trace,
  // marker_trace, cuda_runtime_trace, ...), filled by one loop over the schema.
  std::set<std::string, std::less<>> domains;
  bool traces(std::string_view key) const { return domains.find(key) != domains.end(); }

  // Counters.
  bool counter_collection = false;
  std::vector<std::string> counters;  // parsed from ROCPROF_COUNTERS ("pmc: A B")
  std::vector<std::vector<std::string>> counter_groups;  // ROCPROF_COUNTER_GROUPS lines
  uint64_t counter_groups_interval = 1;
  std::string extra_counters_contents;
  bool kernel_replay = false;  // ROCPROF_KERNEL_REPLAY: multi-pass groups replay each kernel
  // SPM: device-wide counters sampled on the GPU's timer (ROCPROF_SPM_*).
  std::vector<std::string> spm_counters;  // parsed from ROCPROF_SPM_COUNTERS ("spm: A B")
  uint64_t spm_interval_ns = 100000;

  // Output.
  // Unexpanded (placeholders); ROCPROF_OUTPUT_PATH and ROCPROF_OUTPUT_FILE_NAME. Unset or empty:
  // the schema's defaults.
  std::string output_path{option("output_directory").default_value};
  std::string output_file{option("output_file").default_value};
  std::string tmp_directory;
  // ROCPROF_RECOVERY_REGISTRY, set by the rocprofv3 launcher: a directory where the process
  // registers its record journal, so that the launcher can write the outputs of a process that
  // died without finishing. Empty (the tool loaded without rocprofv3): no journal.
  std::string recovery_registry;
  // Upper-case tokens (ROCPD CSV JSON PFTRACE OTF2), each once, in the order given.
  std::vector<std::string> output_formats = default_output_formats();
  bool output_config = false;
  uint64_t minimum_output_bytes = 0;

  // Kernel naming and filtering.
  bool demangle = true;
  bool truncate = false;
  bool kernel_rename = false;
  bool kernel_host_callstack = false;  // host call stack of each kernel launch
  std::string kernel_include_regex;
  std::string kernel_exclude_regex;
  std::string kernel_iteration_range;  // as given
  iteration_range kernel_iterations;   // parsed; no intervals: every iteration
  // ROCPROF_CUDA_API_INCLUDE / _EXCLUDE: the CUDA API functions the API trace records (empty:
  // every one) and those it then leaves out (names as the user writes them).
  std::vector<std::string> cuda_api_include;
  std::vector<std::string> cuda_api_exclude;
  // ROCPROF_CUDA_API_QUERIES: also record common::cuda_state_queries (left out by default).
  bool cuda_api_queries = false;

  // Display.
  bool group_by_queue = false;
  std::string agent_index;  // absolute / relative / type-relative

  // Stats and summaries.
  bool stats = false;
  bool summary = false;
  bool summary_per_domain = false;
  std::vector<std::string> summary_groups;
  std::string summary_output;  // stdout / stderr / file name
  std::string summary_units;   // sec / msec / usec / nsec

  // Collection control.
  std::vector<collection_period> collection_periods;
  bool collection_period_testing = false;
  bool selected_regions = false;
  bool signal_handlers = true;

  // PC sampling.
  std::string pc_sampling_method;
  std::string pc_sampling_unit;
  uint64_t pc_sampling_interval = 1;

  // Advanced thread trace (accepted; no backend in this build).
  bool advanced_thread_trace = false;

  // Perfetto.
  std::string perfetto_backend;
  uint64_t perfetto_buffer_size_kb = 0;
  uint64_t perfetto_shmem_size_hint_kb = 0;
  std::string perfetto_buffer_fill_policy;

  std::string benchmark_mode;
  std::string log_level;
};

using env_lookup = std::function<const char*(const char* name)>;  // returns nullptr if unset

struct read_result {
  tool_settings settings;
  std::vector<std::string> errors;    // fatal: a value that cannot be used (names the variable)
  std::vector<std::string> warnings;  // e.g. an unparsable integer that fell back to its default
};

// Reads every variable of the schema through `lookup` (default: ::getenv).
read_result read_tool_settings(const env_lookup& lookup = nullptr);

}  // namespace rocprof::config
