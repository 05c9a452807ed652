// The device profiling sessions' counters (core_port.hpp: device_counter): the core's device
// counting service. The core takes configuration only while it initialises, before any session
// exists, so then every GPU agent gets a context of its own with the service configured (no buffer:
// values come back through the synchronous sample call); its set-config callback hands the core
// the counter config of the session that starts the context. One session counts on an agent at
// a time. A core_* file: it may include rocprofiler-sdk/ headers (core_port.hpp says why).
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core_port.hpp"
#include "core_sdk.hpp"

namespace rocprof::v2 {
namespace core_port {
namespace {

struct agent_slot {
  rocprofiler_agent_id_t agent{};
  rocprofiler_context_id_t context{};
  std::atomic<uint64_t> config{0};  // of the session starting the context; 0: none
  std::atomic<bool> busy{false};    // a session counts on this agent
};

// Filled during the core's initialisation only, read afterwards without a lock; leaked (the
// core may call back while the process exits).
std::vector<agent_slot*>& slots() {
  static auto* s = new std::vector<agent_slot*>();
  return *s;
}

void choose_config(rocprofiler_context_id_t context, rocprofiler_agent_id_t,
                   rocprofiler_device_counting_agent_cb_t set_config, void* data) {
  const uint64_t config = static_cast<agent_slot*>(data)->config.load();
  if (config != 0) set_config(context, rocprofiler_counter_config_id_t{config});
}

std::vector<rocprofiler_agent_id_t> gpu_agents() {
  std::vector<rocprofiler_agent_id_t> out;
  core().rocprofiler_query_available_agents(
      ROCPROFILER_AGENT_INFO_VERSION_0,
      [](rocprofiler_agent_version_t, const void** list, size_t count, void* data) {
        for (size_t i = 0; i < count; ++i) {
          const auto* a = static_cast<const rocprofiler_agent_v0_t*>(list[i]);
          if (a->type == ROCPROFILER_AGENT_TYPE_GPU)
            static_cast<std::vector<rocprofiler_agent_id_t>*>(data)->push_back(a->id);
        }
        return ROCPROFILER_STATUS_SUCCESS;
      },
      sizeof(rocprofiler_agent_v0_t), &out);
  return out;
}

}  // namespace

void configure_device_counting() {
  const core_table& c = core();
  std::vector<rocprofiler_agent_id_t> gpus = gpu_agents();
  if (gpus.empty()) {
    // GPU agents register when the counter backends load; configuring an agent the core does
    // not know loads them (and answers AGENT_NOT_FOUND).
    rocprofiler_context_id_t probe{};
    if (c.rocprofiler_create_context(&probe) != ROCPROFILER_STATUS_SUCCESS) return;
    c.rocprofiler_configure_device_counting_service(probe, rocprofiler_buffer_id_t{0},
                                                    rocprofiler_agent_id_t{~uint64_t{0}},
                                                    choose_config, nullptr);
    gpus = gpu_agents();
  }
  for (const rocprofiler_agent_id_t agent : gpus) {
    auto* slot = new agent_slot();
    slot->agent = agent;
    if (c.rocprofiler_create_context(&slot->context) != ROCPROFILER_STATUS_SUCCESS ||
        c.rocprofiler_configure_device_counting_service(slot->context, rocprofiler_buffer_id_t{0},
                                                        agent, choose_config,
                                                        slot) != ROCPROFILER_STATUS_SUCCESS) {
      delete slot;
      continue;
    }
    slots().push_back(slot);
  }
}

namespace {

// The counter ids of `names` on `agent`, in their order; false (and why) for an unknown name.
bool counter_ids(rocprofiler_agent_id_t agent, const std::vector<std::string>& names,
                 std::vector<rocprofiler_counter_id_t>& ids, std::string& why) {
  const core_table& c = core();
  std::vector<rocprofiler_counter_id_t> all;
  c.rocprofiler_iterate_agent_supported_counters(
      agent,
      [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* list, size_t count, void* data) {
        static_cast<std::vector<rocprofiler_counter_id_t>*>(data)->assign(list, list + count);
        return ROCPROFILER_STATUS_SUCCESS;
      },
      &all);
  for (const std::string& name : names) {
    bool found = false;
    for (const rocprofiler_counter_id_t id : all) {
      rocprofiler_counter_info_v0_t info{};
      if (c.rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info) ==
              ROCPROFILER_STATUS_SUCCESS &&
          info.name != nullptr && name == info.name) {
        ids.push_back(id);
        found = true;
        break;
      }
    }
    if (!found) {
      why = "counter '" + name + "' is not known on this GPU (rocprofv3 -L lists them)";
      return false;
    }
  }
  return true;
}

// Sums the values of each counter over its dimension instances since the session started: the
// service returns what accumulated since its previous sample.
class core_device_source final : public device_counter {
 public:
  core_device_source(agent_slot& slot, uint64_t config, std::vector<rocprofiler_counter_id_t> ids)
      : slot_{slot}, config_{config}, ids_{std::move(ids)}, totals_(ids_.size(), 0.0) {
    records_.resize(16384);  // every dimension instance of every counter of one sample
  }
  ~core_device_source() override = default;

