// The external correlation id the GPU work of a CUDA call carries: a tool may ask, per kind of
// work, to be requested one (rocprofiler_configure_external_correlation_id_request_service);
// otherwise the id the thread pushed. Called from the launch callbacks (cupti_session.cpp), on
// the application's thread: no lock, no allocation.
#pragma once

#include <cstdint>

#include "backend_sink.hpp"

namespace rocprof::cuda {

// The GPU work a CUDA API function launches, from its name: bit (1 << cuda_domain) for
// kernel_dispatch, memory_copy, memory_set, memory_allocation (a graph launch: the first three);
// 0 for none. A call that begins a stream capture also gets begins_capture.
constexpr uint32_t begins_capture = 1u << 30;
uint32_t launch_work_of(const char* name);

// Whether the call in progress (its parameter struct at `params`) launches into a stream being
// captured into a graph: launches_into_capture (stream_capture.hpp), or a test's stand-in.
using capture_query = bool (*)(api_domain domain, uint32_t cbid, const void* params);

// `owner` is the internal correlation id of the outermost call on this thread (the id the
// work's records carry), `outermost` whether this call is that one, `pushed` the external id
// pushed on the thread. The first request a tool answers is kept while the owner's call lasts,
// so the nested calls of one launch (a runtime call's driver call) carry the same id and the
// tool is asked once per launch.
// A launch into a capturing stream runs nothing (it records a graph node): the tool is not asked
// and the pushed id stays; the graph's launch is asked for, once, and its answer goes to every
// record of the work it runs. `capturing` is consulted only after some call began a capture in
// this process, so runs without graphs pay nothing for it.
uint64_t launch_external_id(backend_sink& sink, api_domain domain, uint32_t cbid, const char* name,
                            uint64_t owner, bool outermost, uint64_t pushed,
                            const void* params = nullptr, capture_query capturing = nullptr);

}  // namespace rocprof::cuda
