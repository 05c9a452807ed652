// ROCTx: forwards to the profiler core's marker producer entry (rocprof_marker_*) when the core
// is loaded, and otherwise behaves trivially (levels counted, ids handed out, nothing kept).
//
// The core is looked up once, on the first call, with dlsym(RTLD_DEFAULT): an application
// that is not profiled pays one predictable branch per call afterwards.
#include "rocprofiler-sdk-roctx/roctx.h"
#include "roctracer/roctx.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

#include "rocprof/common/c_boundary.hpp"
#include "rocprofiler-sdk/backend/markers.h"
#include "rocprofiler-sdk/marker_api.h"

namespace {

struct core_entry_points {
  rocprof_marker_push_fn_t push = nullptr;
  rocprof_marker_pop_fn_t pop = nullptr;
  rocprof_marker_start_fn_t start = nullptr;
  rocprof_marker_stop_fn_t stop = nullptr;
  rocprof_marker_mark_fn_t mark = nullptr;
  rocprof_marker_name_thread_fn_t name_thread = nullptr;
  rocprof_marker_name_object_fn_t name_object = nullptr;
  rocprof_marker_control_fn_t pause = nullptr;
  rocprof_marker_control_fn_t resume = nullptr;
};

template <typename Fn>
Fn lookup(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

// Fills `e` from the core's exported entries; false when there is no (complete) core.
bool resolve_into(core_entry_points& e) {
  e.push = lookup<rocprof_marker_push_fn_t>("rocprof_marker_push");
  e.pop = lookup<rocprof_marker_pop_fn_t>("rocprof_marker_pop");
  e.start = lookup<rocprof_marker_start_fn_t>("rocprof_marker_start");
  e.stop = lookup<rocprof_marker_stop_fn_t>("rocprof_marker_stop");
  e.mark = lookup<rocprof_marker_mark_fn_t>("rocprof_marker_mark");
  e.name_thread = lookup<rocprof_marker_name_thread_fn_t>("rocprof_marker_name_thread");
  e.name_object = lookup<rocprof_marker_name_object_fn_t>("rocprof_marker_name_object");
  e.pause = lookup<rocprof_marker_control_fn_t>("rocprof_marker_pause");
  e.resume = lookup<rocprof_marker_control_fn_t>("rocprof_marker_resume");
  return e.push != nullptr && e.pop != nullptr && e.start != nullptr && e.stop != nullptr &&
         e.mark != nullptr && e.name_thread != nullptr && e.name_object != nullptr &&
         e.pause != nullptr && e.resume != nullptr;
}

// The core's entry points once resolved and complete; nullptr before that and without a core.
std::atomic<const core_entry_points*> g_core{nullptr};

// Resolution takes no lock (a function-local static's guard would be one): a fork() while
// another thread was inside it left the child waiting for that guard forever. Racing first
// callers each resolve; one publishes the table, the others use their own copy for that call.
// Both of these are constant-initialized.
core_entry_points g_table;
enum resolution : int { unresolved, publishing, published, no_core };
std::atomic<int> g_resolution{unresolved};

const core_entry_points* resolve_once() {
  const int now = g_resolution.load(std::memory_order_acquire);
  if (now == published) return &g_table;
  if (now == no_core) return nullptr;
  core_entry_points found;
  const bool complete = resolve_into(found);
  int expected = unresolved;
  if (g_resolution.compare_exchange_strong(expected, publishing)) {
    if (complete) {
      g_table = found;
      g_core.store(&g_table, std::memory_order_release);
    }
    g_resolution.store(complete ? published : no_core, std::memory_order_release);
    return complete ? &g_table : nullptr;
  }
  if (!complete) return nullptr;
  thread_local core_entry_points mine;  // trivial: no guard, no destructor
  mine = found;
  return &mine;
}

// nullptr: no profiler core in the process. Inline, so that a profiled call pays one load and
// one branch for it.
inline const core_entry_points* core() {
  const core_entry_points* entry = g_core.load(std::memory_order_acquire);
  if (__builtin_expect(entry != nullptr, 1)) return entry;
  return resolve_once();
}

// Trivial behaviour without a core.
thread_local int t_depth = 0;
std::atomic<roctx_range_id_t> g_next_range_id{1};
std::atomic<unsigned> g_fork_generation{0};

// Registered when the library loads, not on first use: a function-local static's guard could be
// copied into a forked child half-way.
__attribute__((constructor)) void register_fork_generation() {
  pthread_atfork(nullptr, nullptr, [] { g_fork_generation.fetch_add(1); });
}

using rocprof::c_boundary::guarded_call;
using rocprof::c_boundary::guarded_or;

// The naming calls of HSA agents, HIP devices and streams: one core entry, told apart by op.
int name_object(int operation, const char* name, uint64_t object) {
  if (const core_entry_points* c = core()) return c->name_object(operation, name, object);
  return 0;
}

}  // namespace

// No exception leaves ROCTx: on an internal failure a call returns its documented error value
// (-1 for int results, range id 0). The core's marker entries run through the C-boundary guard
// themselves (rocprof/common/c_boundary.hpp), so the hot calls (mark, ranges) forward to them
// outside a guard of their own: the forward stays a tail call. Everything else here runs
// through the guard.
extern "C" {

ROCTX_API void roctxMarkA(const char* message) {
  if (const core_entry_points* c = core()) return c->mark(nullptr, message);
}

ROCTX_API int roctxRangePushA(const char* message) {
  if (const core_entry_points* c = core()) return c->push(nullptr, message);
  return guarded_or(__func__, -1, [] { return t_depth++; });
}

ROCTX_API int roctxRangePop(void) {
  if (const core_entry_points* c = core()) return c->pop(nullptr);
  return guarded_or(__func__, -1, [] { return t_depth == 0 ? -1 : --t_depth; });
}

ROCTX_API roctx_range_id_t roctxRangeStartA(const char* message) {
  if (const core_entry_points* c = core()) return c->start(nullptr, message);
  return guarded_or(__func__, roctx_range_id_t{0},
                    [] { return g_next_range_id.fetch_add(1, std::memory_order_relaxed); });
}

ROCTX_API void roctxRangeStop(roctx_range_id_t id) {
  if (const core_entry_points* c = core()) return c->stop(nullptr, id);
}

ROCTX_API int roctxProfilerPause(roctx_thread_id_t tid) {
  return guarded_or(__func__, -1, [&] {
    if (const core_entry_points* c = core()) return c->pause(tid);
    return 0;
  });
}

ROCTX_API int roctxProfilerResume(roctx_thread_id_t tid) {
  return guarded_or(__func__, -1, [&] {
    if (const core_entry_points* c = core()) return c->resume(tid);
    return 0;
  });
}

ROCTX_API int roctxNameOsThread(const char* name) {
  return guarded_or(__func__, -1, [&] {
    if (const core_entry_points* c = core()) return c->name_thread(nullptr, name);
    return 0;
  });
}

ROCTX_API int roctxNameHsaAgent(const char* name, const struct hsa_agent_s* agent) {
  return guarded_or(__func__, -1, [&] {
    return name_object(ROCPROFILER_MARKER_NAME_API_ID_roctxNameHsaAgent, name,
                       reinterpret_cast<uintptr_t>(agent));
  });
}

ROCTX_API int roctxNameHipDevice(const char* name, int device_id) {
  return guarded_or(__func__, -1, [&] {
    return name_object(ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipDevice, name,
                       static_cast<uint64_t>(device_id));
  });
}

ROCTX_API int roctxNameHipStream(const char* name, const struct ihipStream_t* stream) {
  return guarded_or(__func__, -1, [&] {
    return name_object(ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipStream, name,
                       reinterpret_cast<uintptr_t>(stream));
  });
}

// roctracer's version queries (legacy header).
ROCTX_API uint32_t roctx_version_major(void) {
  return guarded_or(__func__, 0u, [] { return uint32_t{ROCTX_VERSION_MAJOR}; });
}

ROCTX_API uint32_t roctx_version_minor(void) {
  return guarded_or(__func__, 0u, [] { return uint32_t{ROCTX_VERSION_MINOR}; });
}

ROCTX_API int roctxGetThreadId(roctx_thread_id_t* tid) {
  return guarded_or(__func__, -1, [&] {
    // Cached per thread; a forked child bumps the generation so its thread asks the OS again.
    static thread_local roctx_thread_id_t cached = 0;
    static thread_local unsigned generation = 0;
    const unsigned now = g_fork_generation.load(std::memory_order_relaxed);
    if (cached == 0 || generation != now) {
      cached = static_cast<roctx_thread_id_t>(syscall(SYS_gettid));
      generation = now;
    }
    *tid = cached;
    return 0;
  });
}

}  // extern "C"
