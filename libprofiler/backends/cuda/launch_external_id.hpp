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
// 0 for none.
uint32_t launch_work_of(const char* name);

// `owner` is the internal correlation id of the outermost call on this thread (the id the
// work's records carry), `outermost` whether this call is that one, `pushed` the external id
// pushed on the thread. The first request a tool answers is kept while the owner's call lasts,
// so the nested calls of one launch (a runtime call's driver call) carry the same id and the
// tool is asked once per launch.
uint64_t launch_external_id(backend_sink& sink, api_domain domain, uint32_t cbid, const char* name,
                            uint64_t owner, bool outermost, uint64_t pushed);

}  // namespace rocprof::cuda
