#include "cupti_session.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "callback_guard.hpp"
#include "counters/counter_sets.hpp"
#include "cubin_symbols.hpp"
#include "cupti_check.hpp"
#include "device_info.hpp"
#include "launch_external_id.hpp"
#include "notices.hpp"
#include "rocprof/common/c_boundary.hpp"
#include "stream_capture.hpp"

namespace rocprof::cuda {

// Per-thread state of the API callbacks, in one block: the plugin is dlopen'ed, so each access
// to a thread_local costs a __tls_get_addr call; the callbacks take its address once. Plain data:
// the first touch per thread may make the loader allocate this library's TLS block, once; after
// that nothing allocates.
constexpr uint32_t max_depth = 16;
struct api_thread {
  int64_t tid = 0;
  uint32_t depth = 0;
  bool in_runtime_call = false;  // the outermost call is a runtime call
  uint32_t owner_cupti = 0;      // CUPTI's id of the outermost call (its records')
  uint64_t owner = 0;            // the core's id of the outermost call
  uint64_t owner_external = 0;   // the external id the outermost call's work carries
  uint64_t own[max_depth] = {};
};
namespace {

std::atomic<cupti_session*> g_session{nullptr};

thread_local api_thread t_api;

// Out of line on purpose: a pointer the caller keeps in a register. With the thread_local named
// inline, GCC recomputes its address (another __tls_get_addr) after every call it makes.
__attribute__((noinline)) api_thread* this_thread_api() {
  return &t_api;
}

int64_t this_tid(api_thread& t) {
  if (t.tid == 0) t.tid = static_cast<int64_t>(syscall(SYS_gettid));  // once per thread
  return t.tid;
}

uint64_t boottime_ns() {
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

uint64_t CUPTIAPI cupti_timestamp() {
  return boottime_ns();
}

// CUPTI calls this on the application's threads, inside its CUDA calls: nothing may escape.
void CUPTIAPI on_callback(void* user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                          const void* data) {
  if (t_in_backend || user == nullptr || data == nullptr) return;
  auto* s = static_cast<cupti_session*>(user);
  rocprof::c_boundary::guarded_call("CUPTI callback", [&] {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API) {
      s->on_api(domain, cbid, *static_cast<const CUpti_CallbackData*>(data));
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
      s->on_resource(cbid, *static_cast<const CUpti_ResourceData*>(data));
    }
  });
}

// 8 MB buffers (cupti-notes §8.7): a buffer is requested once per ~100k records.
constexpr size_t buffer_size = size_t{8} << 20;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, buffer_size));
  *size = *buffer != nullptr ? buffer_size : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t* buffer, size_t,
                               size_t valid) {
  if (cupti_session* s = g_session.load(std::memory_order_acquire)) {
    rocprof::c_boundary::guarded_call("CUPTI buffer completion",
                                      [&] { s->on_buffer_completed(ctx, stream, buffer, valid); });
  }
  std::free(buffer);
}

struct needs {
  bool kernels, copies, sets, allocations;
};

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

// API calls from CUPTI's API activity records when asked for (ROCPROF_CUDA_API_RECORDS=1, which
// rocprofv3 sets by default for CUDA API tracing, issue 15), unless arguments are asked for too
// (ROCPROF_CUDA_API_ARGS=1, rocprofv3 --cuda-api-args: only callbacks see them). Unset: callbacks,
// the plugin's own default for SDK clients and standalone use (their buffered and callback
// records promise arguments).
bool api_records_wanted() {
  return env_flag("ROCPROF_CUDA_API_RECORDS") && !env_flag("ROCPROF_CUDA_API_ARGS");
}

// The API calls whose CUPTI correlation id activity records of the enabled kinds carry: their
// callbacks give each record its launching thread and the core id of the launching call.
bool callback_needed(const char* name, const needs& n) {
  const uint32_t work = launch_work_of(name);
  const auto launches = [work](cuda_domain d) {
    return (work & (1u << static_cast<uint32_t>(d))) != 0;
  };
  return (n.kernels && launches(cuda_domain::kernel_dispatch)) ||
         (n.copies && launches(cuda_domain::memory_copy)) ||
         (n.sets && launches(cuda_domain::memory_set)) ||
         (n.allocations && launches(cuda_domain::memory_allocation));
}

}  // namespace

