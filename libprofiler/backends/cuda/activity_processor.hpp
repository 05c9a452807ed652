// Turns completed CUPTI activity buffers into events for the core: maps CUPTI correlation ids
// to the core's ids (correlation_map), numbers dispatches 1..N, gives each kernel name a kernel
// id when first seen, and maps CUDA devices to agent ids. Runs on CUPTI's buffer thread or on
// the thread that flushes; a mutex serialises the two (never the application's launch path).
#pragma once

#include <cupti.h>

#include <atomic>
#include <bitset>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "backend_sink.hpp"
#include "correlation_map.hpp"
#include "counters/graph_counting.hpp"
#include "counters/replayed_launch_times.hpp"
#include "cupti_api.hpp"
#include "nested_api_records.hpp"

namespace rocprof::cuda {

// API tracing from CUPTI's API activity records instead of callbacks: the calls whose records
// become the core's API buffer records, per domain, and whether the driver calls that runtime
// calls make are left out (runtime traced, --cuda-nested-driver-trace not given).
struct api_record_tracing {
  static constexpr size_t max_cbid = 1024;  // above both CUDA 13 callback id ranges
  std::bitset<max_cbid> runtime, driver;
  bool drop_nested_driver = false;
  bool any() const { return runtime.any() || driver.any(); }
};

struct activity_counts {
  uint64_t kernels = 0, memcpys = 0, memsets = 0, allocations = 0, api = 0, other = 0;
  uint64_t profiler_kernels = 0;  // kernel records left out: the range profiler's own kernels
};

// How GPU records found their launch (ROCPROF_CUDA_VERBOSE prints them at each flush): known
// CUPTI id (a launch callback, an API record or a sibling record put it), unseen (a fresh id),
// CUPTI id 0, or an id CUPTI gave to several calls; and, on the callback side, ids 0 and ids
// seen with a second call.
struct record_correlation_counts {
  uint64_t known = 0, unseen = 0, zero = 0, shared = 0;
  uint64_t zero_callback_ids = 0, shared_callback_ids = 0;
};

class activity_processor {
 public:
  activity_processor(backend_sink& sink, correlation_map& correlations)
      : sink_{sink}, correlations_{correlations} {}

  // agents[device ordinal] = agent id from backend_sink::register_gpu.
  void set_device_agents(std::vector<uint64_t> agents);

  // Launch attribution without callbacks: GPU work whose launch no callback recorded waits
  // for the API activity record (CUPTI_ACTIVITY_KIND_RUNTIME/_DRIVER) with its correlation id,
  // which names the launching thread; the core id is given when that record is processed.
  void set_join_api_records(bool on);
  // Delivers the work still waiting for an API record (after the final forced flush no more
  // come): it gets a fresh core id and no thread, as work no callback saw did before.
  void release_waiting();
  size_t waiting() const;
  // API activity records of the calls `t` names become API buffer records (sink emit_api_record:
  // thread, times, return code and a core correlation id that the work they launched shares;
  // no arguments, no external id). Every API record still joins the work it launched.
  void set_api_record_tracing(const api_record_tracing& t);
  bool traces_api_records() const;
  // Driver records held until a runtime record of their thread tells whether they were nested.
  size_t held_driver_records() const;
  // The backend's own CUDA calls (the agent query) ran on thread `tid` between these times: API
  // records of that thread within them are not the application's calls and are not traced.
  void own_calls(int64_t tid, uint64_t start_ns, uint64_t end_ns);

  // Walks one completed buffer with cuptiActivityGetNextRecord (through `api`).
  void process_buffer(cupti_api& api, uint8_t* buffer, size_t valid_size);
  // One record; kinds the backend does not translate are counted in `other`.
  void process(const CUpti_Activity& record);

  // The functions a loaded module defines (cubin_symbols.hpp): kernels first seen afterwards
  // are reported with that code object. A name defined by several modules takes the latest.
  void add_module_functions(uint64_t code_object_id, const std::vector<std::string>& names);
  // The kernel id of a function name (PC samples name their function), made on first sight
  // like a kernel record's (its symbol is reported then, without the launch attributes).
  uint64_t kernel_id_of_name(const char* name);

  activity_counts counts() const;
  record_correlation_counts correlation_counts() const;
  uint64_t agent_of_device(uint32_t device) const;

  // Dispatch ids are 1..N per process. While counting, launches take theirs at launch time
  // (the counting service names the dispatch before it runs) and records keep them.
  uint64_t next_dispatch_id() { return next_dispatch_.fetch_add(1, std::memory_order_relaxed); }
  // The kernel id of a counted launch's kernel. On first sight of the name its kernel symbol is
  // reported now, with the resources `describe` gives (asked only then, outside the lock), so
  // the tool knows the kernel (its name filter) before it decides about this dispatch; the
  // kernel's records later take the id and report nothing again. Tracing without counters
  // never comes here: there the first record reports the symbol.
  uint64_t kernel_id_at_launch(const std::string& name,
                               const std::function<bool(function_resources&)>& describe);
  // Counted graph launches: their kernel records take the ids given at launch, and their
  // kernel and device-to-device copy records tell which range is whose.
  void set_graph_counting(graph_counting* graphs) { graphs_ = graphs; }
  // Kernels counted with kernel replay: their records carry no times and take their launch's.
  void set_replayed_launch_times(replayed_launch_times* times) { replayed_ = times; }

