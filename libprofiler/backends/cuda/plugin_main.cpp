// The plugin's lifecycle and its injection entry point.
//  * InitializeInjection: the CUDA driver calls it at cuInit when CUDA_INJECTION64_PATH names
//    this library (the CLI sets it). The atexit handler registered here runs before cudart's
//    teardown, so the final flush still finds CUPTI working (cupti-notes §8.1).
//  * the core loads the plugin and calls rocprof_backend_register / start (backend_entry.cpp),
//    possibly long before the application initialises CUDA; CUPTI then sees the contexts come.
// Whichever comes first starts the one session; the other finds it running.
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#include "coreless_sink.hpp"
#include "counters/counter_sets.hpp"
#include "counters/range_profiler_api.hpp"
#include "cupti_api.hpp"
#include "cupti_session.hpp"
#include "metrics/profiler_host_loader.hpp"
#include "notices.hpp"
#include "pc_sampling_api.hpp"
#include "plugin_state.hpp"
#include "rocprof/common/c_boundary.hpp"

namespace rocprof::cuda {
namespace {

struct plugin_state {
  std::mutex mutex;
  bool attempted = false;
  bool exit_registered = false;
  bool finished = false;  // the exit flush ran: CUPTI may be torn down, leave it alone
  std::once_flag cupti_once;
  std::atomic<bool> cupti_tried{false};  // set once `library` is final
  cupti_library library;
  std::unique_ptr<cupti_dl_api> api;
  std::unique_ptr<cupti_session> session;
  std::unique_ptr<pc_sampling_api> pc_api;  // opened when a context asks for PC sampling
  bool pc_api_tried = false;
  backend_sink* sink = nullptr;
  std::unique_ptr<coreless_sink> coreless;  // without a core (test builds only)
  std::string status = "not started";
  // Per-kernel counters (opened on first need).
  std::once_flag counters_once;
  std::unique_ptr<profiler_host_api> host_api;
  std::unique_ptr<range_profiler_api> range_api;
  // Set by InitializeInjection when the core's tools must start after cuInit (see
  // cupti_session_deferral.cpp); handed to the session it starts.
  std::function<void()> start_tools;
};

// Leaked on purpose: the atexit handler and CUPTI's threads may use it during teardown.
plugin_state& state() {
  static plugin_state* s = new plugin_state;
  return *s;
}

// An exit handler: nothing may escape into the C library's exit().
void on_process_exit() {
  c_boundary::guarded_call("cuda backend exit flush", [] { finish_backend(); });
}

// Flushes on a short-lived thread of its own. At exit() glibc runs the main thread's
// thread_local destructors before the atexit handlers, and the core then no longer accepts
// records from that thread; a fresh thread hands its records over when it ends.
// `last`: the exit flush, which also ends PC sampling (its drain thread must be gone, and
// its last samples delivered, before CUPTI's teardown).
void flush_on_helper_thread(cupti_session& session, bool last = false) {
  auto work = [&session, last] {
    if (last) session.finish_pc_sampling();
    session.flush();
  };
  try {
    std::thread helper{work};
    helper.join();
  } catch (const std::system_error&) {
    work();  // no thread to be had: flush here, whatever the core keeps
  }
}

// ROCPROF_CUDA_VERBOSE: which CUPTI correlation ids the GPU records came with (the deferred
// start's diagnosis, tests/integration/samples/check_deferred_correlation.py).
void print_correlation_counts(const cupti_session& session) {
  const record_correlation_counts ids = session.correlation_counts();
  std::fprintf(
      stderr,
      "rocprofv3 [cuda]: correlation: records known=%llu unseen=%llu zero=%llu "
      "shared=%llu; callbacks zero=%llu shared=%llu\n",
      static_cast<unsigned long long>(ids.known), static_cast<unsigned long long>(ids.unseen),
      static_cast<unsigned long long>(ids.zero), static_cast<unsigned long long>(ids.shared),
      static_cast<unsigned long long>(ids.zero_callback_ids),
      static_cast<unsigned long long>(ids.shared_callback_ids));
}

std::atomic<bool> g_injection_called{false};

bool injection_names_this_plugin() {
  const char* injection = std::getenv("CUDA_INJECTION64_PATH");
  Dl_info self{};
  if (injection == nullptr || *injection == '\0' ||
      dladdr(reinterpret_cast<void*>(&injection_names_this_plugin), &self) == 0 ||
      self.dli_fname == nullptr)
    return false;
  char a[PATH_MAX], b[PATH_MAX];
  return realpath(injection, a) != nullptr && realpath(self.dli_fname, b) != nullptr &&
         std::string{a} == b;
}

// PC sampling's entry points, opened once the sink asks for sampling (with the lock held).
void offer_pc_sampling(plugin_state& s, const cupti_library& lib, backend_sink& sink) {
  if (s.pc_api_tried || sink.pc_sampling_interval() == 0 || s.session == nullptr) return;
  s.pc_api_tried = true;
  std::string why;
  s.pc_api = open_pc_sampling_api(lib, &why);
  if (s.pc_api == nullptr)
    std::fprintf(stderr, "rocprofv3 [cuda]: PC sampling unavailable: %s\n", why.c_str());
  s.session->set_pc_sampling(s.pc_api.get());
}

}  // namespace

rocprofiler_pc_sampling_loss_t pc_sampling_losses(uint64_t agent) {
  plugin_state& s = state();
  std::lock_guard<std::mutex> lock{s.mutex};
  if (s.session != nullptr) return s.session->pc_sampling_losses(agent);
  rocprofiler_pc_sampling_loss_t none{};
  none.size = sizeof(none);
  return none;
}

void pc_sampling_instructions(
    const std::function<void(uint64_t, uint64_t, uint64_t, const char*)>& each) {
  plugin_state& s = state();
  std::lock_guard<std::mutex> lock{s.mutex};
  if (s.session != nullptr) s.session->pc_sampling_instructions(each);
}

bool injection_pending() {
  static const bool named = injection_names_this_plugin();
  if (named) note_injection_requested();
  return named && !g_injection_called.load();
}

const cupti_library& cupti() {
  plugin_state& s = state();
  std::call_once(s.cupti_once, [&s] {
    s.library = load_cupti([](const char* name) { return std::getenv(name); });
    s.cupti_tried.store(true, std::memory_order_release);
    if (s.library.handle == nullptr) {
      if (notices_wanted())
        std::fprintf(stderr,
                     "rocprofv3 [cuda]: CUDA tracing unavailable: %s; CPU-side tracing continues\n",
                     s.library.error.c_str());
    }
  });
  return s.library;
}

const cupti_library* cupti_if_loaded() {
  plugin_state& s = state();
  if (!s.cupti_tried.load(std::memory_order_acquire)) return nullptr;
  return s.library.handle != nullptr ? &s.library : nullptr;
}

bool ensure_counter_apis() {
  plugin_state& s = state();
  const cupti_library& lib = cupti();
  std::call_once(s.counters_once, [&s, &lib] {
    if (lib.handle == nullptr) return;
    profiler_host_library host = open_profiler_host(lib);
    s.host_api = std::move(host.api);
    std::string why;
    s.range_api = open_range_profiler(lib, why);
    range_profiler_api* target = s.range_api.get();
    // The device's own chip when the target side can say (a GA104 is not a GA102).
    plugin_counter_sets().configure(s.host_api.get(), [target](int device) -> std::string {
      std::string chip;
      if (target != nullptr && target->initialize() == CUPTI_SUCCESS)
        target->chip_name(static_cast<size_t>(device), chip);
      return chip;
    });
  });
  return s.host_api != nullptr;
}

profiler_host_api* counter_host_api() {
  return ensure_counter_apis() ? state().host_api.get() : nullptr;
}

bool start_backend(backend_sink* sink, const char* how, bool restart) {
  plugin_state& s = state();
  const cupti_library& lib = cupti();
  std::lock_guard<std::mutex> lock{s.mutex};
  const bool running = s.session != nullptr && s.session->state() == session_state::running;
  if (s.attempted && (!restart || running)) {
    // Never torn down while running: the core may call us from inside one of our callbacks.
    if (running && restart && sink == s.sink) {
      offer_pc_sampling(s, lib, *sink);
      s.session->reconfigure();
    }
    return running;
  }
  if (s.session != nullptr && sink == s.sink) {
    // Stopped earlier and wanted again: the same session subscribes again (it is never
    // destroyed, for the same reason as above).
    offer_pc_sampling(s, lib, *sink);
    return s.session->start() == session_state::running;
  }
  s.attempted = true;
  if (sink == nullptr) {
    s.coreless = make_coreless_sink(s.status);
    if (s.coreless == nullptr) {
      if (notices_wanted())
        std::fprintf(stderr, "rocprofv3 [cuda]: %s: CUDA tracing is off\n", s.status.c_str());
      return false;
    }
    sink = s.coreless.get();
  }
  s.sink = sink;
  // Registered now, after libcupti was loaded (or failed to load): exit handlers run in
  // reverse order, so the final flush comes before libcupti's (and cudart's) own teardown, and
  // a coreless sink finishes even when tracing could not start.
  if (!s.exit_registered) {
    s.exit_registered = true;
    std::atexit(&on_process_exit);
  }
  if (lib.handle == nullptr) {
    s.status = "CUDA tracing unavailable: " + lib.error;
    return false;
  }
  if (s.api == nullptr) s.api = std::make_unique<cupti_dl_api>(lib.fn);
  s.session = std::make_unique<cupti_session>(*s.api, *sink);
  // Opened only when a dispatch first wants counters (libnvperf_host costs ~0.5 s to load).
  s.session->set_counter_api_provider([](range_profiler_api*& target, profiler_host_api*& host) {
    plugin_state& st = state();
    if (!ensure_counter_apis()) return;
    target = st.range_api.get();
    host = st.host_api.get();
  });
  offer_pc_sampling(s, lib, *sink);
  if (s.start_tools) s.session->defer_until_first_call(std::move(s.start_tools));
  s.start_tools = nullptr;
  const session_state st = s.session->start();
  if (st == session_state::conflict) {
    s.status = "conflict: CUPTI held by " + s.session->conflict_owner();
  } else if (st != session_state::running) {
    s.status = "CUDA tracing unavailable: " + s.session->failure() +
               " (no GPU or no CUDA driver?); CPU-side tracing continues";
    if (notices_wanted(*sink)) std::fprintf(stderr, "rocprofv3 [cuda]: %s\n", s.status.c_str());
  } else {
    s.status = std::string{"running ("} + how + ", " + lib.path + ", CUPTI " +
               std::to_string(lib.version) +
               (s.session->attributes_by_api_records() ? ", launches from API records" : "") +
               (s.session->traces_api_from_records() ? ", API calls from API records" : "") + ")";
  }
  if (verbose_diagnostics()) std::fprintf(stderr, "rocprofv3 [cuda]: %s\n", s.status.c_str());
  return st == session_state::running;
}

void defer_core_tools(std::function<void()> start_tools) {
  plugin_state& s = state();
  std::lock_guard<std::mutex> lock{s.mutex};
  s.start_tools = std::move(start_tools);
}

void stop_backend() {
  plugin_state& s = state();
  std::lock_guard<std::mutex> lock{s.mutex};
  if (s.session != nullptr && !s.finished) s.session->stop();
}

void register_exit_flush() {
  plugin_state& s = state();
  std::lock_guard<std::mutex> lock{s.mutex};
  if (s.exit_registered) return;
  s.exit_registered = true;
  std::atexit(&on_process_exit);
}

void flush_backend() {
  plugin_state& s = state();
  std::lock_guard<std::mutex> lock{s.mutex};
  if (s.session == nullptr || s.finished) return;
  flush_on_helper_thread(*s.session);
  if (verbose_diagnostics()) {
    const activity_counts c = s.session->counts();
    std::fprintf(
        stderr,
        "rocprofv3 [cuda]: flushed; so far %llu kernels, %llu copies, %llu memsets, "
        "%llu allocations, %llu API records, %llu dropped\n",
        static_cast<unsigned long long>(c.kernels), static_cast<unsigned long long>(c.memcpys),
        static_cast<unsigned long long>(c.memsets), static_cast<unsigned long long>(c.allocations),
        static_cast<unsigned long long>(c.api),
        static_cast<unsigned long long>(s.session->dropped()));
    print_correlation_counts(*s.session);
  }
}

void finish_backend() {
  plugin_state& s = state();
  std::lock_guard<std::mutex> lock{s.mutex};
  if (s.finished) return;
  if (s.session != nullptr) {
    flush_on_helper_thread(*s.session, true);
    s.session->finish_counting();
    if (verbose_diagnostics()) {
      print_correlation_counts(*s.session);
      // The tools may have started after the running line (deferred start): said again here.
      if (s.session->traces_api_from_records())
        std::fprintf(stderr, "rocprofv3 [cuda]: API calls from API records\n");
    }
  }
  // Later calls (the core's own finalisation runs after this handler) must not touch CUPTI,
  // whose teardown may follow this handler; everything was delivered here.
  s.finished = true;
  if (s.coreless != nullptr && s.sink == s.coreless.get()) {
    if (s.session != nullptr) {
      const uint64_t dropped = s.session->dropped();
      if (dropped > 0)
        std::fprintf(stderr, "rocprofv3 [cuda]: CUPTI dropped %llu records\n",
                     static_cast<unsigned long long>(dropped));
    }
    s.coreless->finish(s.status);
  }
}

}  // namespace rocprof::cuda