cupti_session::cupti_session(cupti_api& api, backend_sink& sink)
    : api_{api},
      sink_{sink},
      processor_{sink, correlations_},
      counting_{api, sink, processor_, correlations_, plugin_counter_sets()} {
  processor_.set_graph_counting(&counting_.graphs());
  processor_.set_replayed_launch_times(&counting_.replayed());
  nested_driver_traced_ = env_flag("ROCPROF_CUDA_NESTED_DRIVER_API");
  api_records_requested_ = api_records_wanted();
}

cupti_session::~cupti_session() {
  cupti_session* self = this;
  g_session.compare_exchange_strong(self, nullptr);
}

cupti_session* cupti_session::current() {
  return g_session.load(std::memory_order_acquire);
}

bool cupti_session::is_launch_like(const char* name) {
  return callback_needed(name, needs{true, true, true, true});
}

session_state cupti_session::start() {
  if (state_ != session_state::idle) return state_;
  char previous[2 * CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN] = {};
  CUpti_SubscriberParams params{};
  params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
  params.subscriberName = "rocprofv3";
  params.oldSubscriberName = previous;
  params.oldSubscriberSize = sizeof(previous);
  const CUptiResult r = api_.subscribe(&subscriber_, &on_callback, this, &params);
  if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    conflict_owner_ = previous[0] != '\0' ? previous : "another profiler";
    if (notices_wanted(sink_))
      std::fprintf(stderr,
                   "rocprofv3 [cuda]: CUPTI is already used by '%s' (CUPTI allows one profiler "
                   "per process): CUDA tracing is off, CPU-side tracing continues\n",
                   conflict_owner_.c_str());
    state_ = session_state::conflict;
    return state_;
  }
  if (r != CUPTI_SUCCESS) {
    // Reported once by the caller, in one line (no driver / no GPU end up here).
    failure_ = std::string{"cuptiSubscribe_v2: "} + api_.result_string(r) + " (" +
               std::to_string(static_cast<int>(r)) + ")";
    state_ = session_state::failed;
    return state_;
  }
  g_session.store(this, std::memory_order_release);
  // Before any kind is enabled, so that every record is on CLOCK_BOOTTIME.
  ROCPROF_CUPTI_CALL(api_, api_.register_timestamp_callback(&cupti_timestamp));
  ROCPROF_CUPTI_CALL(api_, api_.register_buffer_callbacks(&buffer_requested, &buffer_completed));
  enable_callbacks();
  enable_activities();
  set_flush_period_once();
  if (first_call_armed_.load()) start_deferral();
  state_ = session_state::running;
  return state_;
}

void cupti_session::set_flush_period_once() {
  if (!trace_activity_ || flush_period_set_) return;
  flush_period_set_ = true;
  const char* period = std::getenv("ROCPROF_CUDA_FLUSH_PERIOD_MS");
  const long ms = period != nullptr ? std::strtol(period, nullptr, 10) : 100;
  if (ms > 0) ROCPROF_CUPTI_CALL(api_, api_.flush_period(static_cast<uint32_t>(ms)));
}

static_assert(CUPTI_RUNTIME_TRACE_CBID_SIZE <= 1024 && CUPTI_DRIVER_TRACE_CBID_SIZE <= 1024,
              "grow cupti_session::max_cbid");

