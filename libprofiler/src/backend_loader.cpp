#include "backend_loader.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "backend_scan.hpp"
#include "context.hpp"
#include "dispatch.hpp"
#include "fork_guard.hpp"
#include "guarded.hpp"
#include "registration.hpp"
#include "rocprofiler-sdk/rocprofiler.h"

namespace rocprof::core {
namespace {

// One backend file, from the moment its name is first heard of. Never freed: a late callback
// may still reach a backend after shutdown.
struct backend {
  std::string name, path;
  bool opened = false;  // dlopen tried; handle set when it worked
  void* handle = nullptr;
  const rocprof_backend_manifest_t* manifest = nullptr;
  bool attempted = false;  // registration tried; outcome says how it went
  rocprofiler_status_t outcome = ROCPROFILER_STATUS_ERROR_BACKEND_NOT_LOADED;
  std::string why;
  rocprof_backend_t api{};
  bool started = false;
};

struct registry {
  std::mutex mutex;
  std::vector<backend*> known;       // every backend heard of, in that order
  std::vector<backend*> registered;  // those whose registration succeeded
  backend* buffer_owner[ROCPROFILER_BUFFER_TRACING_LAST] = {};
  backend* callback_owner[ROCPROFILER_CALLBACK_TRACING_LAST] = {};
  bool scanned = false;  // the manifests of the backend directory were read
};

// Made without a lock, its lock held across fork() (fork_guard.hpp).
std::atomic<registry*> g_registry{nullptr};

registry& backends() {
  return lazily_made(g_registry, [](registry& r) { guard_across_fork(r.mutex); });
}

// Per kind, the registered backend that shows its calls' arguments (set once at registration,
// never cleared; the backend objects are never freed). Read without the registry's lock: a
// buffer callback that decodes arguments must not wait for a thread that holds the lock while
// it waits for that callback to free buffer space (a backend flushing under LOSSLESS).
std::atomic<const rocprof_backend_t*> g_buffer_args[ROCPROFILER_BUFFER_TRACING_LAST] = {};
std::atomic<const rocprof_backend_t*> g_callback_args[ROCPROFILER_CALLBACK_TRACING_LAST] = {};

template <size_t N>
void publish_args(std::atomic<const rocprof_backend_t*> (&slots)[N], backend* (&owner)[N],
                  const backend& b) {
  for (size_t kind = 0; kind < N; ++kind)
    if (owner[kind] == &b) slots[kind].store(&b.api, std::memory_order_release);
}

// Kinds the core records itself (the host backend's markers; the code-object service, which
// backends report into): configuring them never sends the core looking for a backend.
bool core_records_buffer_kind(rocprofiler_buffer_tracing_kind_t kind) {
  switch (kind) {
    case ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API:
    case ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API:
    case ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API:
    case ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API:
      return true;
    default:
      return false;
  }
}

bool core_records_callback_kind(rocprofiler_callback_tracing_kind_t kind) {
  switch (kind) {
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API:
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API:
    case ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API:
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API:
    case ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT:
      return true;
    default:
      return false;
  }
}

void report_unavailable(const backend& b) {
  const std::string message =
      "backend '" + b.name + "' is not available, its domains will not be traced (" + b.why + ")";
  warn_once(("backend:" + b.name).c_str(), message.c_str());
}

backend& entry(registry& r, const std::string& name, const std::string& path) {
  for (backend* b : r.known) {
    if (b->name == name) return *b;
  }
  auto* b = new backend();
  b->name = name;
  b->path = path;
  r.known.push_back(b);
  return *b;
}

// The first backend to list a kind owns it.
template <typename Kind, size_t N>
void claim(backend* (&owner)[N], const Kind* kinds, uint64_t count, backend& b) {
  for (uint64_t i = 0; kinds != nullptr && i < count; ++i) {
    const auto kind = static_cast<size_t>(kinds[i]);
    if (kind > 0 && kind < N && owner[kind] == nullptr) owner[kind] = &b;
  }
}

// dlopen and read the manifest (once). A manifest of another ABI is ignored: registration
// then says why.
bool open_backend(registry& r, backend& b, bool quiet) {
  if (b.opened) return b.handle != nullptr;
  b.opened = true;
  b.handle = dlopen(b.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (b.handle == nullptr) {
    const char* error = dlerror();
    b.why = error != nullptr ? error : "dlopen failed";
    if (!quiet) report_unavailable(b);
    return false;
  }
  const auto* m = static_cast<const rocprof_backend_manifest_t*>(
      dlsym(b.handle, ROCPROF_BACKEND_MANIFEST_SYMBOL));
  if (m != nullptr && m->size >= offsetof(rocprof_backend_manifest_t, injection_env) &&
      m->abi_version == ROCPROF_BACKEND_ABI_VERSION) {
    b.manifest = m;
    claim(r.buffer_owner, m->buffer_kinds, m->buffer_kinds_count, b);
    claim(r.callback_owner, m->callback_kinds, m->callback_kinds_count, b);
  }
  return true;
}

rocprofiler_status_t register_backend(registry& r, backend& b, bool quiet) {
  if (b.attempted) return b.outcome;
  b.attempted = true;
  if (!open_backend(r, b, quiet)) return b.outcome;
  const auto reg =
      reinterpret_cast<rocprof_backend_register_fn_t>(dlsym(b.handle, "rocprof_backend_register"));
  if (reg == nullptr) {
    b.why = "no rocprof_backend_register in " + b.path;
  } else {
    b.api.size = sizeof(b.api);
    const rocprofiler_status_t rc = reg(&core_services(), &b.api);
    if (rc == ROCPROFILER_STATUS_SUCCESS) {
      b.outcome = ROCPROFILER_STATUS_SUCCESS;
      r.registered.push_back(&b);
      // Appended to the ABI table: only a backend that knows the member has it.
      constexpr size_t args_end =
          offsetof(rocprof_backend_t, iterate_args) + sizeof(rocprof_backend_t::iterate_args);
      if (b.api.size >= args_end && b.api.iterate_args != nullptr) {
        publish_args(g_buffer_args, r.buffer_owner, b);
        publish_args(g_callback_args, r.callback_owner, b);
      }
      return b.outcome;
    }
    b.why = std::string("its registration failed: ") + rocprofiler_get_status_string(rc);
  }
  if (!quiet) report_unavailable(b);
  return b.outcome;
}

// Reads the manifests of the backend directory, once.
void scan_backend_directory(registry& r) {
  if (r.scanned) return;
  r.scanned = true;
  for (const backend_file& file : find_backend_files(backend_directory()))
    open_backend(r, entry(r, file.name, file.path), false);
}

template <typename Kind, size_t N>
const char* owner_name(registry& r, backend* (&owner)[N], Kind kind) {
  const auto index = static_cast<size_t>(kind);
  if (index == 0 || index >= N) return nullptr;
  std::lock_guard<std::mutex> lock(r.mutex);
  if (owner[index] == nullptr) scan_backend_directory(r);
  return owner[index] != nullptr ? owner[index]->name.c_str() : nullptr;
}

}  // namespace

void warn_once(const char* key, const char* message) {
  static std::mutex m;
  static auto* seen = new std::set<std::string>();
  std::lock_guard<std::mutex> lock(m);
  if (key == nullptr || message == nullptr || !seen->insert(key).second) return;
  std::fprintf(stderr, "rocprofiler: %s\n", message);
}

rocprofiler_status_t load_backend(const char* name) {
  if (name == nullptr || name[0] == '\0') return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  registry& r = backends();
  std::lock_guard<std::mutex> lock(r.mutex);
  return register_backend(r, entry(r, name, backend_path(backend_directory(), name)), false);
}

void export_injection_paths() {
  // A scan of its own: the registry's is left to the first use (tests point
  // ROCPROF_BACKEND_DIR elsewhere after the library loaded). Only the manifest is read; the
  // file is closed again (nothing of it runs).
  constexpr size_t env_end = offsetof(rocprof_backend_manifest_t, injection_env) + sizeof(char*);
  for (const backend_file& file : find_backend_files(backend_directory())) {
    void* handle = dlopen(file.path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (handle == nullptr) continue;
    const auto* m = static_cast<const rocprof_backend_manifest_t*>(
        dlsym(handle, ROCPROF_BACKEND_MANIFEST_SYMBOL));
    if (m != nullptr && m->size >= env_end && m->abi_version == ROCPROF_BACKEND_ABI_VERSION &&
        m->injection_env != nullptr && m->injection_env[0] != '\0')
      setenv(m->injection_env, file.path.c_str(), 0);  // never over the user's (an empty one too)
    dlclose(handle);
  }
}

const char* backend_for_buffer_kind(rocprofiler_buffer_tracing_kind_t kind) {
  if (core_records_buffer_kind(kind)) return nullptr;
  return owner_name(backends(), backends().buffer_owner, kind);
}

const char* backend_for_callback_kind(rocprofiler_callback_tracing_kind_t kind) {
  if (core_records_callback_kind(kind)) return nullptr;
  return owner_name(backends(), backends().callback_owner, kind);
}

size_t load_counter_backends() {
  registry& r = backends();
  std::lock_guard<std::mutex> lock(r.mutex);
  scan_backend_directory(r);
  size_t registered = 0;
  for (backend* b : r.known) {
    if (b->manifest == nullptr || b->manifest->counters == 0) continue;
    if (register_backend(r, *b, false) == ROCPROFILER_STATUS_SUCCESS) ++registered;
  }
  return registered;
}

std::vector<rocprof_backend_t> counter_backends() {
  registry& r = backends();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<rocprof_backend_t> out;
  for (backend* b : r.registered)
    if (b->api.list_counters != nullptr) out.push_back(b->api);
  return out;
}

uint64_t discover_counter_agents() {
  load_counter_backends();
  uint64_t agents = 0;
  for (const rocprof_backend_t& api : counter_backends()) {
    const char* why = nullptr;
    if (api.discover_agents != nullptr) agents += api.discover_agents(api.backend_data, &why);
  }
  return agents;
}

std::vector<discovered_backend> discover_backend_agents(const std::string& directory) {
  std::vector<discovered_backend> found;
  registry& r = backends();
  for (const backend_file& file : find_backend_files(directory)) {
    discovered_backend d;
    d.name = file.name;
    d.path = file.path;
    rocprof_backend_t api{};
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      backend& b = entry(r, file.name, file.path);
      d.loaded = register_backend(r, b, true) == ROCPROFILER_STATUS_SUCCESS;
      d.why = b.why;
      api = b.api;
    }
    // Outside the lock: the backend registers its agents through the core's services.
    if (d.loaded && api.discover_agents == nullptr) {
      d.why = "it cannot list agents";
    } else if (d.loaded) {
      const char* why = nullptr;
      d.agents = api.discover_agents(api.backend_data, &why);
      if (d.agents == 0) d.why = why != nullptr ? why : "no agent";
    }
    found.push_back(std::move(d));
  }
  return found;
}

void notify_backends(const rocprof_enabled_kinds_t& kinds) {
  bool any = kinds.counters != 0 || kinds.pc_sampling_count != 0;
  for (size_t w = 0; w < ROCPROF_BACKEND_KIND_WORDS; ++w)
    any = any || kinds.buffer_kinds[w] != 0 || kinds.callback_kinds[w] != 0;
  std::lock_guard<std::mutex> lock(backends().mutex);
  for (backend* b : backends().registered) {
    if (any && b->api.start != nullptr) {
      b->api.start(b->api.backend_data, &kinds);
      b->started = true;
    } else if (!any && b->started) {
      if (b->api.stop != nullptr) b->api.stop(b->api.backend_data);
      b->started = false;
    }
  }
}

std::vector<rocprofiler_pc_sampling_configuration_t> backend_pc_sampling_configurations(
    rocprofiler_agent_id_t agent) {
  std::vector<rocprofiler_pc_sampling_configuration_t> configs;
  std::vector<rocprof_backend_t> apis;
  {
    std::lock_guard<std::mutex> lock(backends().mutex);
    for (backend* b : backends().registered)
      apis.push_back(b->api);
  }
  // Outside the lock: a backend may ask its driver, which may call back into the core.
  for (const rocprof_backend_t& api : apis) {
    if (api.size < sizeof(rocprof_backend_t) || api.pc_sampling_configurations == nullptr) continue;
    const uint64_t n = api.pc_sampling_configurations(api.backend_data, agent, nullptr, 0);
    if (n == 0) continue;
    configs.resize(n);
    const uint64_t got = api.pc_sampling_configurations(api.backend_data, agent, configs.data(), n);
    configs.resize(got < n ? got : n);
    return configs;
  }
  return configs;
}

bool backend_pc_sampling_loss(rocprofiler_agent_id_t agent, rocprofiler_pc_sampling_loss_t& loss) {
  std::lock_guard<std::mutex> lock(backends().mutex);
  for (backend* b : backends().registered) {
    if (b->api.size < sizeof(rocprof_backend_t) || b->api.pc_sampling_loss == nullptr) continue;
    if (b->api.pc_sampling_loss(b->api.backend_data, agent, &loss) != 0) return true;
  }
  return false;
}

void backend_pc_sampling_instructions(rocprofiler_pc_sampling_instruction_cb_t cb,
                                      void* user_data) {
  std::lock_guard<std::mutex> lock(backends().mutex);
  for (backend* b : backends().registered)
    if (b->api.size >= sizeof(rocprof_backend_t) && b->api.pc_sampling_instructions != nullptr)
      b->api.pc_sampling_instructions(b->api.backend_data, cb, user_data);
}

void flush_backends() {
  std::lock_guard<std::mutex> lock(backends().mutex);
  for (backend* b : backends().registered)
    if (b->api.flush != nullptr) b->api.flush(b->api.backend_data);
}

void shutdown_backends() {
  std::lock_guard<std::mutex> lock(backends().mutex);
  for (backend* b : backends().registered) {
    if (b->started && b->api.stop != nullptr) b->api.stop(b->api.backend_data);
    b->started = false;
    if (b->api.shutdown != nullptr) b->api.shutdown(b->api.backend_data);
  }
  backends().registered.clear();  // the objects are leaked: a late callback may still read them
}

const char* backend_operation_name(bool is_buffer_kind, uint32_t kind,
                                   rocprofiler_tracing_operation_t op) {
  std::lock_guard<std::mutex> lock(backends().mutex);
  for (backend* b : backends().registered) {
    if (b->api.operation_name == nullptr) continue;
    if (const char* name =
            b->api.operation_name(b->api.backend_data, is_buffer_kind ? 1 : 0, kind, op))
      return name;
  }
  return nullptr;
}

int32_t backend_operation_count(bool is_buffer_kind, uint32_t kind) {
  std::lock_guard<std::mutex> lock(backends().mutex);
  for (backend* b : backends().registered) {
    if (b->api.operation_count == nullptr) continue;
    const int32_t n = b->api.operation_count(b->api.backend_data, is_buffer_kind ? 1 : 0, kind);
    if (n > 0) return n;
  }
  return 0;
}

rocprofiler_status_t backend_iterate_args(bool is_buffer_kind, uint32_t kind,
                                          rocprofiler_tracing_operation_t op, const void* params,
                                          uint64_t params_size, int32_t max_dereference_count,
                                          rocprof_backend_arg_cb_t callback, void* data) {
  const rocprof_backend_t* api = nullptr;
  if (is_buffer_kind && kind < ROCPROFILER_BUFFER_TRACING_LAST)
    api = g_buffer_args[kind].load(std::memory_order_acquire);
  if (!is_buffer_kind && kind < ROCPROFILER_CALLBACK_TRACING_LAST)
    api = g_callback_args[kind].load(std::memory_order_acquire);
  if (api == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  return api->iterate_args(api->backend_data, is_buffer_kind ? 1 : 0, kind, op, params, params_size,
                           max_dereference_count, callback, data);
}

}  // namespace rocprof::core

extern "C" ROCPROFILER_API rocprofiler_status_t rocprof_backend_request(const char* name) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    ensure_initialized();
    const rocprofiler_status_t status = load_backend(name);
    if (status == ROCPROFILER_STATUS_SUCCESS) contexts_changed();  // start it if kinds are on
    return status;
  });
}

extern "C" ROCPROFILER_API rocprofiler_status_t rocprof_backend_attach(const char* name) {
  using namespace rocprof::core;
  return guarded(__func__, [&] { return load_backend(name); });
}