namespace {

// Whether the core in this process has initialised its tools, or is doing so on this thread
// (a tool's initialisation initialised CUDA): either way they do not start inside cuInit.
bool core_tools_initialised() {
  using is_initialized_fn = int (*)(int*);
  auto is_initialized =
      reinterpret_cast<is_initialized_fn>(dlsym(RTLD_DEFAULT, "rocprofiler_is_initialized"));
  int status = 1;
  if (is_initialized == nullptr || is_initialized(&status) != 0) return true;
  return status != 0;
}

// Registers this plugin with the core without initialising its tools (rocprof_backend_attach);
// false with a core that cannot.
bool attach_to_core() {
  using attach_fn = int (*)(const char*);
  auto attach = reinterpret_cast<attach_fn>(dlsym(RTLD_DEFAULT, "rocprof_backend_attach"));
  return attach != nullptr && attach("cuda") == 0 && rocprof::cuda::core_sink() != nullptr;
}

void initialize_injection() {
  using namespace rocprof::cuda;
  g_injection_called.store(true);
  note_injection_requested();
  if (backend_sink* core = core_sink()) {
    // The core registered us earlier and its start waited for this call (injection_pending).
    start_backend(core, "profiler core, CUDA_INJECTION64_PATH", false);
    register_exit_flush();
    return;
  }
  // A core in the process (the tool library preloaded by the CLI) loads and starts us through
  // the plugin ABI; this copy of the plugin is the same mapping, so core_sink() is then set.
  using request_fn = int (*)(const char*);
  if (auto request = reinterpret_cast<request_fn>(dlsym(RTLD_DEFAULT, "rocprof_backend_request"))) {
    if (!core_tools_initialised() && attach_to_core()) {
      // Its tools are initialised at the first CUDA call after cuInit, never inside it.
      defer_core_tools([request] { request("cuda"); });
      start_backend(core_sink(), "profiler core, CUDA_INJECTION64_PATH, tools after cuInit", false);
      return;
    }
    request("cuda");
  }
  start_backend(
      core_sink(),
      core_sink() != nullptr ? "profiler core, CUDA_INJECTION64_PATH" : "CUDA_INJECTION64_PATH",
      false);
}

}  // namespace

// Called by the CUDA driver (CUDA_INJECTION64_PATH) during cuInit. Returns 1 as the driver
// expects: CUDA keeps working whatever happens here.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  rocprof::c_boundary::guarded_call(__func__, initialize_injection);
  return 1;
}