void cupti_session::enable_callbacks() {
  // Counting needs the launches (dispatch ids at launch, the profiler around them) and the
  // kernel and copy records (graph ranges are matched with them).
  const bool counting = sink_.counting_requested();
  counting_on_.store(counting, std::memory_order_relaxed);
  const needs n{sink_.enabled(cuda_domain::kernel_dispatch) || counting,
                sink_.enabled(cuda_domain::memory_copy) || counting,
                sink_.enabled(cuda_domain::memory_set),
                sink_.enabled(cuda_domain::memory_allocation)};
  trace_activity_ = n.kernels || n.copies || n.sets || n.allocations;
  start_pc_sampling_once();
  trace_code_objects_ = sink_.enabled(cuda_domain::code_objects) || n.kernels || sampler_;
  const bool runtime = sink_.enabled(cuda_domain::runtime_api);
  const bool driver = sink_.enabled(cuda_domain::driver_api);
  // The runtime calls are traced: the driver calls they make are not, unless asked for.
  skip_nested_driver_.store(runtime && !nested_driver_traced_, std::memory_order_relaxed);
  // What needs the launching thread at launch time (launch_callbacks_needed in the README):
  // counting, PC sampling's launch ids, and external ids pushed or requested for the launched
  // work. API tracing through callbacks sees the launches anyway; through API activity records
  // (ROCPROF_CUDA_API_RECORDS) it needs, and lets the work have, no callback at all.
  const bool launch_hooks = counting || sampler_ || sink_.launch_time_ids_needed();
  bool api_by_records =
      (runtime || driver) && trace_api_by_records(launch_hooks || sink_.api_callbacks_requested());
  bool use_records =
      trace_activity_ &&
      attribute_by_api_records(launch_hooks || ((runtime || driver) && !api_by_records));
  api_record_tracing record_plan = record_tracing_;
  record_plan.drop_nested_driver = runtime && !nested_driver_traced_;

  struct domain_plan {
    CUpti_CallbackDomain domain;
    api_domain ours;
    uint32_t size;
    bool traced;
    std::bitset<max_cbid>& bits;
    std::bitset<max_cbid>& enabled;
    std::bitset<max_cbid>& launching;
    std::bitset<max_cbid>& recorded;  // traced from API activity records
  };
  for (const domain_plan& d :
       {domain_plan{CUPTI_CB_DOMAIN_RUNTIME_API, api_domain::runtime, CUPTI_RUNTIME_TRACE_CBID_SIZE,
                    runtime, traced_runtime_, enabled_runtime_, launching_runtime_,
                    record_plan.runtime},
        domain_plan{CUPTI_CB_DOMAIN_DRIVER_API, api_domain::driver, CUPTI_DRIVER_TRACE_CBID_SIZE,
                    driver, traced_driver_, enabled_driver_, launching_driver_,
                    record_plan.driver}}) {
    if (!d.traced && !trace_activity_) continue;
    // Per cbid, so that only the requested operations, and the calls that launch requested GPU
    // work (for their thread and correlation id), cost a callback.
    for (uint32_t cbid = 1; cbid < d.size && cbid < max_cbid; ++cbid) {
      const char* name = nullptr;
      if (api_.callback_name(d.domain, cbid, &name) != CUPTI_SUCCESS) name = nullptr;
      const bool traced = d.traced && sink_.api_traced(d.ours, cbid);
      // Traced from its API activity records: no callback, the buffer thread makes the record.
      if (traced && api_by_records && !d.recorded.test(cbid)) {
        if (api_.activity_enable_api(d.domain, cbid, 1) == CUPTI_SUCCESS) {
          d.recorded.set(cbid);
          ++api_record_cbids_;
        } else {
          // A libcupti without per-API records: callbacks from here on, for good.
          api_by_records = false;
          api_callbacks_ = true;
        }
      }
      const bool by_record = d.recorded.test(cbid);
      // Only ever set while running: callbacks read these bits without a lock.
      if (traced && !by_record) d.bits.set(cbid);
      // Calls that begin a stream capture count too: launches into the capture are told apart.
      const bool begins = (launch_work_of(name) & begins_capture) != 0;
      if ((trace_activity_ || sampler_) &&
          (callback_needed(name, needs{true, true, true, true}) || begins))
        d.launching.set(cbid);
      const bool counted =
          counting && d.domain == CUPTI_CB_DOMAIN_DRIVER_API && counting_.handles(cbid);
      const bool launch = trace_activity_ && callback_needed(name, n);
      if (launch && use_records && !by_record) {
        if (api_.activity_enable_api(d.domain, cbid, 1) == CUPTI_SUCCESS) {
          ++api_record_cbids_;
        } else {
          // A libcupti without per-API records: callbacks from here on (and no waiting for
          // records when none was asked for).
          use_records = false;
          launch_callbacks_ = true;
          if (api_record_cbids_ == 0) {
            api_records_ = false;
            processor_.set_join_api_records(false);
          }
        }
      }
      // Launch callbacks ask external ids at launch time: they must see a capture begin, or
      // the launches recorded into the capture would ask for work that never runs by itself.
      const bool capture_seen = begins && trace_activity_ && !use_records;
      if ((traced && !by_record) || counted || (launch && !use_records) || capture_seen) {
        if (ROCPROF_CUPTI_CALL(api_, api_.enable_callback(1, subscriber_, d.domain, cbid)))
          d.enabled.set(cbid);
      }
    }
  }
  if (record_plan.any() || record_tracing_.any()) {
    record_tracing_ = record_plan;
    processor_.set_api_record_tracing(record_tracing_);
  }
  if (trace_activity_ || trace_code_objects_ || runtime || driver || sampler_)
    enable_resource_callbacks();
}

