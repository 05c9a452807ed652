#include "counters/counter_sets.hpp"

#include <cstring>

#include "metrics/chip_architecture.hpp"
#include "metrics/metric_config.hpp"

namespace rocprof::cuda {
namespace {

// The roll-ups a counter-type metric is listed with (its other sub-metrics on request).
const char* const k_rollups[] = {".sum", ".avg", ".min", ".max"};

// What the hardware "adds every cycle" (NVIDIA describes these as "cumulative # of ..."):
// accumulate(X, HIGH_RES | LOW_RES) in a definition accepts only such counters.
bool accumulates(const metric_properties* p) {
  return p != nullptr && p->description.rfind("cumulative", 0) == 0;
}

struct listed {
  std::vector<std::string> names;  // storage for the C strings handed to the core
  std::vector<rocprof_backend_counter_t> counters;
};

rocprof_backend_counter_t entry(const char* name, const metric_properties* p) {
  rocprof_backend_counter_t c{};
  c.size = sizeof(c);
  c.name = name;
  c.description = p != nullptr ? p->description.c_str() : "";
  c.block = p != nullptr ? p->hw_unit.c_str() : "";
  c.accumulates_per_cycle = accumulates(p) ? 1 : 0;
  return c;
}

rocprof_backend_counter_t constant(const char* name, const char* description, double value) {
  rocprof_backend_counter_t c{};
  c.size = sizeof(c);
  c.name = name;
  c.description = description;
  c.block = "";
  c.is_constant = 1;
  c.constant_value = value;
  return c;
}

}  // namespace

uint32_t gpc_count_of_chip(const std::string& chip) {
  // Full-chip GPC counts from NVIDIA's architecture whitepapers (Volta, Ampere, Ada, Hopper,
  // Blackwell). A product may enable fewer; CUDA has no attribute that says.
  static const std::map<std::string, uint32_t> gpcs = {{"GV100", 6},  {"GA100", 8}, {"GA102", 7},
                                                       {"AD102", 12}, {"GH100", 8}, {"GB202", 12}};
  const auto it = gpcs.find(chip);
  return it == gpcs.end() ? 0 : it->second;
}

counter_sets& plugin_counter_sets() {
  static auto* sets = new counter_sets();  // CUPTI callbacks may use it during exit
  return *sets;
}

void counter_sets::configure(profiler_host_api* host,
                             std::function<std::string(int)> chip_of_device) {
  std::lock_guard<std::mutex> lock(mutex_);
  host_ = host;
  chip_of_device_ = std::move(chip_of_device);
}

void counter_sets::add_agent(uint64_t agent_id, const gpu_agent& device) {
  std::lock_guard<std::mutex> lock(mutex_);
  cuda_counter_agent& a = agents_[agent_id];
  a.agent_id = agent_id;
  a.device = device;
  a.architecture = architecture_name(static_cast<int>(device.compute_major),
                                     static_cast<int>(device.compute_minor));
}

bool counter_sets::agent(uint64_t agent_id, cuda_counter_agent& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = agents_.find(agent_id);
  if (it == agents_.end()) return false;
  out = it->second;
  return true;
}

uint64_t counter_sets::agent_of_device(int ordinal) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [id, a] : agents_)
    if (a.device.device_ordinal == ordinal) return id;
  return 0;
}

std::string counter_sets::chip_of(uint64_t agent_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string why;
  metric_catalogue* c = catalogue_locked(agent_id, why);
  return c != nullptr ? c->target().chip : std::string();
}

