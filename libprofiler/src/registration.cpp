// Finding tools (rocprofiler_configure), initialising them, locking the configuration, and
// finalising at exit.
#include "registration.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backend_loader.hpp"
#include "buffer.hpp"
#include "callback_thread.hpp"
#include "context.hpp"
#include "counters/device_sampling.hpp"
#include "fork_guard.hpp"
#include "guarded.hpp"
#include "rocprofiler-sdk/registration.h"

namespace rocprof::core {
namespace {

struct tool_entry {
  rocprofiler_client_id_t client{};
  rocprofiler_tool_configure_result_t* result = nullptr;
  bool finalized = false;
};

std::atomic<int> g_init_state{0};  // 0 not yet, -1 in progress, 1 done
std::atomic<int> g_fini_state{0};  // 0 not yet, -1 in progress, 1 done
std::atomic<uint64_t> g_initializer_tid{0};
std::atomic<uint32_t> g_current_tool{0};
std::mutex g_init_mutex;
std::mutex g_tools_mutex;
// Function-local so that the library constructor may run before other initialisers; leaked
// because finalisation runs at exit.
std::vector<tool_entry*>& tools_list() {
  static auto* tools = new std::vector<tool_entry*>();
  return *tools;
}

uint64_t self_tid() {
  return static_cast<uint64_t>(syscall(SYS_gettid));
}

using configure_fn = rocprofiler_configure_func_t;

void add_unique(std::vector<configure_fn>& fns, void* symbol) {
  if (symbol == nullptr) return;
  auto fn = reinterpret_cast<configure_fn>(symbol);
  if (std::find(fns.begin(), fns.end(), fn) == fns.end()) fns.push_back(fn);
}

// ROCP_TOOL_LIBRARIES: ':'-separated paths. (rocprofiler-sdk drops the last entry of a list;
// we take every entry.)
void from_tool_libraries(std::vector<configure_fn>& fns) {
  const char* env = std::getenv("ROCP_TOOL_LIBRARIES");
  if (env == nullptr) return;
  std::string list(env);
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    const std::string path = list.substr(start, end - start);
    start = end + 1;
    if (path.empty()) continue;
    void* handle = dlopen(path.c_str(), RTLD_NOLOAD | RTLD_LAZY);
    if (handle == nullptr) handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (handle == nullptr) {
      std::fprintf(stderr, "rocprofiler: cannot load tool library %s: %s\n", path.c_str(),
                   dlerror());
      continue;
    }
    add_unique(fns, dlsym(handle, "rocprofiler_configure"));
  }
}

int scan_object(dl_phdr_info* info, size_t, void* data) {
  auto& fns = *static_cast<std::vector<configure_fn>*>(data);
  if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') return 0;
  void* handle = dlopen(info->dlpi_name, RTLD_NOLOAD | RTLD_LAZY);
  if (handle == nullptr) return 0;
  void* symbol = dlsym(handle, "rocprofiler_configure");
  Dl_info where{};
  // dlsym on a handle also searches its dependencies: keep only this object's own definition.
  if (symbol != nullptr && dladdr(symbol, &where) != 0 && where.dli_fname != nullptr &&
      std::strcmp(where.dli_fname, info->dlpi_name) == 0)
    add_unique(fns, symbol);
  dlclose(handle);
  return 0;
}

std::vector<configure_fn> discover_tools(configure_fn forced) {
  std::vector<configure_fn> fns;
  if (forced != nullptr) fns.push_back(forced);
  from_tool_libraries(fns);
  add_unique(fns, dlsym(RTLD_DEFAULT, "rocprofiler_configure"));
  add_unique(fns, dlsym(RTLD_NEXT, "rocprofiler_configure"));
  dl_iterate_phdr(scan_object, &fns);
  return fns;
}

// A tool's entry points are C functions too: whatever one throws stays here.
// rocprofiler-sdk stops a tool's contexts before calling its finalize (AMD's PC sampling sample
// asserts that its context is inactive there): collection has ended when a tool's fini runs.
void finalize_tool(tool_entry& tool) {
  if (tool.finalized || tool.result == nullptr) return;
  tool.finalized = true;
  stop_tool_contexts(tool.client.handle - 1);  // contexts know their tool by its index
  if (tool.result->finalize != nullptr)
    guarded_call("a tool's finalize", [&] { tool.result->finalize(tool.result->tool_data); });
}

void client_finalize(rocprofiler_client_id_t client) {
  std::lock_guard<std::mutex> lock(g_tools_mutex);
  for (tool_entry* tool : tools_list())
    if (tool->client.handle == client.handle) finalize_tool(*tool);
}

void finalize_core_once() {
  int expected = 0;
  if (g_init_state.load() != 1 || !g_fini_state.compare_exchange_strong(expected, -1)) return;
  g_core_ready.store(0, std::memory_order_release);
  flush_backends();
  counters::drain_all_device_sampling();  // SPM samples still in the hardware's buffer
  // Collection ends before any tool's finalize (see finalize_tool); what stopping released
  // (PC samples a backend hands over when sampling is disabled) is flushed with the rest.
  stop_all_contexts();
  flush_backends();
  const uint32_t nbuf = g_num_buffers.load();
  for (uint32_t i = 0; i < nbuf; ++i)
    if (!g_buffers[i]->destroyed.load()) flush_buffer(g_buffers[i]);
  {
    std::lock_guard<std::mutex> lock(g_tools_mutex);
    for (auto it = tools_list().rbegin(); it != tools_list().rend(); ++it)
      finalize_tool(**it);
  }
  stop_callback_threads();
  shutdown_backends();
  g_fini_state.store(1);
}

// Runs at exit: nothing may escape into the C library's exit handling.
void finalize_core() {
  guarded_call("rocprofiler finalization", finalize_core_once);
}

void configure_tools(configure_fn forced) {
  const std::vector<configure_fn> fns = discover_tools(forced);
  // Tools keep the client id pointer they are given, so each lives at a stable address.
  std::vector<tool_entry*> tools;
  for (configure_fn fn : fns) {
    auto* tool = new tool_entry();
    tool->client.size = sizeof(tool->client);
    tool->client.handle = static_cast<uint32_t>(tools.size() + 1);
    tool->result = guarded_or("a tool's rocprofiler_configure",
                              static_cast<rocprofiler_tool_configure_result_t*>(nullptr), [&] {
                                return fn(ROCPROFILER_VERSION, "1.0.0",
                                          static_cast<uint32_t>(tools.size()), &tool->client);
                              });
    if (tool->result != nullptr) {
      tools.push_back(tool);
    } else {
      delete tool;
    }
  }
  {
    std::lock_guard<std::mutex> lock(g_tools_mutex);
    tools_list() = tools;
  }
  for (size_t i = 0; i < tools.size(); ++i) {
    g_current_tool.store(static_cast<uint32_t>(i));
    rocprofiler_tool_configure_result_t* result = tools[i]->result;
    if (result->initialize == nullptr) continue;
    const int status = guarded_or("a tool's initialize", -1, [&] {
      return result->initialize(client_finalize, result->tool_data);
    });
    if (status != 0) {
      invalidate_tool_contexts(static_cast<uint32_t>(i));
      std::lock_guard<std::mutex> lock(g_tools_mutex);
      tools[i]->finalized = true;  // a failed tool is not finalised
    }
  }
}

void initialize(configure_fn forced) {
  g_initializer_tid.store(self_tid());
  g_init_state.store(-1);
  // Whatever fails while finding or configuring tools (memory), the core ends up initialised
  // with the tools configured so far, so that no later call waits for an initialisation that
  // never ends.
  guarded_call("rocprofiler initialization", [&] { configure_tools(forced); });
  g_initializer_tid.store(0);
  g_init_state.store(1);
  g_core_ready.store(1, std::memory_order_release);
  std::atexit(finalize_core);
}

bool run_initialization(configure_fn forced) {
  if (g_init_state.load(std::memory_order_acquire) == 1) return true;
  if (g_initializer_tid.load() == self_tid()) return false;  // re-entered from a tool
  std::lock_guard<std::mutex> lock(g_init_mutex);
  if (g_init_state.load() == 0) initialize(forced);
  return true;
}

// ROCPROFILER_LIBRARY_CTOR=1: initialise while the library loads instead of on first use.
// The registration locks are held across fork() (fork_guard.hpp): finalization takes them.
__attribute__((constructor)) void initialize_from_constructor() {
  guard_across_fork(g_init_mutex);
  guard_across_fork(g_tools_mutex);
  const char* env = std::getenv("ROCPROFILER_LIBRARY_CTOR");
  if (env != nullptr && (std::strcmp(env, "1") == 0 || std::strcmp(env, "true") == 0)) {
    run_initialization(nullptr);
    return;
  }
  // Otherwise (a tool preloaded alone) the tools start when a vendor runtime starts, as AMD's
  // start with HSA: the runtimes that load backends themselves are told where ours are. With
  // ROCPROFILER_LIBRARY_CTOR (the CLI sets it, and names the runtimes' variables it wants) the
  // tools are running already and the backends start with them.
  guarded_call("backend injection paths", [] { export_injection_paths(); });
}

}  // namespace