bool cupti_session::trace_api_by_records(bool callbacks_needed) {
  if (!api_records_requested_ || api_callbacks_) return false;
  if (callbacks_needed || env_flag("ROCPROF_CUDA_LAUNCH_CALLBACKS") ||
      // API records name the OS thread only with the system thread id type (gettid, as ours).
      !system_thread_ids()) {
    // From now on through callbacks. Calls already traced from records are left to the
    // callbacks too (their records only join work from here on), so no call is recorded twice.
    api_callbacks_ = true;
    if (record_tracing_.any()) {
      for (size_t cbid = 0; cbid < max_cbid; ++cbid) {
        if (record_tracing_.runtime.test(cbid)) traced_runtime_.set(cbid);
        if (record_tracing_.driver.test(cbid)) traced_driver_.set(cbid);
      }
      record_tracing_ = api_record_tracing{};
      processor_.set_api_record_tracing(record_tracing_);
    }
    return false;
  }
  return true;
}

void cupti_session::enable_resource_callbacks() {
  for (CUpti_CallbackId cbid :
       {CUPTI_CBID_RESOURCE_CONTEXT_CREATED, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
        CUPTI_CBID_RESOURCE_MODULE_LOADED}) {
    ROCPROF_CUPTI_CALL(api_, api_.enable_callback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE, cbid));
  }
}

bool cupti_session::attribute_by_api_records(bool launch_hooks_needed) {
  if (env_flag("ROCPROF_CUDA_LAUNCH_CALLBACKS")) launch_hooks_needed = true;
  if (launch_callbacks_ || launch_hooks_needed) {
    launch_callbacks_ = true;
    return false;
  }
  // API records name the OS thread only with the system thread id type (gettid, as ours).
  if (!system_thread_ids()) {
    launch_callbacks_ = true;
    return false;
  }
  api_records_ = true;
  processor_.set_join_api_records(true);
  return true;
}

bool cupti_session::system_thread_ids() {
  // Asked once: both API-record paths need it, and reconfigure comes back here.
  if (thread_ids_ == thread_id_type::unknown)
    thread_ids_ = api_.use_system_thread_ids() == CUPTI_SUCCESS ? thread_id_type::system
                                                                : thread_id_type::refused;
  return thread_ids_ == thread_id_type::system;
}

void cupti_session::reconfigure() {
  if (state_ != session_state::running) return;
  enable_callbacks();
  enable_activities();
  set_flush_period_once();
}

CUpti_ActivityKind kernel_record_kind(bool counting) {
  return counting ? CUPTI_ACTIVITY_KIND_KERNEL : CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
}

std::vector<CUpti_ActivityKind> cupti_session::wanted_kinds() const {
  std::vector<CUpti_ActivityKind> kinds;
  const bool counting = sink_.counting_requested();
  if (sink_.enabled(cuda_domain::kernel_dispatch) || counting)
    kinds.push_back(kernel_record_kind(counting));
  if (sink_.enabled(cuda_domain::memory_copy) || counting) {
    kinds.push_back(CUPTI_ACTIVITY_KIND_MEMCPY);
    kinds.push_back(CUPTI_ACTIVITY_KIND_MEMCPY2);
  }
  if (sink_.enabled(cuda_domain::memory_set)) kinds.push_back(CUPTI_ACTIVITY_KIND_MEMSET);
  if (sink_.enabled(cuda_domain::memory_allocation)) kinds.push_back(CUPTI_ACTIVITY_KIND_MEMORY2);
  return kinds;
}

