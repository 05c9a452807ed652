// Hardware counters per dispatch, through the core's dispatch counting service (callback form),
// as rocprofv3's tool collects them:
//   * its own context, started and stopped with the main context (start_counting);
//   * per agent, lazily at its first dispatch (CUDA agents appear once the driver is up): one
//     counter config per group (ROCPROF_COUNTERS, or each line of ROCPROF_COUNTER_GROUPS), of
//     the names the agent offers; a NAME:device=N counter only on the GPU whose type-relative
//     index is N; names an agent lacks are reported once on stderr (found and missing);
//   * the dispatch callback (launching thread) applies the kernel filters, the iteration range
//     and the group multiplexing (dispatch_selection.hpp) and keeps the thread id;
//   * the record callback turns each counted dispatch into a counter_dispatch_record and its
//     values into counter_value_records (counter id and instance id from the record's instance
//     id), appended to the spool; the counters used become definitions (with dimensions).
// ROCPROF_EXTRA_COUNTERS_CONTENTS (-E) is loaded with rocprofiler_load_counter_definition
// (APPEND) before any catalogue is built.
#pragma once

#include <cstdint>
#include <string_view>

#include <rocprofiler-sdk/fwd.h>

namespace rocprof::tool {

struct tool_state;

// Inside the core's initialize call; does nothing unless counter collection is on. Returns
// false (after saying why on stderr) when the service cannot be configured.
bool configure_counter_collection(tool_state& tool);

// Start / stop the counter context (with the main context: pause/resume, --selected-regions,
// --collection-period). Nothing when counters are off.
void start_counting(tool_state& tool);
void stop_counting(tool_state& tool);

// Adds the definition of a counter in use to the run's definitions (what the JSON "counters"
// table and rocpd_info_pmc show), dimensions and instances included.
void define_counter(tool_state& tool, rocprofiler_agent_id_t agent, rocprofiler_counter_id_t id);

// A kernel symbol's formatted name, for the kernel filters (code-object callback).
void note_kernel_symbol(tool_state& tool, uint64_t kernel_id, std::string_view formatted_name);

}  // namespace rocprof::tool
