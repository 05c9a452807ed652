// The return value and arguments of a CUDA API buffer record as the trace model keeps them:
// one interned text per distinct argument list (rocprof/trace/api_args.hpp), decoded through
// the core's rocprofiler_iterate_buffer_tracing_record_args. On the buffer callback threads.
#pragma once

#include <rocprofiler-sdk/rocprofiler.h>

#include "api_args_memo.hpp"
#include "definitions_builder.hpp"
#include "rocprof/trace/model.hpp"

namespace rocprof::tool {

// Bytes of distinct argument lists kept per process; beyond, records carry none (a loop over
// the same buffers repeats its lists, so this is reached only by calls whose arguments never
// repeat, e.g. copies at ever-new offsets).
inline constexpr uint64_t api_args_budget_bytes = uint64_t{64} << 20;

// empty_string for records without arguments, or when the budget is spent (said once on
// stderr). A call whose argument bytes the thread's memo has seen reuses that text's id.
trace::string_id convert_api_args(definitions_builder& defs, api_args_memo& memo,
                                  const rocprofiler_record_header_t& header);

}  // namespace rocprof::tool
