// What the core hands the v2 library, in types of neither API: the core side (core_port.cpp,
// core_table.cpp, core_records.cpp: the only files that include rocprofiler-sdk/ headers)
// fills these, the v2 side
// (everything else, which includes only rocprofiler/v2/rocprofiler.h) reads them. The two
// headers declare different functions and types under the same names, so no translation
// unit may see both.
#pragma once

#include <cstdint>

namespace rocprof::v2 {

/// Which v2 domain a core record belongs to (see rocprofiler/v2/rocprofiler.h).
enum class event_class : uint8_t {
  runtime_api,  // CUDA runtime API (HIP runtime API on AMD)  -> ACTIVITY_DOMAIN_HIP_API
  driver_api,   // CUDA driver API (HSA API on AMD)           -> ACTIVITY_DOMAIN_HSA_API
  marker,       // ROCTx / NVTX ranges and marks              -> ACTIVITY_DOMAIN_ROCTX
  kernel,       // a kernel dispatch                           -> profiler record / HIP_OPS
  memory_copy,  // an async copy                               -> HIP_OPS / HSA_OPS
  memory_set,   // an async memset                             -> HIP_OPS / HSA_OPS
};

/// One finished record of the core, flattened. Strings are interned (valid until exit).
struct core_event {
  event_class what = event_class::runtime_api;
  uint32_t operation = 0;       // the core's operation id (CUPTI callback id, copy kind...)
  const char* name = nullptr;   // API function, marker message, or nullptr (kernels: by id)
  uint64_t correlation_id = 0;  // internal correlation id of the call (async: the launch's)
  uint64_t external_id = 0;
  uint64_t begin_ns = 0;
  uint64_t end_ns = 0;
  uint64_t thread_id = 0;
  uint64_t agent_id = 0;  // the GPU (async work); 0 for API calls
  uint64_t queue_id = 0;  // stream / queue (async work)
  uint64_t kernel_id = 0;
  uint64_t grid_size = 0;       // work-items in all dimensions
  uint64_t workgroup_size = 0;  // work-items per group
  uint64_t lds_size = 0;
  uint64_t scratch_size = 0;
  uint64_t bytes = 0;  // copies and memsets
};

/// A code object the core reported loaded (a cubin on NVIDIA GPUs).
struct core_code_object {
  uint64_t id = 0;
  const char* uri = nullptr;  // interned
  uint64_t load_base = 0;
  uint64_t load_size = 0;
  const void* memory = nullptr;  // its bytes in memory while the report lasts, or nullptr
  uint64_t memory_size = 0;
  uint64_t load_ns = 0;
};

/// A kernel symbol of a loaded code object.
struct core_kernel_symbol {
  uint64_t kernel_id = 0;
  uint64_t code_object_id = 0;
  const char* name = nullptr;  // interned
  uint32_t sgpr_count = 0;
  uint32_t arch_vgpr_count = 0;
  uint32_t accum_vgpr_count = 0;
};

/// An agent of the core (a GPU or a CPU).
struct core_agent {
  uint64_t id = 0;
  bool gpu = false;
  const char* name = nullptr;  // interned, e.g. "sm_90"
  uint32_t wave_size = 0;
};

}  // namespace rocprof::v2
