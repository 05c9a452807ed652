// Buffers: where buffer-tracing services put their records.
//
// Implementation notes a tool may rely on:
//  * Each recording thread writes into its own preallocated lane of the buffer
//    (ROCPROFILER_BUFFER_BLOCKS_PER_LANE blocks of `size` bytes, rounded up to the page size),
//    so `size` and `watermark` apply per thread.
//  * When a lane's filled bytes reach `watermark` (0: every record) the block is handed to the
//    buffer's callback thread. LOSSLESS: a full block is handed over as well and the writer
//    continues in a free block; it waits only if all its blocks are still being delivered.
//    DISCARD: records that do not fit are dropped and counted until the next delivery.
//  * The callback runs on the buffer's callback thread (rocprofiler_assign_callback_thread;
//    one shared core thread by default), never on the recording thread.
#pragma once

#include "rocprofiler-sdk/fwd.h"

/// Blocks per recording thread and buffer. Four rather than two: a writer that fills a block
/// faster than the callback thread's polling period (tens of microseconds for a marker-heavy
/// thread) would otherwise wait for a delivery at every block.
#define ROCPROFILER_BUFFER_BLOCKS_PER_LANE 4

ROCPROFILER_EXTERN_C_INIT

/// Delivers num_headers records. headers and the payloads they point to are owned by the core
/// and valid only during the call. drop_count: records dropped (DISCARD, or reported dropped
/// by a backend) since the previous delivery.
typedef void (*rocprofiler_buffer_tracing_cb_t)(rocprofiler_context_id_t context,
                                                rocprofiler_buffer_id_t buffer_id,
                                                rocprofiler_record_header_t** headers,
                                                size_t num_headers, void* data,
                                                uint64_t drop_count);

/// Initialisation only.
ROCPROFILER_API rocprofiler_status_t rocprofiler_create_buffer(
    rocprofiler_context_id_t context, size_t size, size_t watermark,
    rocprofiler_buffer_policy_t policy, rocprofiler_buffer_tracing_cb_t callback,
    void* callback_data, rocprofiler_buffer_id_t* buffer_id) ROCPROFILER_NONNULL(5, 7);

/// Delivers everything recorded so far (all threads) and returns once the callback has seen
/// it. Returns ROCPROFILER_STATUS_ERROR_BUFFER_BUSY when called from that buffer's callback.
ROCPROFILER_API rocprofiler_status_t rocprofiler_flush_buffer(rocprofiler_buffer_id_t buffer_id);

/// Discards anything not yet delivered; the buffer records nothing afterwards.
ROCPROFILER_API rocprofiler_status_t rocprofiler_destroy_buffer(rocprofiler_buffer_id_t buffer_id);

ROCPROFILER_EXTERN_C_FINI
