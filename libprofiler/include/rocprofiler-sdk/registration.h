// Tool registration. A tool exports rocprofiler_configure (C linkage, default visibility); the
// core finds it (rocprofiler_force_configure, ROCP_TOOL_LIBRARIES, RTLD_DEFAULT, then a scan of
// every loaded shared object) and calls it once while the core initialises. Initialisation
// happens on the first use of the core (first marker call, first backend load, first
// rocprofiler_force_configure) or from the library constructor when ROCPROFILER_LIBRARY_CTOR=1.
#pragma once

#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// Identifies one tool. The tool sets name in rocprofiler_configure; the core sets handle.
typedef struct rocprofiler_client_id_t {
  size_t size;
  const char* name;
  uint32_t handle;
} rocprofiler_client_id_t;

/// Lets a tool finalise itself early (its finalize runs now, not at exit).
typedef void (*rocprofiler_client_finalize_t)(rocprofiler_client_id_t);

/// Called once, on the initialising thread, right after every tool was configured. All
/// contexts, buffers, callback threads and services must be created here; afterwards the
/// configuration is locked. A non-zero return discards what this tool created.
typedef int (*rocprofiler_tool_initialize_t)(rocprofiler_client_finalize_t fini_func,
                                             void* tool_data);
/// Called once at process exit (atexit of the core) or through fini_func.
typedef void (*rocprofiler_tool_finalize_t)(void* tool_data);

/// What rocprofiler_configure returns; must stay valid until finalize (a static is usual).
typedef struct rocprofiler_tool_configure_result_t {
  size_t size;
  rocprofiler_tool_initialize_t initialize;
  rocprofiler_tool_finalize_t finalize;
  void* tool_data;
} rocprofiler_tool_configure_result_t;

/// version = 10000*major + 100*minor + patch; priority = number of tools configured before
/// this one (0: primary tool). Return NULL to decline.
typedef rocprofiler_tool_configure_result_t* (*rocprofiler_configure_func_t)(
    uint32_t version, const char* runtime_version, uint32_t priority,
    rocprofiler_client_id_t* client_id);

/// Implemented by tools, not by the core. Declared here so that tools get the exact signature.
ROCPROFILER_PUBLIC_API rocprofiler_tool_configure_result_t* rocprofiler_configure(
    uint32_t version, const char* runtime_version, uint32_t priority,
    rocprofiler_client_id_t* client_id);

/// Registers configure_func as the first tool and initialises the core now. Returns
/// ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED if initialisation already happened or is
/// under way.
ROCPROFILER_API rocprofiler_status_t
rocprofiler_force_configure(rocprofiler_configure_func_t configure_func);

/// *status: 0 not yet, 1 done, -1 in progress.
ROCPROFILER_API rocprofiler_status_t rocprofiler_is_initialized(int* status) ROCPROFILER_NONNULL(1);
ROCPROFILER_API rocprofiler_status_t rocprofiler_is_finalized(int* status) ROCPROFILER_NONNULL(1);

ROCPROFILER_EXTERN_C_FINI
