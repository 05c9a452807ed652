// A preloaded rocprofiler-sdk tool that, like AMD's counter samples, lists the agents in its
// initialisation, then traces the CUDA runtime calls. With fake_cuda_app under
// CUDA_INJECTION64_PATH (no ROCPROFILER_LIBRARY_CTOR) it shows where the tool starts: never
// inside the injection (cuInit), where the fake driver counts every query.
//   STARTUP_TOOL init gpus=<n> inside_injection=<0|1>
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

rocprofiler_status_t count_gpus(rocprofiler_agent_version_t, const void** agents, size_t count,
                                void* user) {
  int& gpus = *static_cast<int*>(user);
  for (size_t i = 0; i < count; ++i)
    if (static_cast<const rocprofiler_agent_v0_t*>(agents[i])->type == ROCPROFILER_AGENT_TYPE_GPU)
      ++gpus;
  return ROCPROFILER_STATUS_SUCCESS;
}

void on_runtime_call(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*,
                     void*) {
  if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) ++g_runtime_calls;
}

int tool_init(rocprofiler_client_finalize_t, void*) {
  const int injected = inside_injection();  // before the agent query makes driver calls
  int gpus = 0;
  rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0, &count_gpus,
                                     sizeof(rocprofiler_agent_v0_t), &gpus);
  std::printf("STARTUP_TOOL init gpus=%d inside_injection=%d\n", gpus, injected);
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
