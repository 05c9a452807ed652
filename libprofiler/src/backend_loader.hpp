// Backend plugins (backend_abi.h): the kind -> backend map built from their manifests, loading
// and registering them, and fan-out of start/stop/flush/shutdown. Where they are and which
// files are backends: backend_scan.hpp. What they get from the core: backend_services.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocprofiler-sdk/backend/backend_abi.h"

namespace rocprof::core {

/// Loads and registers backend `name` of the backend directory once; later calls return the
/// first outcome. A failure warns once.
rocprofiler_status_t load_backend(const char* name);
/// The name of the backend whose manifest lists a kind; nullptr for kinds the core records
/// itself (markers, code objects) and kinds no backend lists. Asked for a kind no manifest read
/// so far lists, it first reads the manifests of the backend directory (once).
const char* backend_for_buffer_kind(rocprofiler_buffer_tracing_kind_t kind);
const char* backend_for_callback_kind(rocprofiler_callback_tracing_kind_t kind);

/// Registers every backend whose manifest says it serves counters (reading the manifests of
/// the backend directory first, once). Returns how many such backends are registered.
size_t load_counter_backends();
/// The ABI tables of the registered backends that list counters (list_counters set).
std::vector<rocprof_backend_t> counter_backends();

/// Registers the counter backends and asks each for the agents it sees now (it may initialise
/// its driver); returns how many agents they registered.
uint64_t discover_counter_agents();

/// What rocprof_backend_discover_agents reports of one backend file.
struct discovered_backend {
  std::string name, path;
  bool loaded = false;
  uint64_t agents = 0;
  std::string why;
};
/// Registers every backend of `directory` (quietly) and asks each for its agents.
std::vector<discovered_backend> discover_backend_agents(const std::string& directory);

/// The enabled-kind set changed: start (or stop, when empty) every registered backend.
void notify_backends(const rocprof_enabled_kinds_t& kinds);
void flush_backends();
/// The PC sampling configurations the backend owning `agent` offers (empty: none can sample).
std::vector<rocprofiler_pc_sampling_configuration_t> backend_pc_sampling_configurations(
    rocprofiler_agent_id_t agent);
/// What the sampler of `agent` lost; false when no backend samples it.
bool backend_pc_sampling_loss(rocprofiler_agent_id_t agent, rocprofiler_pc_sampling_loss_t& loss);
// Every backend's sampled-PC instruction texts, through `cb`.
void backend_pc_sampling_instructions(rocprofiler_pc_sampling_instruction_cb_t cb, void* user_data);
void shutdown_backends();
/// Operation names and counts of backend-owned kinds (CUDA API ids).
const char* backend_operation_name(bool is_buffer_kind, uint32_t kind,
                                   rocprofiler_tracing_operation_t op);
int32_t backend_operation_count(bool is_buffer_kind, uint32_t kind);
/// The arguments of one call of a backend-owned kind, through the owning backend's
/// iterate_args (rocprof_backend_t). KIND_NOT_FOUND when no registered backend shows them.
rocprofiler_status_t backend_iterate_args(bool is_buffer_kind, uint32_t kind,
                                          rocprofiler_tracing_operation_t op, const void* params,
                                          uint64_t params_size, int32_t max_dereference_count,
                                          rocprof_backend_arg_cb_t callback, void* data);
/// Prints "rocprofiler: <message>" once per key.
void warn_once(const char* key, const char* message);

/// The services table every backend is registered with (backend_services.cpp).
const rocprof_core_services_t& core_services();

// For every backend of the backend directory whose manifest names an injection variable
// (CUDA_INJECTION64_PATH): sets it to the backend's file unless it is set already. Run by the
// library constructor of a core preloaded without ROCPROFILER_LIBRARY_CTOR (registration.cpp).
void export_injection_paths();

}  // namespace rocprof::core
