// Code object and kernel symbol events reported by backends: forwarded to the CODE_OBJECT
// callback kind of active contexts, and kept (deep copies) so that a context started later
// receives the ones it missed.
#pragma once

#include <cstdint>

#include "rocprofiler-sdk/callback_tracing.h"

namespace rocprof::core {

struct context;

void report_code_object(rocprofiler_code_object_operation_t operation,
                        rocprofiler_callback_phase_t phase, const void* data);
/// Called when a context starts: delivers the events it has not seen yet.
void replay_code_objects(context* ctx);

}  // namespace rocprof::core
