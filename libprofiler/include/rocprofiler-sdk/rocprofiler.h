// Umbrella header of the profiler core's public C API, plus the small utility calls.
#pragma once

// rocprofiler-sdk's umbrella header brings standard C headers in through the HIP and HSA
// runtime headers it includes, and tools written against it (AMD's sample tools among them) use
// assert(), memset and the like without including them: the umbrella includes them too.
#include <assert.h>
#include <string.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/buffer.h"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/context.h"
#include "rocprofiler-sdk/counter_config.h"
#include "rocprofiler-sdk/counters.h"
#include "rocprofiler-sdk/device_counting_service.h"
#include "rocprofiler-sdk/dispatch_counting_service.h"
#include "rocprofiler-sdk/external_correlation.h"
#include "rocprofiler-sdk/internal_threading.h"
#include "rocprofiler-sdk/marker_api.h"
#include "rocprofiler-sdk/operations.h"
#include "rocprofiler-sdk/pc_sampling.h"
#include "rocprofiler-sdk/registration.h"
#include "rocprofiler-sdk/spm.h"

#include "rocprofiler-sdk/deprecated/profile_config.h"
#include "rocprofiler-sdk/experimental/counters.h"

ROCPROFILER_EXTERN_C_INIT

/// The library's version; each pointer may be NULL. Callable before any tool is configured.
ROCPROFILER_API rocprofiler_status_t rocprofiler_get_version(uint32_t* major, uint32_t* minor,
                                                             uint32_t* patch);
/// The same as one struct (cxx/operators.hpp compares them).
ROCPROFILER_API rocprofiler_status_t
rocprofiler_get_version_triplet(rocprofiler_version_triplet_t* info) ROCPROFILER_NONNULL(1);

/// Nanoseconds on CLOCK_BOOTTIME: the one clock of every record.
ROCPROFILER_API rocprofiler_status_t rocprofiler_get_timestamp(rocprofiler_timestamp_t* ts)
    ROCPROFILER_NONNULL(1);

/// The calling thread's OS id (cached per thread; reset in a forked child).
ROCPROFILER_API rocprofiler_status_t rocprofiler_get_thread_id(rocprofiler_thread_id_t* tid)
    ROCPROFILER_NONNULL(1);

/// Static strings: the enumerator name ("ROCPROFILER_STATUS_ERROR_BUFFER_BUSY") and a
/// sentence. Unknown values give a non-NULL "unknown status" text.
ROCPROFILER_API const char* rocprofiler_get_status_name(rocprofiler_status_t status);
ROCPROFILER_API const char* rocprofiler_get_status_string(rocprofiler_status_t status);

ROCPROFILER_EXTERN_C_FINI