  bool start() override {
    bool idle = false;
    if (!slot_.busy.compare_exchange_strong(idle, true)) return false;  // another session
    slot_.config.store(config_);
    totals_.assign(ids_.size(), 0.0);
    if (core().rocprofiler_start_context(slot_.context) != ROCPROFILER_STATUS_SUCCESS) {
      release();
      return false;
    }
    return true;
  }
  bool read(std::vector<double>& values) override {
    const core_table& c = core();
    size_t count = records_.size();
    if (c.rocprofiler_sample_device_counting_service(slot_.context, rocprofiler_user_data_t{},
                                                     ROCPROFILER_COUNTER_FLAG_NONE, records_.data(),
                                                     &count) != ROCPROFILER_STATUS_SUCCESS)
      return false;
    for (size_t i = 0; i < count; ++i) {
      rocprofiler_counter_id_t id{};
      if (c.rocprofiler_query_record_counter_id(records_[i].id, &id) != ROCPROFILER_STATUS_SUCCESS)
        continue;
      for (size_t j = 0; j < ids_.size(); ++j)
        if (ids_[j].handle == id.handle) totals_[j] += records_[i].counter_value;
    }
    values = totals_;
    return true;
  }
  void stop() override {
    core().rocprofiler_stop_context(slot_.context);
    release();
  }

 private:
  void release() {
    slot_.config.store(0);
    slot_.busy.store(false);
  }
  agent_slot& slot_;
  const uint64_t config_;
  const std::vector<rocprofiler_counter_id_t> ids_;
  std::vector<double> totals_;
  std::vector<rocprofiler_counter_record_t> records_;
};

}  // namespace

std::unique_ptr<device_counter> open_device_counter(const std::vector<std::string>& names,
                                                    int gpu_index, device_counter_error& error,
                                                    std::string& why) {
  const std::vector<agent_slot*>& all = slots();
  if (!tracing_available()) {
    why =
        "the profiler core was initialised before librocprofiler64v2 was loaded: device "
        "counting could not be configured";
    error = device_counter_error::no_service;
    return nullptr;
  }
  if (all.empty()) {
    why = "no GPU of this process offers device counting (no counter backend is loaded)";
    error = device_counter_error::no_service;
    return nullptr;
  }
  if (gpu_index < 0 || static_cast<size_t>(gpu_index) >= all.size()) {
    why = "no GPU with index " + std::to_string(gpu_index) + " supports device counting (" +
          std::to_string(all.size()) + " do)";
    error = device_counter_error::no_gpu;
    return nullptr;
  }
  agent_slot& slot = *all[static_cast<size_t>(gpu_index)];
  std::vector<rocprofiler_counter_id_t> ids;
  if (!counter_ids(slot.agent, names, ids, why)) {
    error = device_counter_error::unknown_counter;
    return nullptr;
  }
  rocprofiler_counter_config_id_t config{0};
  if (core().rocprofiler_create_counter_config(slot.agent, ids.data(), ids.size(), &config) !=
      ROCPROFILER_STATUS_SUCCESS) {
    why = "the GPU cannot count these counters together";
    error = device_counter_error::not_countable;
    return nullptr;
  }
  return std::make_unique<core_device_source>(slot, config.handle, std::move(ids));
}

}  // namespace core_port
}  // namespace rocprof::v2
