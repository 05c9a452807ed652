// --cuda-api-include / --cuda-api-exclude / --cuda-api-queries: which CUDA API functions the
// trace records. The core gets an operation list per CUDA API kind, so CUPTI is told not to
// record the others at all (no activity record, no callback): leaving out frequent calls such as
// cudaGetDevice is cheaper than dropping their records afterwards.
#pragma once

#include <rocprofiler-sdk/buffer_tracing.h>

#include <string>
#include <vector>

namespace rocprof::tool {

struct api_operation_choice {
  // The operations to trace. Empty with `all` set: every operation (nothing left out, or the
  // kind's operations could not be listed); empty without it: none (trace nothing of the kind).
  std::vector<rocprofiler_tracing_operation_t> operations;
  bool all = true;
};

// Whether `kind` is one that the lists apply to.
bool is_cuda_api_kind(rocprofiler_buffer_tracing_kind_t kind);

// The operations of `kind` that `include` (empty: every function) keeps and `exclude` then
// leaves out (names matched by cuda_api_name_matches).
api_operation_choice choose_operations(rocprofiler_buffer_tracing_kind_t kind,
                                       const std::vector<std::string>& include,
                                       const std::vector<std::string>& exclude);

}  // namespace rocprof::tool
