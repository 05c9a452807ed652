// Backend plugins: loading (dlopen of lib/rocprofiler-sdk/librocprofiler-sdk-<name>.so next to
// the core), the core services table they receive, and fan-out of start/stop/flush/shutdown.
#pragma once

#include <cstdint>

#include "rocprofiler-sdk/backend/backend_abi.h"

namespace rocprof::core {

/// Loads a backend once; later calls return the first outcome. A failure warns once.
rocprofiler_status_t load_backend(const char* name);
/// The backend (if any) that serves a kind: "cuda" for CUDA and GPU-activity kinds.
const char* backend_for_buffer_kind(rocprofiler_buffer_tracing_kind_t kind);
const char* backend_for_callback_kind(rocprofiler_callback_tracing_kind_t kind);
/// The enabled-kind set changed: start (or stop, when empty) every loaded backend.
void notify_backends(const rocprof_enabled_kinds_t& kinds);
void flush_backends();
void shutdown_backends();
/// Operation names and counts of backend-owned kinds (CUDA API ids).
const char* backend_operation_name(bool is_buffer_kind, uint32_t kind,
                                   rocprofiler_tracing_operation_t op);
int32_t backend_operation_count(bool is_buffer_kind, uint32_t kind);
/// Prints "rocprofiler: <message>" once per key.
void warn_once(const char* key, const char* message);

}  // namespace rocprof::core