void cupti_session::enable_activities() {
  const std::vector<CUpti_ActivityKind> wanted = wanted_kinds();
  // The two kinds of kernel records exclude each other: the one no longer wanted goes before
  // the other is enabled (a context that starts counting after kernels were traced).
  for (CUpti_ActivityKind kind :
       {CUPTI_ACTIVITY_KIND_KERNEL, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL}) {
    const auto enabled = std::find(enabled_kinds_.begin(), enabled_kinds_.end(), kind);
    if (enabled == enabled_kinds_.end() ||
        std::find(wanted.begin(), wanted.end(), kind) != wanted.end())
      continue;
    const CUpti_ActivityKind other = kind == CUPTI_ACTIVITY_KIND_KERNEL
                                         ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                                         : CUPTI_ACTIVITY_KIND_KERNEL;
    if (std::find(wanted.begin(), wanted.end(), other) == wanted.end()) continue;
    ROCPROF_CUPTI_CALL(api_, api_.activity_disable(kind));
    enabled_kinds_.erase(enabled);
    early_kinds_.erase(std::remove(early_kinds_.begin(), early_kinds_.end(), kind),
                       early_kinds_.end());
  }
  for (CUpti_ActivityKind kind : wanted) {
    if (std::find(enabled_kinds_.begin(), enabled_kinds_.end(), kind) != enabled_kinds_.end())
      continue;
    if (ROCPROF_CUPTI_CALL(api_, api_.activity_enable(kind))) enabled_kinds_.push_back(kind);
  }
}

void cupti_session::on_api(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                           const CUpti_CallbackData& cb) {
  if (deferring_.load(std::memory_order_acquire) && !pass_deferral(domain, cbid, cb)) return;
  api_thread& t = *this_thread_api();
  const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  const bool in_range = cbid < max_cbid;
  // Most driver callbacks under API tracing are a runtime call's own driver calls: the first
  // test, before any other work, so that they cost next to nothing when not traced.
  if (!runtime && t.in_runtime_call &&
      (skip_nested_driver_.load(std::memory_order_relaxed) ||
       !(in_range && traced_driver_.test(cbid)))) {
    on_nested_driver(t, cbid, cb);
    return;
  }
  const bool traced = in_range && (runtime ? traced_runtime_ : traced_driver_).test(cbid);
  const bool launching = in_range && (runtime ? launching_runtime_ : launching_driver_).test(cbid);
  const bool counted =
      !runtime && counting_on_.load(std::memory_order_relaxed) && counting_.handles(cbid);
  api_event e;
  e.domain = runtime ? api_domain::runtime : api_domain::driver;
  e.cbid = cbid;
  e.name = cb.functionName;
  e.tid = this_tid(t);
  e.args = cb.functionParams;
  e.cuda_context = reinterpret_cast<uint64_t>(cb.context);
  e.cuda_context_uid = cb.contextUid;
  if (cb.callbackSite == CUPTI_API_ENTER) {
    e.start_ns = boottime_ns();
    if (traced) {
      sink_.api_enter(e);
    } else {
      e.correlation_id = sink_.next_correlation_id();
      e.external_id = sink_.external_id();
    }
    // Work launched by nested calls (a runtime call's driver calls) belongs to the outermost.
    const bool outermost = t.depth == 0;
    if (outermost) {
      t.owner = e.correlation_id;
      t.owner_cupti = cb.correlationId;
      t.in_runtime_call = runtime;
    }
    // Only calls that launch work ask for its external id and fill the correlation map: the
    // work's records are the only readers.
    if (launching) {
      e.external_id = launch_external_id(sink_, e.domain, cbid, cb.functionName, t.owner, outermost,
                                         e.external_id, cb.functionParams, &launches_into_capture);
      correlations_.put(cb.correlationId, correlation_entry{t.owner, e.external_id, e.tid, 0});
    }
    if (outermost) t.owner_external = e.external_id;
    if (t.depth < max_depth) t.own[t.depth] = e.correlation_id;
    ++t.depth;
    if (cb.correlationData != nullptr) *cb.correlationData = e.start_ns;
    if (counted)
      counting_.enter(cbid, cb,
                      launch_ids{t.owner, e.external_id, e.tid, cb.correlationId, t.owner_cupti});
    return;
  }
  // An exit whose entry this thread never processed closes nothing: a call already in flight
  // when tracing began (the runtime call inside which cuInit ran the injection and the tools'
  // deferred start), or a callback enabled between its entry and its exit. Processing it would
  // emit a record that was never opened and end the owner of the launches that follow.
  if (t.depth == 0) return;
  if (counted) counting_.exit(cbid, cb);
  e.end_ns = boottime_ns();
  if (--t.depth == 0) t.in_runtime_call = false;
  e.correlation_id = t.depth < max_depth ? t.own[t.depth] : 0;
  e.start_ns = cb.correlationData != nullptr ? *cb.correlationData : e.end_ns;
  if (traced) {
    e.retval = cb.functionReturnValue;
    // Runtime calls return cudaError_t, driver calls CUresult: both are int-sized enums.
    if (cb.functionReturnValue != nullptr)
      e.return_code = *static_cast<const int32_t*>(cb.functionReturnValue);
    sink_.api_exit(e);
  }
}

