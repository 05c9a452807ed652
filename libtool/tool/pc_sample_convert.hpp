// PC sampling records (ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING) into the trace model's
// pc_sample_record. Runs on the PC sampling buffer's callback thread.
#pragma once

#include <rocprofiler-sdk/rocprofiler.h>

#include "record_batch.hpp"

namespace rocprof::tool {

struct tool_state;

// Appends the record of one PC sampling buffer entry to `out`; entries of kinds the tool does
// not know are skipped.
void convert_pc_sample(tool_state& tool, const rocprofiler_record_header_t& header,
                       record_batch& out);

}  // namespace rocprof::tool
