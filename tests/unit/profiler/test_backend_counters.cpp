#include "test_backend_counters.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace test_counters {
namespace {

rocprofiler_agent_id_t g_agent{};
std::vector<std::vector<std::string>> g_sets;  // handle = index + 1

struct fake_counter {
  const char* name;
  const char* block;
  uint64_t instances;  // 0: no dimension
  bool constant;
  double value;
};

const fake_counter k_counters[] = {
    {"smsp__warps_launched.sum", "smsp", 0, false, 0},
    {"dram__bytes_read.sum", "dram", 0, false, 0},
    {"dram__bytes_write.sum", "dram", 0, false, 0},
    {"sm__cycles_elapsed.max", "sm", 0, false, 0},
    {"test__per_instance.sum", "test", 4, false, 0},
    {"simd_count", "", 0, true, 528},
    {"simd_per_cu", "", 0, true, 4},
    {"array_count", "", 0, true, 8},
    {"simd_arrays_per_engine", "", 0, true, 1},
    {"wave_front_size", "", 0, true, 32},
};

const char* k_instance_dimension = "DIMENSION_INSTANCE";

rocprof_backend_counter_t describe(const fake_counter& c, const uint64_t* size) {
  rocprof_backend_counter_t out{};
  out.size = sizeof(out);
  out.name = c.name;
  out.description = c.constant ? "an agent property" : "a fake native counter";
  out.block = c.block;
  if (c.instances != 0) {
    out.dimension_names = &k_instance_dimension;
    out.dimension_sizes = size;
    out.dimensions_count = 1;
  }
  out.is_constant = c.constant ? 1 : 0;
  out.constant_value = c.value;
  return out;
}

rocprofiler_status_t list_counters(void*, rocprofiler_agent_id_t agent, const char** architecture,
                                   rocprof_backend_counter_cb_t cb, void* user) {
  if (agent.handle != g_agent.handle) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
  *architecture = "sm_90";
  static const uint64_t four = 4;
  std::vector<rocprof_backend_counter_t> all;
  for (const fake_counter& c : k_counters)
    all.push_back(describe(c, &four));
  cb(all.data(), all.size(), user);
  return ROCPROFILER_STATUS_SUCCESS;
}

// Sub-metrics of the warps counter are collectable on request, like NVIDIA's.
rocprofiler_status_t describe_counter(void*, rocprofiler_agent_id_t agent, const char* name,
                                      rocprof_backend_counter_cb_t cb, void* user,
                                      const char** why) {
  if (agent.handle != g_agent.handle) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
  const std::string prefix = "smsp__warps_launched.sum.";
  if (std::strncmp(name, prefix.c_str(), prefix.size()) != 0) {
    *why = "the test backend knows no such counter";
    return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
  }
  const fake_counter c{name, "smsp", 0, false, 0};
  const rocprof_backend_counter_t d = describe(c, nullptr);
  cb(&d, 1, user);
  return ROCPROFILER_STATUS_SUCCESS;
}

// Three native counters per pass; "sm__cycles_elapsed.max" cannot go with the write counter.
rocprofiler_status_t create_counter_set(void*, rocprofiler_agent_id_t agent,
                                        const char* const* names, uint64_t count, uint64_t* set,
                                        uint64_t* passes, const char** why) {
  if (agent.handle != g_agent.handle) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
  std::vector<std::string> kept(names, names + count);
  bool cycles = false, write = false;
  for (const std::string& n : kept) {
    cycles = cycles || n == "sm__cycles_elapsed.max";
    write = write || n == "dram__bytes_write.sum";
  }
  if (cycles && write) {
    *why = "sm__cycles_elapsed.max and dram__bytes_write.sum cannot be collected together";
    return ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
  }
  g_sets.push_back(std::move(kept));
  *set = g_sets.size();
  *passes = (count + 2) / 3;
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // namespace

void install(rocprof_backend_t* out) {
  out->list_counters = list_counters;
  out->describe_counter = describe_counter;
  out->create_counter_set = create_counter_set;
}

void set_agent(rocprofiler_agent_id_t agent) {
  g_agent = agent;
}

uint64_t values_for(uint64_t set, uint32_t grid_x, double* values) {
  if (set == 0 || set > g_sets.size()) return 0;
  uint64_t n = 0;
  for (const std::string& name : g_sets[set - 1]) {
    if (name == "test__per_instance.sum") {
      for (int i = 1; i <= 4 && n < max_set_size; ++i)
        values[n++] = i;
      continue;
    }
    double v = 1;
    if (name == "smsp__warps_launched.sum") v = grid_x / 32.0;
    if (name == "dram__bytes_read.sum") v = 4.0 * grid_x;
    if (name == "dram__bytes_write.sum") v = 8.0 * grid_x;
    if (n < max_set_size) values[n++] = v;
  }
  return n;
}

}  // namespace test_counters