void cupti_session::on_nested_driver(api_thread& t, CUpti_CallbackId cbid,
                                     const CUpti_CallbackData& cb) {
  // No record, no id of its own: its work carries the runtime call's ids, the outermost's.
  const bool counted = counting_on_.load(std::memory_order_relaxed) && counting_.handles(cbid);
  if (cb.callbackSite != CUPTI_API_ENTER) {
    if (counted) counting_.exit(cbid, cb);
    return;
  }
  // Work records may carry this call's CUPTI id rather than the runtime call's.
  if (cbid < max_cbid && launching_driver_.test(cbid))
    correlations_.put(cb.correlationId, correlation_entry{t.owner, t.owner_external, t.tid, 0});
  if (counted)
    counting_.enter(cbid, cb,
                    launch_ids{t.owner, t.owner_external, t.tid, cb.correlationId, t.owner_cupti});
}

void cupti_session::register_agents_once() {
  std::call_once(agents_once_, [this] {
    t_in_backend = true;
    const uint64_t queried_from = boottime_ns();
    const device_query q = query_devices();
    // Its driver calls are not the application's: callbacks skip them (t_in_backend), and
    // API tracing from records must drop their records.
    processor_.own_calls(static_cast<int64_t>(syscall(SYS_gettid)), queried_from, boottime_ns());
    t_in_backend = false;
    if (!q.error.empty()) {
      if (notices_wanted(sink_))
        std::fprintf(stderr, "rocprofv3 [cuda]: %s: no GPU agents\n", q.error.c_str());
      return;
    }
    std::vector<uint64_t> agents;
    for (const gpu_agent& a : q.devices)
      agents.push_back(sink_.register_gpu(a));
    processor_.set_device_agents(std::move(agents));
  });
}

