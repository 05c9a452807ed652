// What the PC sampling tests of the core share: the entries of the loaded test backend
// (test_backend.cpp, which offers what an H100 offers) and the GPU agent it registered.
#pragma once

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <rocprofiler-sdk/backend/backend_abi.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace pc_sampling_test {

// An entry of the loaded test backend (the core dlopened it; look it up there).
template <typename Fn>
Fn backend_entry(const char* name) {
  const std::string path =
      std::string(ROCPROF_TEST_BACKEND_DIR) + "/librocprofiler-sdk-testbackend.so";
  void* handle = dlopen(path.c_str(), RTLD_NOLOAD | RTLD_NOW);
  return handle != nullptr ? reinterpret_cast<Fn>(dlsym(handle, name)) : nullptr;
}

// One aggregated record of `samples` samples (half of them not issued, long scoreboard) at
// `offset` of code object 1, dispatch 7; false when the backend is not loaded.
inline bool emit_aggregated_sample(uint64_t offset, uint64_t samples) {
  auto fn = backend_entry<void (*)(uint64_t, uint64_t)>("test_backend_emit_pc_sample");
  if (fn == nullptr) return false;
  fn(offset, samples);
  return true;
}

// The agents the backends registered: the GPU and the first CPU.
struct agents {
  rocprofiler_agent_id_t gpu{}, cpu{};
};
inline agents find_agents() {
  agents found;
  rocprofiler_query_available_agents(
      ROCPROFILER_AGENT_INFO_VERSION_0,
      [](rocprofiler_agent_version_t, const void** list, size_t n, void* data) {
        auto& out = *static_cast<agents*>(data);
        for (size_t i = 0; i < n; ++i) {
          const auto* a = static_cast<const rocprofiler_agent_v0_t*>(list[i]);
          if (a->type == ROCPROFILER_AGENT_TYPE_GPU) out.gpu = a->id;
          if (a->type == ROCPROFILER_AGENT_TYPE_CPU && out.cpu.handle == 0) out.cpu = a->id;
        }
        return ROCPROFILER_STATUS_SUCCESS;
      },
      sizeof(rocprofiler_agent_v0_t), &found);
  return found;
}

// The test's tool: `Initialize` configures PC sampling (a process configures it once, in its
// tool's initialize), with the test backend as the only backend.
template <int (*Initialize)(rocprofiler_client_finalize_t, void*)>
rocprofiler_tool_configure_result_t* configure_tool(uint32_t, const char*, uint32_t,
                                                    rocprofiler_client_id_t* id) {
  id->name = "pc-sampling-test";
  static rocprofiler_tool_configure_result_t result{sizeof(result), Initialize, nullptr, nullptr};
  return &result;
}

template <int (*Initialize)(rocprofiler_client_finalize_t, void*)>
class core_environment : public ::testing::Environment {
 public:
  void SetUp() override {
    setenv(ROCPROF_BACKEND_DIR_ENV, ROCPROF_TEST_BACKEND_DIR, 1);
    ASSERT_EQ(rocprofiler_force_configure(configure_tool<Initialize>), ROCPROFILER_STATUS_SUCCESS);
  }
};

}  // namespace pc_sampling_test