bool ensure_initialized_slow() {
  return run_initialization(nullptr) && g_init_state.load() == 1 && g_fini_state.load() == 0;
}

bool configuration_open() {
  return g_init_state.load() == -1 && g_initializer_tid.load() == self_tid();
}

uint32_t current_tool() {
  return g_current_tool.load();
}

// Taken by context start/stop (application threads' pause/resume, the collection-period
// thread) and at finalization: held across fork() (fork_guard.hpp).
std::atomic<std::recursive_mutex*> g_config_mutex{nullptr};
const char* current_tool_name() {
  if (!configuration_open()) return "";
  std::lock_guard<std::mutex> lock(g_tools_mutex);
  const uint32_t i = g_current_tool.load();
  if (i >= tools_list().size() || tools_list()[i]->client.name == nullptr) return "";
  return tools_list()[i]->client.name;
}

std::recursive_mutex& config_mutex() {
  return lazily_made(g_config_mutex, [](std::recursive_mutex& m) { guard_across_fork(m); });
}

bool finalizing() {
  return g_fini_state.load(std::memory_order_relaxed) != 0;
}

}  // namespace rocprof::core

extern "C" {

using rocprof::core::guarded;

ROCPROFILER_API rocprofiler_status_t
rocprofiler_force_configure(rocprofiler_configure_func_t configure_func) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    if (g_init_state.load() != 0) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    std::lock_guard<std::mutex> lock(g_init_mutex);
    if (g_init_state.load() != 0) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    initialize(configure_func);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_is_initialized(int* status) {
  return guarded(__func__, [&] {
    *status = rocprof::core::g_init_state.load();
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_is_finalized(int* status) {
  return guarded(__func__, [&] {
    *status = rocprof::core::g_fini_state.load();
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