metric_catalogue* counter_sets::catalogue_locked(uint64_t agent_id, std::string& why) {
  const auto agent = agents_.find(agent_id);
  if (agent == agents_.end()) return nullptr;
  if (host_ == nullptr) {
    why = "CUPTI's profiler host API is not available";
    return nullptr;
  }
  std::string& chip = chips_[agent_id];
  if (chip.empty() && chip_of_device_) chip = chip_of_device_(agent->second.device.device_ordinal);
  if (chip.empty()) chip = representative_chip(agent->second.architecture);
  if (chip.empty()) {
    why = "no NVIDIA chip is known for " + agent->second.architecture;
    return nullptr;
  }
  std::unique_ptr<metric_catalogue>& c = catalogues_[chip];
  if (c == nullptr) {
    const host_status st = metric_catalogue::open(
        *host_, host_target{chip, CUPTI_PROFILER_TYPE_RANGE_PROFILER, {}}, c);
    if (!st.ok()) {
      why = st.message;
      catalogues_.erase(chip);
      return nullptr;
    }
  }
  return c.get();
}

rocprofiler_status_t counter_sets::list(uint64_t agent_id, const char** architecture,
                                        rocprof_backend_counter_cb_t cb, void* user) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (agents_.count(agent_id) == 0) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
  std::string why;
  metric_catalogue* c = catalogue_locked(agent_id, why);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
  const gpu_agent& device = agents_[agent_id].device;
  architectures_[agent_id] = agents_[agent_id].architecture;
  *architecture = architectures_[agent_id].c_str();

  listed out;
  std::vector<const metric_properties*> props;
  for (CUpti_MetricType type : all_metric_types)
    for (const std::string& base : c->base_metrics(type)) {
      const metric_properties* p = c->properties(base);
      if (type == CUPTI_METRIC_TYPE_COUNTER) {
        for (const char* rollup : k_rollups) {
          out.names.push_back(base + rollup);
          props.push_back(p);
        }
      } else {
        for (const std::string& sub : c->sub_metrics(base)) {
          out.names.push_back(base + sub);
          props.push_back(p);
        }
      }
    }
  // Names first (their storage must not move), then the entries pointing at them.
  out.counters.reserve(out.names.size() + 5);
  for (size_t i = 0; i < out.names.size(); ++i)
    out.counters.push_back(entry(out.names[i].c_str(), props[i]));
  const double sms = device.sm_count;
  out.counters.push_back(constant("simd_count", "SM sub-partitions (4 per SM)", sms * 4));
  out.counters.push_back(constant("simd_per_cu", "SM sub-partitions per SM", 4));
  out.counters.push_back(constant("simd_arrays_per_engine", "one array per GPC", 1));
  out.counters.push_back(
      constant("wave_front_size", "warp size", device.warp_size != 0 ? device.warp_size : 32));
  if (const uint32_t gpcs = gpc_count_of_chip(c->target().chip))
    out.counters.push_back(constant("array_count", "GPCs of the chip", gpcs));
  cb(out.counters.data(), out.counters.size(), user);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t counter_sets::describe(uint64_t agent_id, const char* name,
                                            rocprof_backend_counter_cb_t cb, void* user,
                                            std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (agents_.count(agent_id) == 0) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
  metric_catalogue* c = catalogue_locked(agent_id, why);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
  const metric_check& check = c->check(name);
  if (!check.valid) {
    why = check.reason;
    return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
  }
  const rocprof_backend_counter_t e = entry(name, c->properties(check.base));
  cb(&e, 1, user);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t counter_sets::create(uint64_t agent_id,
                                          const std::vector<std::string>& metrics, uint64_t& handle,
                                          uint64_t& passes, std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (agents_.count(agent_id) == 0) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
  metric_catalogue* c = catalogue_locked(agent_id, why);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
  metric_config config;
  const host_status st = build_metric_config(*host_, c->target(), metrics, config);
  if (!st.ok()) {
    why = st.message;
    return ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
  }
  counter_set s;
  s.handle = sets_.size() + 1;
  s.agent_id = agent_id;
  s.chip = c->target().chip;
  s.metrics = metrics;
  s.passes = config.passes;
  sets_.push_back(s);
  handle = s.handle;
  passes = s.passes;
  return ROCPROFILER_STATUS_SUCCESS;
}

bool counter_sets::find(uint64_t handle, counter_set& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (handle == 0 || handle > sets_.size()) return false;
  out = sets_[handle - 1];
  return true;
}

}  // namespace rocprof::cuda
