// Converts the core's buffer records (rocprofiler-sdk layouts) into the trace model and hands
// them to the spool. Runs on buffer callback threads.
#pragma once

#include <cstddef>

#include <rocprofiler-sdk/rocprofiler.h>

#include "rocprof/trace/model.hpp"

namespace rocprof::tool {

struct tool_state;

// Converts every tracing record among headers; counts drop_count into the definitions.
void convert_records(tool_state& tool, rocprofiler_record_header_t** headers, size_t count,
                     uint64_t drop_count);

// What every dispatch record of the core says about its dispatch (the kernel trace's and the
// dispatch counting service's alike): ids, agent, queue, segment sizes, workgroup and grid.
void fill_dispatch_info(trace::kernel_dispatch_record& out,
                        const rocprofiler_kernel_dispatch_info_t& info);

// With --kernel-rename, the region name an async record's external correlation id names (the
// message of the enclosing ROCTx range); the id becomes that string's id. Empty otherwise.
trace::string_id kernel_region(tool_state& tool, trace::correlation& corr);

}  // namespace rocprof::tool