 private:
  uint64_t agent_of(uint32_t device) const;
  // The core id for a CUPTI id; assigns (and remembers) a fresh one when no callback saw it.
  correlation_entry resolve(uint32_t cupti_id);
  // Gives GPU work the core correlation id, external id and thread its launch recorded.
  template <typename Event>
  static void apply(Event& e, const correlation_entry& c) {
    e.correlation_id = c.correlation_id;
    e.external_id = c.external_id;
    e.tid = c.tid;
  }
  void note_shared_ids_once();
  // Whether GPU work of this CUPTI id must wait for its API record (joining, not seen yet).
  bool awaits_api_record(uint32_t cupti_id) const;
  // Emits the event with its launch's ids, or keeps it until its API record arrives.
  template <typename Event>
  void emit_attached(Event& e, uint32_t cupti_id) {
    if (awaits_api_record(cupti_id)) {
      waiting_.emplace(cupti_id, waiting_work{e});
      return;
    }
    apply(e, resolve(cupti_id));
    sink_.emit(e);
  }
  // An API activity record: the launch's thread, and the work that waited for it.
  void api_record(const CUpti_ActivityAPI& a);
  // The ids of an API record's call, put in the correlation map unless known (a fresh core id,
  // or `inherit`'s: a nested call's work belongs to its runtime call); releases the work that
  // waited for it.
  correlation_entry join_api_record(uint32_t cupti_id, int64_t tid,
                                    const correlation_entry* inherit);
  // API tracing from records (activity_processor_api_tracing.cpp).
  void traced_api_record(const CUpti_ActivityAPI& a);
  // Joins (and emits, unless nested) the driver calls in settled_; `runtime` holds the ids of
  // the runtime call that settled them, nullptr when none did.
  void settle_driver_calls(const correlation_entry* runtime);
  void emit_api_call(const api_call& c, const correlation_entry& ids);
  bool own_call(const api_call& c) const;
  const char* call_name(api_domain domain, uint32_t cbid);
  using waiting_work = std::variant<kernel_event, memcpy_event, memset_event, allocation_event>;
  void emit_waiting(waiting_work& w, const correlation_entry& c);
  uint64_t kernel_id_of(const CUpti_ActivityKernel10& k);
  // Reports `name`'s symbol (unless it was) with the record's resources.
  void report_record_symbol_locked(const CUpti_ActivityKernel10& k, const std::string& name,
                                   uint64_t id);
  // True for a kernel record (of kernel `kernel_id`) that carries a counted launch's CUPTI id
  // but is not the kernel launched: under user and application replay the range profiler runs
  // kernels of its own inside the launch call (CUPTI's "WaitNs" on the H100, one per counted
  // launch). They are not the application's work and must not take the launch's dispatch id.
  static bool launched_elsewhere(const CUpti_ActivityKernel10& k, const correlation_entry& c,
                                 uint64_t kernel_id);
  // Counts a left-out kernel record of the range profiler's (named once with
  // ROCPROF_CUDA_VERBOSE): launched_elsewhere, or graph_counting::not_a_node.
  void leave_out_profiler_kernel(const std::string& name);
  uint64_t kernel_id_locked(const std::string& name);
  // Reports `name`'s symbol unless it was; the resources are the first record's or launch's.
  void report_symbol_locked(const std::string& name, uint64_t id, const function_resources& r);
  // 0: the record is the range profiler's own kernel in a counted graph launch (left out).
  uint64_t dispatch_id_of(const CUpti_ActivityKernel10& k, kernel_event& e,
                          uint64_t launch_dispatch_id);
  void deliver(std::vector<finished_dispatch>& ready);

  backend_sink& sink_;
  correlation_map& correlations_;
  std::vector<uint64_t> device_agents_;
  std::atomic<uint64_t> next_dispatch_{1};
  std::unordered_map<std::string, uint64_t> kernel_ids_;
  std::unordered_set<std::string> symbols_reported_;
  graph_counting* graphs_ = nullptr;
  replayed_launch_times* replayed_ = nullptr;
  std::unordered_map<std::string, uint64_t> code_object_of_;  // function name -> code object
  bool join_api_records_ = false;
  std::unordered_multimap<uint32_t, waiting_work> waiting_;  // CUPTI correlation id -> work
  api_record_tracing api_tracing_;
  bool api_tracing_on_ = false;
  nested_driver_filter nesting_;
  std::vector<settled_call> settled_;  // reused: settled driver calls, being handled
  cupti_api* names_ = nullptr;         // names the calls of API records (the buffer's walker)
  // CUPTI's name of each call, asked once per call ([domain][cbid]; "" when CUPTI has none).
  std::vector<const char*> call_names_[2];
  struct call_window {
    int64_t tid;
    uint64_t start_ns, end_ns;
  };
  std::vector<call_window> own_windows_;  // a few, at start (bounded)
  mutable std::mutex mutex_;
  activity_counts counts_;
  record_correlation_counts ids_;
  bool shared_noted_ = false;
};

}  // namespace rocprof::cuda
