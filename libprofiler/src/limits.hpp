// Fixed capacities of the core. Fixed so that the hot path indexes plain arrays instead of
// looking anything up under a lock.
#pragma once

#include <cstddef>

#include "rocprofiler-sdk/backend/backend_abi.h"
#include "rocprofiler-sdk/buffer.h"

namespace rocprof::core {

inline constexpr size_t max_contexts = 64;
inline constexpr size_t max_buffers = 64;
inline constexpr size_t max_callback_threads = 16;
/// Contexts one call can report to through callback tracing (ENTER/EXIT pairs are kept on the
/// caller's stack, so the number is fixed).
inline constexpr size_t max_callback_contexts = ROCPROF_BACKEND_MAX_CALLBACK_CONTEXTS;
/// Largest buffer record a backend may emit (records are copied through the stack).
inline constexpr size_t max_record_size = 1024;
/// Blocks of a buffer's size each recording thread owns per buffer (documented in buffer.h).
inline constexpr size_t blocks_per_lane = ROCPROFILER_BUFFER_BLOCKS_PER_LANE;

}  // namespace rocprof::core
