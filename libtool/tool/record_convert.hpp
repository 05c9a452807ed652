// Converts the core's buffer records (rocprofiler-sdk layouts) into the trace model and hands
// them to the spool. Runs on buffer callback threads.
#pragma once

#include <cstddef>

#include <rocprofiler-sdk/rocprofiler.h>

namespace rocprof::tool {

struct tool_state;

// Converts every tracing record among headers; counts drop_count into the definitions.
void convert_records(tool_state& tool, rocprofiler_record_header_t** headers, size_t count,
                     uint64_t drop_count);

}  // namespace rocprof::tool
