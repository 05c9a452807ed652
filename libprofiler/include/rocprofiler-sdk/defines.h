// Macros shared by every public header of the profiler core. Plain C; no vendor headers.
#pragma once

#if defined(__cplusplus)
#define ROCPROFILER_EXTERN_C_INIT extern "C" {
#define ROCPROFILER_EXTERN_C_FINI }
#else
#define ROCPROFILER_EXTERN_C_INIT
#define ROCPROFILER_EXTERN_C_FINI
#endif

/// Marks a function exported from librocprofiler-sdk.so (everything else there is hidden).
#define ROCPROFILER_API __attribute__((visibility("default")))
/// Marks a function a tool library must export with public visibility (rocprofiler_configure).
#define ROCPROFILER_PUBLIC_API __attribute__((visibility("default")))
#define ROCPROFILER_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
/// Marks what rocprofiler-sdk calls experimental (its names are kept; nothing is enforced).
#define ROCPROFILER_SDK_EXPERIMENTAL
/// `ROCPROFILER_ATTRIBUTE(pure)` and the like.
#define ROCPROFILER_ATTRIBUTE(...) __attribute__((__VA_ARGS__))

#define ROCPROFILER_VERSION_MAJOR 1
#define ROCPROFILER_VERSION_MINOR 0
#define ROCPROFILER_VERSION_PATCH 0
/// 10000 * major + 100 * minor + patch, the value passed to rocprofiler_configure.
#define ROCPROFILER_VERSION \
  (10000 * ROCPROFILER_VERSION_MAJOR + 100 * ROCPROFILER_VERSION_MINOR + ROCPROFILER_VERSION_PATCH)
