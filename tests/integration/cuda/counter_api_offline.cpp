// The SDK counter API through the real core and the real CUDA plugin, without a GPU: the plugin
// lists the agents of a stand-in libcuda.so.1 (fake_cupti/fake_cuda_driver.cpp) and their
// counters from the toolkit's real libcupti (profiler host API) and the shipped definitions.
// Prints one line per check; exit status 1 when one fails.
#include <rocprofiler-sdk/backend/backend_abi.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

int g_failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  if (!ok) ++g_failures;
}

}  // namespace

int main() {
  rocprof_backend_discover_agents(
      nullptr, [](const rocprof_backend_discovery_t*, void*) {}, nullptr);
  rocprofiler_agent_id_t gpu{0};
  rocprofiler_query_available_agents(
      ROCPROFILER_AGENT_INFO_VERSION_0,
      [](rocprofiler_agent_version_t, const void** agents, size_t n, void* user) {
        for (size_t i = 0; i < n; ++i) {
          const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
          auto* out = static_cast<rocprofiler_agent_id_t*>(user);
          if (a->type == ROCPROFILER_AGENT_TYPE_GPU && out->handle == 0) *out = a->id;
        }
        return ROCPROFILER_STATUS_SUCCESS;
      },
      sizeof(rocprofiler_agent_v0_t), &gpu);
  check(gpu.handle != 0, "a GPU agent from the stand-in driver");
  if (gpu.handle == 0) return 1;

  std::vector<rocprofiler_counter_id_t> ids;
  const rocprofiler_status_t listed = rocprofiler_iterate_agent_supported_counters(
      gpu,
      [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* c, size_t n, void* user) {
        static_cast<std::vector<rocprofiler_counter_id_t>*>(user)->assign(c, c + n);
        return ROCPROFILER_STATUS_SUCCESS;
      },
      &ids);
  check(listed == ROCPROFILER_STATUS_SUCCESS, "iterate_agent_supported_counters succeeds");
  std::map<std::string, rocprofiler_counter_id_t> by_name;
  for (const rocprofiler_counter_id_t id : ids) {
    rocprofiler_counter_info_v0_t info{};
    if (rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info) ==
        ROCPROFILER_STATUS_SUCCESS)
      by_name[info.name] = id;
  }
  std::printf("%zu counters\n", ids.size());
  check(ids.size() > 13000, "NVIDIA metrics with their roll-ups are offered");
  for (const char* name : {"SQ_WAVES", "FETCH_SIZE", "WRITE_SIZE", "GRBM_COUNT", "CU_NUM", "SE_NUM",
                           "smsp__warps_launched.sum", "dram__bytes_read.sum"})
    check(by_name.count(name) == 1, std::string("offers ") + name);

  if (by_name.count("SQ_WAVES") == 1) {
    rocprofiler_counter_info_v1_t info{};
    rocprofiler_query_counter_info(by_name["SQ_WAVES"], ROCPROFILER_COUNTER_INFO_VERSION_1, &info);
    check(info.is_derived == 1 && std::string(info.expression) == "smsp__warps_launched.sum",
          "SQ_WAVES is derived from smsp__warps_launched.sum");
    check(info.dimensions_count == 1 && info.dimensions_instances_count == 1,
          "SQ_WAVES has one instance");
  }
  if (by_name.count("CU_NUM") == 1) {
    rocprofiler_counter_info_v0_t info{};
    rocprofiler_query_counter_info(by_name["CU_NUM"], ROCPROFILER_COUNTER_INFO_VERSION_0, &info);
    check(info.is_constant == 1, "CU_NUM is a constant");
  }
  if (by_name.count("SQ_WAVES") == 1 && by_name.count("FETCH_SIZE") == 1) {
    rocprofiler_counter_id_t group[] = {by_name["SQ_WAVES"], by_name["FETCH_SIZE"]};
    rocprofiler_counter_config_id_t config{0};
    const rocprofiler_status_t made = rocprofiler_create_counter_config(gpu, group, 2, &config);
    check(made == ROCPROFILER_STATUS_SUCCESS, "a config of SQ_WAVES and FETCH_SIZE");
    size_t passes = 0;
    rocprofiler_query_counter_config_passes(config, &passes);
    check(passes == 1, "it takes one pass (" + std::to_string(passes) + ")");
  }
  rocprofiler_counter_id_t rate{0};
  check(rocprofiler_find_counter(gpu, "dram__bytes_read.sum.per_second", &rate) ==
            ROCPROFILER_STATUS_SUCCESS,
        "a sub-metric is added on request");
  check(
      rocprofiler_find_counter(gpu, "SQ_WAVE", &rate) == ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND,
      "an unknown name is not found");
  return g_failures == 0 ? 0 : 1;
}
