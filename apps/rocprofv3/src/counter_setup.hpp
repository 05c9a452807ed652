// Where the CLI's counter checks and the counters of --list-avail come from: the GPUs the
// profiler core lists (their architecture), or the chip named with --counter-chip (else
// $ROCPROF_COUNTER_CHIP), listed offline by the backend; definitions from the shipped YAML next
// to the installation plus a pass's -E file.
//
// $ROCPROF_COUNTER_CHECK=0 hands counters to the tool unchecked (the tool still reports unknown
// names, as rocprofv3's does); tests of the environment hand-off use it.
#pragma once

#include <rocprofiler-sdk/agent.h>

#include <ostream>
#include <string>
#include <vector>

#include "counter_check.hpp"
#include "environment.hpp"
#include "job.hpp"
#include "passes.hpp"
#include "tool_paths.hpp"

namespace rocprof::cli {

// --counter-chip, else $ROCPROF_COUNTER_CHIP in `base`; empty when neither is set.
std::string named_counter_chip(const job& cli, const environment& base);

// False when $ROCPROF_COUNTER_CHECK is 0 / off / false / no.
bool counter_check_enabled(const environment& base);

// Checks the counters of every pass (counter_check.hpp) against the named chip or the GPUs.
// Throws usage_error, among others when counters are requested and no GPU is visible.
counter_check_result check_run_counters(std::vector<pass> passes, const job& cli,
                                        const tool_paths& paths, const environment& base);

// --list-avail's counters: per GPU of `gpus` (or for the named chip, then listed alone), the
// counter entries; with -o or -d also the CSV files. `why_no_gpu` explains an empty `gpus`.
void print_available_counters(std::ostream& out, const std::vector<rocprofiler_agent_v0_t>& gpus,
                              const job& cli, const tool_paths& paths, const environment& base);

}  // namespace rocprof::cli
