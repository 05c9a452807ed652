// Callback (delivery) threads of buffers.
#pragma once

#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

typedef enum rocprofiler_runtime_library_t {
  ROCPROFILER_LIBRARY = (1 << 0),
  ROCPROFILER_HSA_LIBRARY = (1 << 1),
  ROCPROFILER_HIP_LIBRARY = (1 << 2),
  ROCPROFILER_MARKER_LIBRARY = (1 << 3),
  ROCPROFILER_RCCL_LIBRARY = (1 << 4),
  ROCPROFILER_ROCDECODE_LIBRARY = (1 << 5),
  ROCPROFILER_ROCJPEG_LIBRARY = (1 << 6),
  ROCPROFILER_CUDA_LIBRARY = (1 << 7),  ///< extension
  ROCPROFILER_LIBRARY_LAST = ROCPROFILER_CUDA_LIBRARY,
} rocprofiler_runtime_library_t;

typedef void (*rocprofiler_internal_thread_library_cb_t)(rocprofiler_runtime_library_t, void*);

/// pre runs on the creating thread before the core creates an internal thread, post after.
ROCPROFILER_API rocprofiler_status_t rocprofiler_at_internal_thread_create(
    rocprofiler_internal_thread_library_cb_t precreate,
    rocprofiler_internal_thread_library_cb_t postcreate, int libs, void* data);

/// Creates a new delivery thread (initialisation only).
ROCPROFILER_API rocprofiler_status_t rocprofiler_create_callback_thread(
    rocprofiler_callback_thread_t* cb_thread_id) ROCPROFILER_NONNULL(1);

/// Makes buffer_id deliver on cb_thread_id (initialisation only).
ROCPROFILER_API rocprofiler_status_t rocprofiler_assign_callback_thread(
    rocprofiler_buffer_id_t buffer_id, rocprofiler_callback_thread_t cb_thread_id);

ROCPROFILER_EXTERN_C_FINI
