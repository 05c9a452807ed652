// A tool defined in the executable itself (exported with -rdynamic): the core finds it through
// RTLD_DEFAULT on first use and calls it with the documented arguments.
#include <gtest/gtest.h>
#include <rocprofiler-sdk/backend/markers.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <string>

namespace {

int g_configure_calls = 0;
int g_initialize_calls = 0;
int g_finalize_calls = 0;
uint32_t g_version = 0, g_priority = 99;
std::string g_runtime_version;
uint32_t g_client_handle = 0;
rocprofiler_client_finalize_t g_fini = nullptr;
rocprofiler_client_id_t g_client{};

int initialize(rocprofiler_client_finalize_t fini, void* data) {
  ++g_initialize_calls;
  g_fini = fini;
  EXPECT_EQ(data, &g_configure_calls) << "tool_data is passed through";
  rocprofiler_context_id_t ctx{};
  EXPECT_EQ(rocprofiler_create_context(&ctx), ROCPROFILER_STATUS_SUCCESS);
  int status = 0;
  rocprofiler_is_initialized(&status);
  EXPECT_EQ(status, -1) << "in progress while tools initialise";
  return 0;
}

void finalize(void* data) {
  EXPECT_EQ(data, &g_configure_calls);
  ++g_finalize_calls;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t version, const char* runtime_version, uint32_t priority,
                      rocprofiler_client_id_t* client) {
  ++g_configure_calls;
  g_version = version;
  g_priority = priority;
  g_runtime_version = runtime_version != nullptr ? runtime_version : "";
  g_client_handle = client->handle;
  client->name = "symbol-tool";
  g_client = *client;
  static rocprofiler_tool_configure_result_t result{sizeof(result), initialize, finalize,
                                                    &g_configure_calls};
  return &result;
}

namespace {

TEST(registration_symbol, found_through_rtld_default_on_first_use) {
  EXPECT_EQ(g_configure_calls, 0);
  rocprof_marker_mark(nullptr, "first use");
  EXPECT_EQ(g_configure_calls, 1);
  EXPECT_EQ(g_initialize_calls, 1);
  EXPECT_EQ(g_version, static_cast<uint32_t>(ROCPROFILER_VERSION));
  EXPECT_EQ(g_priority, 0u);
  EXPECT_FALSE(g_runtime_version.empty());
  EXPECT_NE(g_client_handle, 0u);
  rocprof_marker_mark(nullptr, "second use");
  EXPECT_EQ(g_configure_calls, 1) << "configured once";
  ASSERT_NE(g_fini, nullptr);
  g_fini(g_client);
  EXPECT_EQ(g_finalize_calls, 1);
  g_fini(g_client);
  EXPECT_EQ(g_finalize_calls, 1) << "finalised once";
}

}  // namespace
