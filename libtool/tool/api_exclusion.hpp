// --cuda-api-exclude: the CUDA API functions the trace leaves out. CUPTI is then told not to
// record them at all (no activity record, no callback), which is what makes leaving out
// frequent calls such as cudaGetDevice cheaper than dropping their records afterwards.
#pragma once

#include <rocprofiler-sdk/buffer_tracing.h>

#include <string>
#include <vector>

namespace rocprof::tool {

struct api_operation_choice {
  // The operations to trace; empty: every operation (nothing excluded, or the kind's operations
  // could not be listed).
  std::vector<rocprofiler_tracing_operation_t> operations;
  std::vector<bool> matched;  // per excluded name: it named an operation of the kind
  bool listed = false;        // the kind's operations could be listed (its backend is there)
};

// Whether `kind` is one that --cuda-api-exclude applies to.
bool is_cuda_api_kind(rocprofiler_buffer_tracing_kind_t kind);

// Every operation of `kind` except those `excluded` names (matched by cuda_api_name_matches).
api_operation_choice operations_without(rocprofiler_buffer_tracing_kind_t kind,
                                        const std::vector<std::string>& excluded);

}  // namespace rocprof::tool
