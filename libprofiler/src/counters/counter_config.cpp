#include "counters/counter_config.hpp"

#include <map>
#include <mutex>
#include <unordered_set>

#include "guarded.hpp"
#include "registration.hpp"
#include "rocprofiler-sdk/counter_config.h"

namespace rocprof::core::counters {
namespace {

struct prepared_set {
  uint64_t handle = 0;
  uint64_t passes = 0;
};

struct config_table {
  std::mutex mutex;
  std::vector<std::unique_ptr<counter_config>> configs;  // id = position + 1
  // (agent, native names joined) -> the backend's set
  std::map<std::pair<uint64_t, std::string>, prepared_set> sets;
};

config_table& table() {
  static auto* t = new config_table();  // never freed: dispatches may finish during exit
  return *t;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names)
    out += n + '\n';
  return out;
}

}  // namespace

rocprofiler_status_t create_config(rocprofiler_agent_id_t agent, const uint64_t* counter_ids,
                                   size_t count, uint64_t base, uint64_t& id, std::string& why) {
  std::shared_ptr<const agent_counters> counters;
  rocprofiler_status_t status = counter_store::get().agent(agent, counters);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;

  auto made = std::make_unique<counter_config>();
  counter_config& config = *made;
  config.agent = agent;
  config.counters = counters;
  std::unordered_set<uint64_t> added;
  auto add = [&](uint64_t counter_id) {
    if (!added.insert(counter_id).second) return ROCPROFILER_STATUS_SUCCESS;
    counter_ref ref;
    if (!counter_store::get().find(counter_id, ref))
      return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
    const rc::counter_info* info = counters->catalogue->find(counter_id);
    if (info == nullptr) {
      why = "counter '" + ref.info->name + "' is not offered by agent " + counters->architecture;
      return ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT;
    }
    config.names.push_back(info->name);
    config.counter_ids.push_back(counter_id);
    return ROCPROFILER_STATUS_SUCCESS;
  };
  for (size_t i = 0; i < count; ++i)
    if ((status = add(counter_ids[i])) != ROCPROFILER_STATUS_SUCCESS) return status;
  if (base != 0) {
    const counter_config* existing = find_config(base);
    if (existing == nullptr || existing->destroyed)
      return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
    for (uint64_t counter_id : existing->counter_ids)
      if ((status = add(counter_id)) != ROCPROFILER_STATUS_SUCCESS) return status;
  }
  if (config.names.empty()) return ROCPROFILER_STATUS_ERROR_NO_HARDWARE_COUNTERS;

  rc::result<std::vector<std::string>> native =
      counters->catalogue->required_base_counters(config.names);
  if (!native) {
    why = native.failure().message;
    return ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT;
  }
  config.native = std::move(native.value());

  config_table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!config.native.empty()) {
    prepared_set& set = t.sets[{agent.handle, join(config.native)}];
    if (set.handle == 0) {
      std::vector<const char*> names;
      for (const std::string& n : config.native)
        names.push_back(n.c_str());
      const rocprof_backend_t& backend = counters->backend;
      const char* reason = nullptr;
      status = backend.create_counter_set == nullptr
                   ? ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED
                   : backend.create_counter_set(backend.backend_data, agent, names.data(),
                                                names.size(), &set.handle, &set.passes, &reason);
      if (status != ROCPROFILER_STATUS_SUCCESS || set.handle == 0) {
        if (reason != nullptr) why = reason;
        t.sets.erase({agent.handle, join(config.native)});
        return status != ROCPROFILER_STATUS_SUCCESS ? status
                                                    : ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
      }
    }
    config.counter_set = set.handle;
    config.passes = set.passes;
  }
  config.id = t.configs.size() + 1;
  id = config.id;
  t.configs.push_back(std::move(made));
  return ROCPROFILER_STATUS_SUCCESS;
}

const counter_config* find_config(uint64_t id) {
  config_table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (id == 0 || id > t.configs.size()) return nullptr;
  return t.configs[id - 1].get();
}

rocprofiler_status_t destroy_config(uint64_t id) {
  config_table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (id == 0 || id > t.configs.size() || t.configs[id - 1]->destroyed.exchange(true))
    return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // namespace rocprof::core::counters

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_counter_config(
    rocprofiler_agent_id_t agent_id, rocprofiler_counter_id_t* counters_list, size_t counters_count,
    rocprofiler_counter_config_id_t* config_id) {
  return guarded(__func__, [&] {
    ensure_initialized();
    if (counters_list == nullptr && counters_count != 0)
      return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    std::vector<uint64_t> ids;
    for (size_t i = 0; i < counters_count; ++i)
      ids.push_back(counters_list[i].handle);
    uint64_t id = 0;
    std::string why;
    const rocprofiler_status_t status =
        counters::create_config(agent_id, ids.data(), ids.size(), config_id->handle, id, why);
    if (status == ROCPROFILER_STATUS_SUCCESS) config_id->handle = id;
    return status;
  });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t config_id) {
  return guarded(__func__, [&] { return counters::destroy_config(config_id.handle); });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_query_counter_config_passes(rocprofiler_counter_config_id_t config_id, size_t* passes) {
  return guarded(__func__, [&] {
    const counters::counter_config* config = counters::find_config(config_id.handle);
    if (config == nullptr || config->destroyed) return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
    *passes = static_cast<size_t>(config->passes);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
