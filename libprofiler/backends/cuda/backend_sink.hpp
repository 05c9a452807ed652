// The services the CUDA backend needs from the profiler core, as one interface. The plugin's
// production implementation forwards to the core's backend ABI (abi_sink.cpp); a standalone
// implementation (standalone_sink.cpp) serves runs without the core.
// Threads: api_enter, api_exit, next_correlation_id and external_id run on application threads
// inside CUPTI callbacks (hot path: no lock, no allocation); everything else runs on CUPTI's
// buffer thread, in resource callbacks, or at start and exit.
#pragma once

#include <rocprofiler-sdk/backend/backend_abi.h>

#include <cstdint>

#include <rocprofiler-sdk/pc_sampling.h>

#include "cuda_events.hpp"

namespace rocprof::cuda {

enum class cuda_domain : uint8_t {
  runtime_api,
  driver_api,
  kernel_dispatch,
  memory_copy,
  memory_set,
  memory_allocation,
  code_objects,
  count
};

class backend_sink {
 public:
  virtual ~backend_sink() = default;
  // Nanoseconds on CLOCK_BOOTTIME, the clock every record of the core uses.
  virtual uint64_t timestamp() = 0;
  virtual uint64_t next_correlation_id() = 0;
  // The external correlation id the calling thread has pushed (0 if none).
  virtual uint64_t external_id() = 0;
  virtual bool enabled(cuda_domain d) = 0;
  // Whether API call `cbid` of `domain` is traced (callback or buffer); asked once per cbid at
  // start, so that only requested operations get a CUPTI callback.
  virtual bool api_traced(api_domain domain, uint32_t cbid) = 0;
  // A traced API call starts / ends on this thread; calls nest per thread. api_enter sets
  // e.correlation_id and e.external_id; api_exit delivers callbacks and the buffer record.
  virtual void api_enter(api_event& e) = 0;
  virtual void api_exit(const api_event& e) = 0;
  // A completed API call that no callback saw (CUPTI's API activity records, on CUPTI's buffer
  // thread): the buffer record api_exit makes, with the thread, times and correlation id given
  // in `e` and no arguments. Nothing of the calling thread's state is read.
  virtual void emit_api_record(const api_event& e) = 0;
  // Whether some context traces a CUDA API domain through callbacks (they need a CUPTI
  // callback on each call; buffer records can come from API activity records instead).
  virtual bool api_callbacks_requested() { return true; }
  // Buffer tracing records of GPU work.
  virtual void emit(const kernel_event& e) = 0;
  virtual void emit(const memcpy_event& e) = 0;
  virtual void emit(const memset_event& e) = 0;
  virtual void emit(const allocation_event& e) = 0;
  // Definitions. register_gpu returns the agent id the core assigned (0 on failure).
  virtual uint64_t register_gpu(const gpu_agent& a) = 0;
  virtual uint64_t cpu_agent_id() = 0;
  virtual void code_object_loaded(const code_object_event& e) = 0;
  virtual void kernel_symbol(const kernel_symbol_event& e) = 0;
  virtual void dropped(uint64_t count) = 0;

  // Dispatch counting (the core's ABI 3 services; counters/launch_counting.hpp). Defaults: no
  // counting. counting_requested: some context configured it (what start() enables);
  // counting_active: HOT, one load. begin/end as counting_dispatch_begin/_end.
  virtual bool counting_requested() { return false; }
  virtual bool counting_active() { return false; }
  virtual uint64_t counting_begin(rocprof_counted_dispatch_t& d,
                                  const rocprofiler_kernel_dispatch_info_t&, uint64_t, uint64_t) {
    d = rocprof_counted_dispatch_t{};
    return 0;
  }
  virtual void counting_end(const rocprof_counted_dispatch_t&, const double*, uint64_t, uint64_t,
                            uint64_t) {}
  // Asks the tools that want to be asked for the external id of GPU work of kind `work`
  // (kernel_dispatch, memory_copy, memory_set, memory_allocation) launched by the calling
  // thread's call `operation`, whose records carry internal id `internal_id`. True when a tool
  // answered into *external. On the application's thread, inside the launch callback.
  virtual bool request_external_id(cuda_domain work, uint32_t operation, uint64_t internal_id,
                                   uint64_t* external) {
    (void)work, (void)operation, (void)internal_id, (void)external;
    return false;  // sinks without a core have no tools to ask
  }
  // Whether GPU work must learn something on its launching thread at launch time: an external
  // id a tool pushes there (ROCTx/NVTX ranges through marker callbacks, e.g. --kernel-rename)
  // or the request service for kernels, copies, sets or allocations. When false the session
  // attributes work to its thread from CUPTI's API activity records, without launch callbacks.
  virtual bool launch_time_ids_needed() { return false; }
  // PC sampling (pc_sampler.hpp): the interval a context asked for (0: none), and where the
  // aggregated samples go (the drain thread calls it).
  virtual uint64_t pc_sampling_interval() { return 0; }
  virtual void emit_pc_sample(const rocprofiler_pc_sampling_record_aggregated_v0_t&) {}
};

}  // namespace rocprof::cuda
