// Code objects (cubins on NVIDIA GPUs) and kernel symbols the core reported, kept for kernel
// names (rocprofiler_query_kernel_info, tracer records) and for code-object capture
// (rocprofiler_codeobj_capture_*).
#pragma once

#include <cstdint>

#include "core_events.hpp"
#include "rocprofiler/v2/rocprofiler.h"

namespace rocprof::v2::code_objects {

// From the core's code-object context (any thread).
void loaded(const core_code_object& object);
void unloaded(uint64_t id, uint64_t timestamp);
void kernel_symbol(const core_kernel_symbol& symbol);

/// The kernel's name (interned), or nullptr when no code object reported it.
const char* kernel_name(uint64_t kernel_id);

rocprofiler_status_t capture_create(rocprofiler_record_id_t* id,
                                    rocprofiler_codeobj_capture_mode_t mode, uint64_t userdata);
rocprofiler_status_t capture_get(rocprofiler_record_id_t id, rocprofiler_codeobj_symbols_t* out);
rocprofiler_status_t capture_free(rocprofiler_record_id_t id);
rocprofiler_status_t capture_start(rocprofiler_record_id_t id);
rocprofiler_status_t capture_stop(rocprofiler_record_id_t id);

}  // namespace rocprof::v2::code_objects
