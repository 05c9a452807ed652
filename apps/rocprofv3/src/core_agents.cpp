#include "core_agents.hpp"

#include <dlfcn.h>
#include <rocprofiler-sdk/backend/backend_abi.h>
#include <stdlib.h>

#include "rocprof/config/domains.hpp"
#include "tool_paths.hpp"

namespace rocprof::cli {
namespace {

using discover_fn = decltype(&rocprof_backend_discover_agents);
using query_fn = decltype(&rocprofiler_query_available_agents);
using pc_query_fn = decltype(&rocprofiler_query_pc_sampling_agent_configurations);

// The agent's PC sampling configurations. The core answers only with the beta opt-in, which
// listing and checking imply (rocprofv3 sets it for --list-avail): set for the query only.
std::vector<rocprofiler_pc_sampling_configuration_t> pc_configurations(
    pc_query_fn query, rocprofiler_agent_id_t agent) {
  std::vector<rocprofiler_pc_sampling_configuration_t> out;
  if (query == nullptr) return out;
  const char* beta = "ROCPROFILER_PC_SAMPLING_BETA_ENABLED";
  const bool was_set = std::getenv(beta) != nullptr;
  if (!was_set) setenv(beta, "1", 1);
  query(
      agent,
      [](const rocprofiler_pc_sampling_configuration_t* configs, size_t n, void* data) {
        static_cast<std::vector<rocprofiler_pc_sampling_configuration_t>*>(data)->assign(
            configs, configs + n);
        return ROCPROFILER_STATUS_SUCCESS;
      },
      &out);
  if (!was_set) unsetenv(beta);
  return out;
}

std::string label_of(const std::string& name) {
  const config::backend_spec* backend = config::find_backend(name);
  return backend != nullptr ? std::string(backend->label) : name;
}

// Why the backends the discovery reported have no agent, in the words --list-avail always used.
void collect_reasons(const rocprof_backend_discovery_t& found, std::vector<std::string>& why) {
  if (found.name == nullptr) {
    // No backend at all: say which file each backend this build knows would have been.
    for (const auto& backend : config::backends()) {
      why.push_back("the " + std::string(backend.label) + " backend is not part of this build (" +
                    found.directory + "/" ROCPROF_BACKEND_FILE_PREFIX + std::string(backend.name) +
                    ROCPROF_BACKEND_FILE_SUFFIX " not found)");
    }
    return;
  }
  if (found.agents > 0) return;
  const std::string reason = found.why != nullptr ? found.why : "no device";
  const std::string label = label_of(found.name);
  why.push_back(found.loaded != 0 ? label + " backend: " + reason
                                  : "cannot load the " + label + " backend: " + reason);
}

}  // namespace

gpu_agent_list query_gpu_agents(const std::string& core_library,
                                const std::string& backend_directory) {
  gpu_agent_list list;
  if (!is_file(core_library)) {
    list.why_none.push_back("the profiler core is not part of this build (" + core_library +
                            " not found)");
    return list;
  }
  // Kept open: the agents' strings live in the core, and backends may have started driver
  // threads; the process ends soon anyway.
  void* core = dlopen(core_library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (core == nullptr) {
    const char* error = dlerror();
    list.why_none.push_back("cannot load the profiler core: " +
                            std::string(error != nullptr ? error : core_library));
    return list;
  }
  auto discover = reinterpret_cast<discover_fn>(dlsym(core, "rocprof_backend_discover_agents"));
  auto query = reinterpret_cast<query_fn>(dlsym(core, "rocprofiler_query_available_agents"));
  if (discover == nullptr || query == nullptr) {
    list.why_none.push_back("the profiler core at " + core_library + " cannot list agents");
    return list;
  }
  std::vector<std::string> why;
  discover(
      backend_directory.c_str(),
      [](const rocprof_backend_discovery_t* found, void* data) {
        collect_reasons(*found, *static_cast<std::vector<std::string>*>(data));
      },
      &why);
  query(
      ROCPROFILER_AGENT_INFO_VERSION_0,
      [](rocprofiler_agent_version_t, const void** agents, size_t count, void* data) {
        auto& gpus = *static_cast<std::vector<rocprofiler_agent_v0_t>*>(data);
        for (size_t i = 0; i < count; ++i) {
          const auto* agent = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
          if (agent->type == ROCPROFILER_AGENT_TYPE_GPU) gpus.push_back(*agent);
        }
        return ROCPROFILER_STATUS_SUCCESS;
      },
      sizeof(rocprofiler_agent_v0_t), &list.gpus);
  if (list.gpus.empty()) list.why_none = std::move(why);
  auto pc_query = reinterpret_cast<pc_query_fn>(
      dlsym(core, "rocprofiler_query_pc_sampling_agent_configurations"));
  for (const auto& gpu : list.gpus)
    list.pc_sampling.push_back(pc_configurations(pc_query, gpu.id));
  return list;
}

namespace {

using listing_fn = const char* (*)(const char*, int);
using passes_fn = uint64_t (*)(const char*, const char* const*, uint64_t, char*, uint64_t);
using source_fn = const char* (*)();

class plugin_counters final : public counter_backend {
 public:
  plugin_counters(listing_fn listing, passes_fn passes, source_fn source_of)
      : listing_(listing), passes_(passes), source_(source_of) {}

  native_listing list(const std::string& chip) override {
    const char* text = listing_(chip.c_str(), 0);  // 0: the range profiler (per-kernel values)
    return parse_native_listing(text != nullptr ? text : "");
  }

  size_t count_passes(const std::string& chip, const std::vector<std::string>& names,
                      std::string& why) override {
    std::vector<const char*> pointers;
    for (const auto& name : names)
      pointers.push_back(name.c_str());
    char error[1024] = {};
    const uint64_t passes =
        passes_(chip.c_str(), pointers.data(), pointers.size(), error, sizeof(error));
    if (passes == 0) why = error[0] != 0 ? error : "refused without a reason";
    return static_cast<size_t>(passes);
  }

  std::string source() override {
    const char* text = source_ != nullptr ? source_() : nullptr;
    return text != nullptr ? text : "";
  }

 private:
  listing_fn listing_;
  passes_fn passes_;
  source_fn source_;  // optional
};

}  // namespace

std::unique_ptr<counter_backend> open_backend_counters(const config::backend_spec& backend,
                                                       const std::string& plugin_path,
                                                       std::string& why) {
  const std::string label(backend.label);
  if (backend.counter_listing_entry.empty() || backend.pass_count_entry.empty()) {
    why = "the " + label + " backend offers no counters";
    return nullptr;
  }
  if (!is_file(plugin_path)) {
    why = "the " + label + " backend is not part of this build (" + plugin_path + " not found)";
    return nullptr;
  }
  void* plugin = dlopen(plugin_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (plugin == nullptr) {
    const char* error = dlerror();
    why = "cannot load the " + label + " backend: " + (error != nullptr ? error : plugin_path);
    return nullptr;
  }
  auto listing = reinterpret_cast<listing_fn>(
      dlsym(plugin, std::string(backend.counter_listing_entry).c_str()));
  auto passes =
      reinterpret_cast<passes_fn>(dlsym(plugin, std::string(backend.pass_count_entry).c_str()));
  if (listing == nullptr || passes == nullptr) {
    why = "the " + label + " backend at " + plugin_path + " cannot list counters";
    return nullptr;
  }
  auto source = backend.counter_source_entry.empty()
                    ? nullptr
                    : reinterpret_cast<source_fn>(
                          dlsym(plugin, std::string(backend.counter_source_entry).c_str()));
  return std::make_unique<plugin_counters>(listing, passes, source);
}

}  // namespace rocprof::cli
