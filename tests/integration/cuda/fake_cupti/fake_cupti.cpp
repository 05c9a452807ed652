// A stand-in for NVIDIA's libcupti.so.13, for CPU-only CI: implements the entry points the CUDA
// backend resolves, and two test-only functions that play a CUDA application's GPU work
// (API callbacks now, activity records at the next flush). With it, the real CLI, tool, core and
// CUDA plugin run end to end on a machine without a GPU (check_fake_cupti_cli.py). It replaces
// NVIDIA's library only, never code of ours.
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <vector>

#define FAKE_API extern "C" __attribute__((visibility("default")))

namespace {

CUpti_CallbackFunc g_callback = nullptr;
void* g_userdata = nullptr;
bool g_subscribed = false;
bool g_runtime_enabled[CUPTI_RUNTIME_TRACE_CBID_SIZE] = {};
bool g_runtime_records[CUPTI_RUNTIME_TRACE_CBID_SIZE] = {};  // cuptiActivityEnableRuntimeApi
bool g_driver_enabled[CUPTI_DRIVER_TRACE_CBID_SIZE] = {};
bool g_driver_records[CUPTI_DRIVER_TRACE_CBID_SIZE] = {};  // cuptiActivityEnableDriverApi
bool g_module_loaded_enabled = false;
bool g_kind_enabled[64] = {};
CUpti_BuffersCallbackRequestFunc g_request = nullptr;
CUpti_BuffersCallbackCompleteFunc g_complete = nullptr;
CUpti_TimestampCallbackFunc g_timestamp = nullptr;
uint32_t g_next_correlation = 1;
// FAKE_CUPTI_CORRELATION=stuck plays one reading of what the H100 did under the tools' deferred
// start (a model, not NVIDIA's code): runtime callbacks switched off inside the ENTER callback
// of a call leave that call open, and CUPTI hands its id to every later callback and record.
uint32_t g_in_enter = 0;  // the id of the call whose ENTER callback runs now
uint32_t g_stuck = 0;
bool stuck_model() {
  const char* v = std::getenv("FAKE_CUPTI_CORRELATION");
  return v != nullptr && std::strcmp(v, "stuck") == 0;
}
// Leaked on purpose, like the real library's state: a profiler may flush from its exit
// handlers, after this library's static destructors would have run.
std::mutex& g_mutex = *new std::mutex;
std::vector<CUpti_ActivityKernel10>& g_kernels = *new std::vector<CUpti_ActivityKernel10>;
std::vector<CUpti_ActivityMemcpy6>& g_copies = *new std::vector<CUpti_ActivityMemcpy6>;
std::vector<CUpti_ActivityAPI>& g_api_records = *new std::vector<CUpti_ActivityAPI>;
std::vector<size_t>& g_walk = *new std::vector<size_t>;  // record offsets of the buffer walked
// As libcupti spells them: runtime names carry the CUDA version of the entry point.
const char* const g_names[] = {"cudaLaunchKernel_v7000", "cudaMemcpy_v3020", "cuLaunchKernel",
                               "cudaGetDevice_v3020"};
constexpr uint32_t launch_cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
constexpr uint32_t memcpy_cbid = CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020;
constexpr uint32_t driver_launch_cbid = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
constexpr uint32_t get_device_cbid = CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020;

// FAKE_CUPTI_STATE_QUERIES=1: each launch is preceded by a cudaGetDevice, as frameworks ask for
// the current device before each launch (the state queries the API trace leaves out by default).
bool state_queries() {
  static const bool on = [] {
    const char* v = std::getenv("FAKE_CUPTI_STATE_QUERIES");
    return v != nullptr && *v == '1';
  }();
  return on;
}

// Runtime/driver ENTER callbacks delivered, printed at exit as FAKE_CUPTI_API_CALLBACKS N when
// FAKE_CUPTI_REPORT_CALLBACKS=1: tells the callback path from the API-record path from outside.
std::atomic<uint32_t> g_api_enters{0};
__attribute__((destructor)) void report_api_callbacks() {
  const char* v = std::getenv("FAKE_CUPTI_REPORT_CALLBACKS");
  if (v != nullptr && *v == '1')
    std::fprintf(stderr, "FAKE_CUPTI_API_CALLBACKS %u\n", g_api_enters.load());
}

uint64_t now() {
  if (g_timestamp != nullptr) return g_timestamp();
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

// FAKE_CUPTI_NESTED_DRIVER=1: each runtime launch makes a nested cuLaunchKernel, whose
// callbacks come between the runtime call's ENTER and EXIT (as the real runtime's do); the
// kernel record keeps the runtime call's id.
bool nested_driver_calls() {
  static const bool on = [] {
    const char* v = std::getenv("FAKE_CUPTI_NESTED_DRIVER");
    return v != nullptr && *v == '1';
  }();
  return on;
}

// The per-API activity record of a call that ran from `start` until now, with the OS thread id
// (the profiler asks for that type). Records are kept in completion order, as CUPTI writes them:
// a runtime call's nested driver call before the runtime call.
void record_api(CUpti_ActivityKind kind, uint32_t cbid, uint32_t id, uint64_t start) {
  CUpti_ActivityAPI a{};
  a.kind = kind;
  a.cbid = cbid;
  a.start = start;
  a.end = now();
  if (a.end <= a.start) a.end = a.start + 1;
  a.processId = static_cast<uint32_t>(getpid());
  a.threadId = static_cast<uint32_t>(syscall(SYS_gettid));
  a.correlationId = id;
  std::lock_guard<std::mutex> lock{g_mutex};
  g_api_records.push_back(a);
}

void nested_driver_launch() {
  constexpr uint32_t cbid = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
  const bool callbacks = g_subscribed && g_callback != nullptr && g_driver_enabled[cbid];
  if (!callbacks && !g_driver_records[cbid]) return;
  const uint64_t start = now();
  const uint32_t id = g_next_correlation++;
  if (callbacks) {
    uint64_t slot = 0;
    cuLaunchKernel_params params{};
    params.gridDimX = 64;
    params.blockDimX = 128;
    CUresult ret = CUDA_SUCCESS;
    CUpti_CallbackData cb{};
    cb.functionName = "cuLaunchKernel";
    cb.functionParams = &params;
    cb.functionReturnValue = &ret;
    cb.correlationId = id;
    cb.correlationData = &slot;
    cb.callbackSite = CUPTI_API_ENTER;
    ++g_api_enters;
    g_callback(g_userdata, CUPTI_CB_DOMAIN_DRIVER_API, cbid, &cb);
    cb.callbackSite = CUPTI_API_EXIT;
    g_callback(g_userdata, CUPTI_CB_DOMAIN_DRIVER_API, cbid, &cb);
  }
  if (g_driver_records[cbid]) record_api(CUPTI_ACTIVITY_KIND_DRIVER, cbid, id, start);
}

// One runtime API call: ENTER and EXIT callbacks when enabled, with `params` (the call's
// parameter struct, as CUPTI hands it); returns its CUPTI correlation id.
uint32_t api_call(uint32_t cbid, const char* name, const void* params) {
  const uint32_t fresh = g_next_correlation++;
  const uint32_t id = g_stuck != 0 ? g_stuck : fresh;
  const uint64_t start = now();
  const bool nested = cbid == launch_cbid && nested_driver_calls();
  if (!g_subscribed || g_callback == nullptr || !g_runtime_enabled[cbid]) {
    if (nested) nested_driver_launch();  // the runtime makes its driver call all the same
    if (g_runtime_records[cbid]) record_api(CUPTI_ACTIVITY_KIND_RUNTIME, cbid, id, start);
    return id;
  }
  uint64_t slot = 0;
  CUpti_CallbackData cb{};
  cb.functionName = name;
  cb.functionParams = params;
  cb.correlationId = id;
  cb.correlationData = &slot;
  cudaError_t ret = cudaSuccess;
  cb.functionReturnValue = &ret;
  cb.callbackSite = CUPTI_API_ENTER;
  g_in_enter = id;
  ++g_api_enters;
  g_callback(g_userdata, CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &cb);
  g_in_enter = 0;
  if (nested) nested_driver_launch();
  cb.callbackSite = CUPTI_API_EXIT;
  g_callback(g_userdata, CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &cb);
  if (g_runtime_records[cbid]) record_api(CUPTI_ACTIVITY_KIND_RUNTIME, cbid, id, start);
  return id;
}

}  // namespace

FAKE_API CUptiResult cuptiGetVersion(uint32_t* v) {
  *v = CUPTI_API_VERSION;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiGetResultString(CUptiResult, const char** s) {
  *s = "FAKE_CUPTI_RESULT";
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiSubscribe_v2(CUpti_SubscriberHandle* sub, CUpti_CallbackFunc cb,
                                       void* user, CUpti_SubscriberParams*) {
  if (g_subscribed) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  g_callback = cb;
  g_userdata = user;
  g_subscribed = true;
  *sub = reinterpret_cast<CUpti_SubscriberHandle>(&g_subscribed);
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle) {
  g_subscribed = false;
  g_callback = nullptr;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiEnableCallback(uint32_t on, CUpti_SubscriberHandle,
                                         CUpti_CallbackDomain d, CUpti_CallbackId cbid) {
  if (d == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE)
    g_runtime_enabled[cbid] = on != 0;
  if (d == CUPTI_CB_DOMAIN_DRIVER_API && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE)
    g_driver_enabled[cbid] = on != 0;
  if (d == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
    g_module_loaded_enabled = on != 0;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiEnableDomain(uint32_t on, CUpti_SubscriberHandle,
                                       CUpti_CallbackDomain d) {
  if (d == CUPTI_CB_DOMAIN_RUNTIME_API)
    for (bool& b : g_runtime_enabled)
      b = on != 0;
  if (d == CUPTI_CB_DOMAIN_RUNTIME_API && on == 0 && g_in_enter != 0 && stuck_model())
    g_stuck = g_in_enter;
  if (d == CUPTI_CB_DOMAIN_DRIVER_API)
    for (bool& b : g_driver_enabled)
      b = on != 0;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain d, uint32_t cbid,
                                          const char** name) {
  if (d == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == launch_cbid)
    *name = g_names[0];
  else if (d == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == memcpy_cbid)
    *name = g_names[1];
  else if (d == CUPTI_CB_DOMAIN_DRIVER_API && cbid == driver_launch_cbid)
    *name = g_names[2];
  else if (d == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == get_device_cbid)
    *name = g_names[3];
  else
    *name = "fakeOtherCall";
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiActivityEnable(CUpti_ActivityKind k) {
  if (static_cast<int>(k) < 64) g_kind_enabled[k] = true;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiActivityDisable(CUpti_ActivityKind k) {
  if (static_cast<int>(k) < 64) g_kind_enabled[k] = false;
  return CUPTI_SUCCESS;
}
// Per-API activity records (FAKE_CUPTI_NO_API_RECORDS=1: refused, like an older libcupti).
bool api_records_refused() {
  const char* v = std::getenv("FAKE_CUPTI_NO_API_RECORDS");
  return v != nullptr && *v == '1';
}
FAKE_API CUptiResult cuptiActivityEnableRuntimeApi(CUpti_CallbackId cbid, uint8_t on) {
  if (api_records_refused()) return CUPTI_ERROR_NOT_SUPPORTED;
  if (cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE) g_runtime_records[cbid] = on != 0;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiActivityEnableDriverApi(CUpti_CallbackId cbid, uint8_t on) {
  if (api_records_refused()) return CUPTI_ERROR_NOT_SUPPORTED;
  if (cbid < CUPTI_DRIVER_TRACE_CBID_SIZE) g_driver_records[cbid] = on != 0;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiSetThreadIdType(CUpti_ActivityThreadIdType type) {
  return type == CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM && !api_records_refused()
             ? CUPTI_SUCCESS
             : CUPTI_ERROR_NOT_SUPPORTED;
}
FAKE_API CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc r,
                                                    CUpti_BuffersCallbackCompleteFunc c) {
  g_request = r;
  g_complete = c;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc f) {
  g_timestamp = f;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiActivityGetNextRecord(uint8_t* buffer, size_t, CUpti_Activity** record) {
  // The walk order was fixed when the buffer was filled (g_walk); *record is the cursor.
  size_t next = 0;
  if (*record != nullptr) {
    const size_t at = static_cast<size_t>(reinterpret_cast<uint8_t*>(*record) - buffer);
    while (next < g_walk.size() && g_walk[next] <= at)
      ++next;
  }
  if (next >= g_walk.size()) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = reinterpret_cast<CUpti_Activity*>(buffer + g_walk[next]);
  return CUPTI_SUCCESS;
}
// FAKE_CUPTI_DROPPED=N: the first completed buffer reports N dropped records (the drop-count
// test); later ones none.
FAKE_API CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* n) {
  static std::atomic<bool> reported{false};
  const char* dropped = std::getenv("FAKE_CUPTI_DROPPED");
  *n = dropped != nullptr && !reported.exchange(true) ? std::strtoull(dropped, nullptr, 10) : 0;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiActivityFlushAll(uint32_t) {
  std::lock_guard<std::mutex> lock{g_mutex};
  if (g_request == nullptr || g_complete == nullptr ||
      (g_kernels.empty() && g_copies.empty() && g_api_records.empty()))
    return CUPTI_SUCCESS;
  uint8_t* buffer = nullptr;
  size_t size = 0, max_records = 0;
  g_request(&buffer, &size, &max_records);
  size_t used = 0;
  g_walk.clear();
  auto put = [&](const void* rec, size_t n) {
    if (used + n > size) return;
    std::memcpy(buffer + used, rec, n);
    g_walk.push_back(used);
    used += (n + 7) & ~size_t{7};
  };
  for (const auto& k : g_kernels)
    put(&k, sizeof(k));
  for (const auto& c : g_copies)
    put(&c, sizeof(c));
  // After the work they launched, as CUPTI may deliver them: the work must wait for them.
  for (const auto& a : g_api_records)
    put(&a, sizeof(a));
  g_kernels.clear();
  g_copies.clear();
  g_api_records.clear();
  g_complete(nullptr, 0, buffer, size, used);
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiActivityFlushPeriod(uint32_t) {
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiGetCubinCrc(CUpti_GetCubinCrcParams* p) {
  p->cubinCrc = 0x1234;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiGetDeviceId(CUcontext, uint32_t* device) {
  *device = 0;
  return CUPTI_SUCCESS;
}
FAKE_API CUptiResult cuptiFinalize() {
  return CUPTI_SUCCESS;
}

// ---- test-only: play the GPU work of an application ----

// `count` launches of `name` on stream 7, each 1 µs long, 10 µs apart (each after a
// cudaGetDevice with FAKE_CUPTI_STATE_QUERIES=1).
FAKE_API void fake_cupti_launch(const char* name, int count) {
  for (int i = 0; i < count; ++i) {
    if (state_queries()) {
      int device = 0;
      cudaGetDevice_v3020_params query{};
      query.device = &device;
      api_call(get_device_cbid, g_names[3], &query);
    }
    cudaLaunchKernel_v7000_params params{};
    params.func = name;
    params.gridDim = dim3(64, 1, 1);
    params.blockDim = dim3(128, 1, 1);
    params.stream = reinterpret_cast<cudaStream_t>(uintptr_t{0x7000});
    const uint32_t id = api_call(launch_cbid, g_names[0], &params);
    // After the call: the kernel must start after its launch call did, however long a loaded
    // machine kept this thread between a clock read and the call's own.
    const uint64_t t = now();
    // Serialized (KERNEL) or concurrent kernel records: the same record, as CUPTI writes them.
    const bool serialized = g_kind_enabled[CUPTI_ACTIVITY_KIND_KERNEL];
    if (!serialized && !g_kind_enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL]) continue;
    CUpti_ActivityKernel10 k{};
    k.kind = serialized ? CUPTI_ACTIVITY_KIND_KERNEL : CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.name = name;  // must outlive the flush: callers pass literals
    k.correlationId = id;
    k.start = t + 10000 * static_cast<uint64_t>(i + 1);
    k.end = k.start + 1000;
    k.contextId = 1;
    k.streamId = 7;
    k.gridX = 64;
    k.gridY = k.gridZ = 1;
    k.blockX = 128;
    k.blockY = k.blockZ = 1;
    k.registersPerThread = 24;
    k.staticSharedMemory = 512;
    std::lock_guard<std::mutex> lock{g_mutex};
    g_kernels.push_back(k);
  }
}

// One host-to-device copy of `bytes`.
FAKE_API void fake_cupti_memcpy_h2d(uint64_t bytes) {
  cudaMemcpy_v3020_params params{};
  params.dst = reinterpret_cast<void*>(uintptr_t{0xd000});
  params.src = reinterpret_cast<const void*>(uintptr_t{0xc000});
  params.count = bytes;
  params.kind = cudaMemcpyHostToDevice;
  const uint32_t id = api_call(memcpy_cbid, g_names[1], &params);
  const uint64_t t = now();  // after the call, as for kernels
  if (!g_kind_enabled[CUPTI_ACTIVITY_KIND_MEMCPY]) return;
  CUpti_ActivityMemcpy6 c{};
  c.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  c.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  c.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
  c.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  c.bytes = bytes;
  c.correlationId = id;
  c.start = t + 5000;
  c.end = c.start + 2000;
  c.contextId = 1;
  c.streamId = 7;
  std::lock_guard<std::mutex> lock{g_mutex};
  g_copies.push_back(c);
}

// A module load as the driver reports it: `image` is the "cubin" (any ELF file will do, e.g. the
// application's own executable, whose symbol table names its functions).
FAKE_API void fake_cupti_load_module(const void* image, size_t size, uint32_t module_id) {
  if (!g_subscribed || g_callback == nullptr || !g_module_loaded_enabled) return;
  CUpti_ModuleResourceData m{};
  m.moduleId = module_id;
  m.cubinSize = size;
  m.pCubin = static_cast<const char*>(image);
  CUpti_ResourceData rd{};
  rd.resourceDescriptor = &m;
  g_callback(g_userdata, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED, &rd);
}

// ---- benchmark-only: the profiler's cost per API call (benchmarks/cuda_callbacks) ----

namespace {

// A baseline collector's work per callback: a timestamp, and at the exit a 32-byte record
// into a preallocated ring (what a bare CUPTI collector keeps per call).
struct minimal_record {
  uint64_t start, end;
  uint32_t cbid, correlation;
  uint64_t tid;
};
minimal_record g_ring[4096];
thread_local uint64_t t_minimal_start = 0;
uint64_t g_minimal_count = 0;

void CUPTIAPI empty_callback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

void CUPTIAPI minimal_callback(void*, CUpti_CallbackDomain, CUpti_CallbackId cbid,
                               const void* data) {
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  const uint64_t t = static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + ts.tv_nsec;
  if (cb->callbackSite == CUPTI_API_ENTER) {
    t_minimal_start = t;
    return;
  }
  minimal_record& r = g_ring[g_minimal_count++ & 4095];
  r = minimal_record{t_minimal_start, t, cbid, cb->correlationId, 1};
}

// `n` runtime launches, each making one nested driver launch, through `callback` (both
// domains' sites called, as CUPTI does when the callbacks are enabled). Nanoseconds per pair.
// With FAKE_CUPTI_BENCH_DISTINCT_ARGS set, every pair launches a different grid (no two calls
// have the same arguments: what a tool that reuses argument texts cannot reuse).
double time_pairs(CUpti_CallbackFunc callback, void* user, uint64_t n) {
  static const bool distinct = std::getenv("FAKE_CUPTI_BENCH_DISTINCT_ARGS") != nullptr;
  cudaLaunchKernel_v7000_params rp{};
  rp.func = "_Z11fake_kernelPf";
  rp.gridDim = dim3(64, 1, 1);
  rp.blockDim = dim3(128, 1, 1);
  cuLaunchKernel_params dp{};
  dp.gridDimX = 64;
  dp.blockDimX = 128;
  timespec t0{}, t1{};
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (uint64_t i = 0; i < n; ++i) {
    if (distinct) rp.gridDim.x = dp.gridDimX = static_cast<unsigned>(i + 1);
    uint64_t rslot = 0, dslot = 0;
    cudaError_t rret = cudaSuccess;
    CUresult dret = CUDA_SUCCESS;
    CUpti_CallbackData rc{};
    rc.functionName = g_names[0];
    rc.functionParams = &rp;
    rc.functionReturnValue = &rret;
    rc.correlationId = g_next_correlation++;
    rc.correlationData = &rslot;
    CUpti_CallbackData dc{};
    dc.functionName = g_names[2];
    dc.functionParams = &dp;
    dc.functionReturnValue = &dret;
    dc.correlationId = g_next_correlation++;
    dc.correlationData = &dslot;
    rc.callbackSite = dc.callbackSite = CUPTI_API_ENTER;
    if (g_runtime_enabled[launch_cbid])
      callback(user, CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid, &rc);
    if (g_driver_enabled[driver_launch_cbid])
      callback(user, CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid, &dc);
    dc.callbackSite = rc.callbackSite = CUPTI_API_EXIT;
    if (g_driver_enabled[driver_launch_cbid])
      callback(user, CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid, &dc);
    if (g_runtime_enabled[launch_cbid])
      callback(user, CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid, &rc);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  const double ns = static_cast<double>(t1.tv_sec - t0.tv_sec) * 1e9 +
                    static_cast<double>(t1.tv_nsec - t0.tv_nsec);
  return n > 0 ? ns / static_cast<double>(n) : 0.0;
}

// One out-of-line function per way of timing, so that an instruction counter (callgrind) can
// tell them apart: benchmarks/cuda_callbacks/run_cuda_callbacks.py --instructions.
__attribute__((noinline)) double bench_empty_pairs(uint64_t n) {
  return time_pairs(&empty_callback, nullptr, n);
}
__attribute__((noinline)) double bench_minimal_pairs(uint64_t n) {
  return time_pairs(&minimal_callback, nullptr, n);
}
__attribute__((noinline)) double bench_profiler_pairs(uint64_t n) {
  return time_pairs(g_callback, g_userdata, n);
}

}  // namespace

// Times `n` runtime-launch + nested-driver-launch pairs three ways in this process: with an
// empty callback, with a minimal collector (the baseline), and with the subscribed profiler.
// Both callbacks must be enabled by the profiler (e.g. rocprofv3 --sys-trace); the baselines
// are timed with the same enables. out[0..2] = ns per pair.
FAKE_API void fake_cupti_bench_api_pairs(uint64_t n, double* out) {
  if (g_callback == nullptr) return;
  // Warm-up runs go through time_pairs directly: the counted functions see exactly n pairs.
  const uint64_t warm = n / 10 + 1;
  time_pairs(&empty_callback, nullptr, warm);
  out[0] = bench_empty_pairs(n);
  time_pairs(&minimal_callback, nullptr, warm);
  out[1] = bench_minimal_pairs(n);
  time_pairs(g_callback, g_userdata, warm);
  out[2] = bench_profiler_pairs(n);
}