void cupti_session::on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData& rd) {
  switch (cbid) {
    case CUPTI_CBID_RESOURCE_CONTEXT_CREATED:
      register_agents_once();
      // Before any module of the context loads: samples of earlier code are not attributable.
      if (sampler_ && rd.context != nullptr) sampler_->on_context_created(rd.context);
      break;
    case CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
      if (sampler_ && rd.context != nullptr) sampler_->on_context_destroying(rd.context);
      counting_.context_destroying(rd.context);  // its counter batch, while it can be read
      // Records of a context must be taken before the context goes away.
      if (trace_activity_)
        ROCPROF_CUPTI_CALL(api_, api_.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
      break;
    case CUPTI_CBID_RESOURCE_MODULE_LOADED: {
      if (!trace_code_objects_ || rd.resourceDescriptor == nullptr) break;
      register_agents_once();
      const auto* m = static_cast<const CUpti_ModuleResourceData*>(rd.resourceDescriptor);
      code_object_event e;
      e.cubin_address = reinterpret_cast<uint64_t>(m->pCubin);
      e.code_object_id = code_objects_.fetch_add(1, std::memory_order_relaxed) + 1;
      e.module_id = m->moduleId;
      e.size = m->cubinSize;
      e.timestamp_ns = boottime_ns();
      if (m->pCubin != nullptr && m->cubinSize > 0) {
        CUpti_GetCubinCrcParams p{};
        p.size = CUpti_GetCubinCrcParamsSize;
        p.cubinSize = m->cubinSize;
        p.cubin = m->pCubin;
        if (ROCPROF_CUPTI_CALL(api_, api_.cubin_crc(&p))) e.crc = p.cubinCrc;
        // Kernel records do not name their module: the cubin's symbols link them (only when
        // kernels are traced; the names are copied, the cubin is valid during this call only).
        if (sink_.enabled(cuda_domain::kernel_dispatch) || sampler_ || first_call_armed_.load())
          processor_.add_module_functions(e.code_object_id,
                                          cubin_function_names(m->pCubin, m->cubinSize));
        if (sampler_) sampler_->on_module_loaded(m->pCubin, m->cubinSize, e.crc, e.code_object_id);
      }
      uint32_t device = 0;
      if (rd.context != nullptr && api_.device_id(rd.context, &device) == CUPTI_SUCCESS) {
        e.agent_id = processor_.agent_of_device(device);
      }
      sink_.code_object_loaded(e);
      break;
    }
    default:
      break;
  }
}

void cupti_session::on_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t* buffer,
                                        size_t valid) {
  register_agents_once();
  if (buffer != nullptr && valid > 0) processor_.process_buffer(api_, buffer, valid);
  size_t dropped = 0;
  if (api_.dropped_records(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped > 0) {
    dropped_.fetch_add(dropped, std::memory_order_relaxed);
    sink_.dropped(dropped);
  }
}

void cupti_session::flush() {
  if (state_ != session_state::running) return;
  if (sampler_) sampler_->drain();
  ROCPROF_CUPTI_CALL(api_, api_.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  // A forced flush delivered every API record there is: work still waiting had none.
  if (api_records_ || record_tracing_.any()) processor_.release_waiting();
}

void cupti_session::stop() {
  if (state_ != session_state::running) return;
  if (sampler_) sampler_->finish();
  flush();
  for (CUpti_ActivityKind kind : enabled_kinds_)
    api_.activity_disable(kind);
  enabled_kinds_.clear();
  ROCPROF_CUPTI_CALL(api_, api_.unsubscribe(subscriber_));
  subscriber_ = nullptr;
  state_ = session_state::idle;
  cupti_session* self = this;
  g_session.compare_exchange_strong(self, nullptr);
}

void cupti_session::start_pc_sampling_once() {
  if (sampler_ || pc_api_ == nullptr) return;
  const uint64_t interval = sink_.pc_sampling_interval();
  if (interval == 0) return;
  sampler_ =
      std::make_unique<pc_sampler>(*pc_api_, pc_glue_, pc_sampler_settings_from_env(interval));
}

rocprofiler_pc_sampling_loss_t cupti_session::pc_sampling_losses(uint64_t agent) const {
  if (sampler_) return sampler_->losses(agent);
  rocprofiler_pc_sampling_loss_t none{};
  none.size = sizeof(none);
  return none;
}

void cupti_session::pc_sampling_instructions(const pc_sampler::instruction_fn& each) {
  if (sampler_) sampler_->sampled_instructions(each);
}

void cupti_session::pc_glue::emit(const rocprofiler_pc_sampling_record_aggregated_v0_t& r) {
  s_.sink_.emit_pc_sample(r);
}

uint64_t cupti_session::pc_glue::kernel_of(const char* function) {
  return s_.processor_.kernel_id_of_name(function);
}

uint64_t cupti_session::pc_glue::launch_of(uint32_t cupti_correlation) {
  correlation_entry e;
  return s_.correlations_.get(cupti_correlation, e) ? e.correlation_id : 0;
}

uint64_t cupti_session::pc_glue::agent_of(CUcontext ctx) {
  uint32_t device = 0;
  if (s_.api_.device_id(ctx, &device) != CUPTI_SUCCESS) return 0;
  return s_.processor_.agent_of_device(device);
}

}  // namespace rocprof::cuda
