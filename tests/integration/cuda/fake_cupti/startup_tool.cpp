// A preloaded rocprofiler-sdk tool that, like AMD's counter samples, lists the agents in its
// initialisation, then traces the CUDA runtime calls. With fake_cuda_app under
// CUDA_INJECTION64_PATH (no ROCPROFILER_LIBRARY_CTOR) it shows where the tool starts: never
// inside the injection (cuInit), where the fake driver counts every query.
//   STARTUP_TOOL init gpus=<n> inside_injection=<0|1> pc_configs=<n | status>
// (pc_configs: the PC sampling configurations the first GPU offers at tool init, AMD's PC
// sampling sample asks then; the status when the query fails)
//   STARTUP_TOOL fini runtime_calls=<n>
#include <dlfcn.h>
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdio>

namespace {

std::atomic<int> g_runtime_calls{0};
rocprofiler_context_id_t g_context{};

int inside_injection() {
  auto flag = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "fake_cuda_driver_initialising"));
  return flag != nullptr ? flag() : -1;
}

struct gpu_list {
  int count = 0;
  rocprofiler_agent_id_t first{};
};

rocprofiler_status_t list_gpus(rocprofiler_agent_version_t, const void** agents, size_t count,
                               void* user) {
  auto& gpus = *static_cast<gpu_list*>(user);
  for (size_t i = 0; i < count; ++i) {
    const auto* agent = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
    if (agent->type != ROCPROFILER_AGENT_TYPE_GPU) continue;
    if (gpus.count++ == 0) gpus.first = agent->id;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t count_configs(const rocprofiler_pc_sampling_configuration_t*, size_t count,
                                   void* user) {
  *static_cast<int*>(user) = static_cast<int>(count);
  return ROCPROFILER_STATUS_SUCCESS;
}

void on_runtime_call(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*,
                     void*) {
  if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) ++g_runtime_calls;
}

int tool_init(rocprofiler_client_finalize_t, void*) {
  const int injected = inside_injection();  // before the agent query makes driver calls
  gpu_list gpus;
  rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0, &list_gpus,
                                     sizeof(rocprofiler_agent_v0_t), &gpus);
  int configs = 0;
  const rocprofiler_status_t pcs =
      rocprofiler_query_pc_sampling_agent_configurations(gpus.first, &count_configs, &configs);
  std::printf("STARTUP_TOOL init gpus=%d inside_injection=%d pc_configs=%s%d\n", gpus.count,
              injected, pcs == ROCPROFILER_STATUS_SUCCESS ? "" : "status:",
              pcs == ROCPROFILER_STATUS_SUCCESS ? configs : static_cast<int>(pcs));
  std::fflush(stdout);
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS) return -1;
  if (rocprofiler_configure_callback_tracing_service(
          g_context, ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, nullptr, 0, &on_runtime_call,
          nullptr) != ROCPROFILER_STATUS_SUCCESS)
    return -1;
  return rocprofiler_start_context(g_context) == ROCPROFILER_STATUS_SUCCESS ? 0 : -1;
}

void tool_fini(void*) {
  std::printf("STARTUP_TOOL fini runtime_calls=%d\n", g_runtime_calls.load());
  std::fflush(stdout);
}

}  // namespace

extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(uint32_t, const char*,
                                                                      uint32_t,
                                                                      rocprofiler_client_id_t* id) {
  id->name = "startup_tool";
  static rocprofiler_tool_configure_result_t result{sizeof(result), &tool_init, &tool_fini,
                                                    nullptr};
  return &result;
}
