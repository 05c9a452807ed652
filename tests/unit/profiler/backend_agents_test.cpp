// Agents and the backend loader, through a real plugin (test_backend.cpp) loaded by name.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <rocprofiler-sdk/backend/backend_abi.h>

#include <set>
#include <string>
#include <vector>

#include "test_tool.hpp"

namespace rocprof::test {
namespace {

std::vector<rocprofiler_agent_v0_t> agents() {
  std::vector<rocprofiler_agent_v0_t> out;
  EXPECT_EQ(rocprofiler_query_available_agents(
                ROCPROFILER_AGENT_INFO_VERSION_0,
                [](rocprofiler_agent_version_t, const void** list, size_t n, void* data) {
                  auto* v = static_cast<std::vector<rocprofiler_agent_v0_t>*>(data);
                  for (size_t i = 0; i < n; ++i)
                    v->push_back(*static_cast<const rocprofiler_agent_v0_t*>(list[i]));
                  return ROCPROFILER_STATUS_SUCCESS;
                },
                sizeof(rocprofiler_agent_v0_t), &out),
            ROCPROFILER_STATUS_SUCCESS);
  return out;
}

TEST(agents, cpu_agents_come_from_the_system) {
  const auto list = agents();
  ASSERT_FALSE(list.empty());
  uint32_t cores = 0;
  for (const auto& a : list) {
    if (a.type != ROCPROFILER_AGENT_TYPE_CPU) continue;
    EXPECT_GT(a.cpu_cores_count, 0u);
    EXPECT_NE(a.name, nullptr);
    EXPECT_GT(std::string(a.name).size(), 0u);
    EXPECT_GT(a.id.handle, 0u);
    cores += a.cpu_cores_count;
  }
  EXPECT_GE(cores, 1u);
}

TEST(backend_loader, missing_backend_warns_once_and_the_rest_works) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(rocprof_backend_request("does-not-exist"), ROCPROFILER_STATUS_ERROR_BACKEND_NOT_LOADED);
  EXPECT_EQ(rocprof_backend_request("does-not-exist"), ROCPROFILER_STATUS_ERROR_BACKEND_NOT_LOADED);
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string needle = "backend 'does-not-exist' is not available";
  const size_t first = err.find(needle);
  ASSERT_NE(first, std::string::npos) << err;
  EXPECT_EQ(err.find(needle, first + 1), std::string::npos) << "warned twice: " << err;
  rocprofiler_timestamp_t ts = 0;
  EXPECT_EQ(rocprofiler_get_timestamp(&ts), ROCPROFILER_STATUS_SUCCESS);
}

TEST(backend_loader, plugin_registers_an_agent_and_emits_through_the_core) {
  ASSERT_EQ(rocprof_backend_request("testbackend"), ROCPROFILER_STATUS_SUCCESS);
  const std::string path =
      std::string(ROCPROF_TEST_BACKEND_DIR) + "/librocprofiler-sdk-testbackend.so";
  void* handle = dlopen(path.c_str(), RTLD_NOLOAD | RTLD_NOW);
  ASSERT_NE(handle, nullptr) << "the core did not load " << path;
  auto launch = reinterpret_cast<uint64_t (*)()>(dlsym(handle, "test_backend_launch"));
  auto enabled = reinterpret_cast<int (*)()>(dlsym(handle, "test_backend_kernel_dispatch_enabled"));
  ASSERT_NE(launch, nullptr);
  ASSERT_NE(enabled, nullptr);

  bool gpu_found = false;
  std::set<uint32_t> node_ids;
  for (const auto& a : agents()) {
    EXPECT_TRUE(node_ids.insert(a.node_id).second) << "node id " << a.node_id << " is repeated";
    if (a.type == ROCPROFILER_AGENT_TYPE_GPU && std::string(a.product_name) == "Test GPU") {
      gpu_found = true;
      EXPECT_EQ(a.cu_count, 132u);
    }
  }
  EXPECT_TRUE(gpu_found);

  const char* op_name = nullptr;
  ASSERT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API, 211, &op_name, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(op_name, "cudaLaunchKernel");

  collector& c = tool().backend;
  reset(tool().backend_buf, c);
  uint64_t corr = 0;
  {
    context_guard on(tool().backend_ctx);
    EXPECT_EQ(enabled(), 1) << "start() was told KERNEL_DISPATCH is on";
    corr = launch();
  }
  EXPECT_EQ(enabled(), 0) << "stop() ran when no context needed the backend";
  ASSERT_EQ(rocprofiler_flush_buffer(tool().backend_buf), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(c.mutex);
  ASSERT_EQ(c.dispatches.size(), 1u);
  EXPECT_EQ(c.dispatches[0].correlation_id.internal, corr);
  EXPECT_EQ(c.dispatches[0].dispatch_info.grid_size.x, 1024u);
  EXPECT_EQ(c.dispatches[0].graph_id, 5u);
  ASSERT_EQ(c.api_callbacks.size(), 2u);
  EXPECT_EQ(c.api_callbacks[0].phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
  EXPECT_EQ(c.api_callbacks[1].phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
  EXPECT_EQ(c.api_callbacks[0].correlation.internal, corr);
  EXPECT_EQ(c.api_callbacks[0].operation, 211);
}

}  // namespace
}  // namespace rocprof::test
