// The kind -> backend map comes from the backends' manifests (backend_abi.h), and agent
// listings reach every backend through rocprof_backend_discover_agents. Its own process: what
// is loaded is checked from the first configuration on.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <rocprofiler-sdk/backend/backend_abi.h>
#include <rocprofiler-sdk/rocprofiler.h>
#include <stdlib.h>

#include <string>
#include <vector>

namespace {

const std::string k_backend =
    std::string(ROCPROF_TEST_BACKEND_DIR) + "/librocprofiler-sdk-testbackend.so";

bool test_backend_registered() {
  void* handle = dlopen(k_backend.c_str(), RTLD_NOLOAD | RTLD_NOW);
  if (handle == nullptr) return false;
  auto registered = reinterpret_cast<int (*)()>(dlsym(handle, "test_backend_registered"));
  const bool yes = registered != nullptr && registered() != 0;
  dlclose(handle);
  return yes;
}

struct observations {
  bool loaded_after_markers = true;
  bool registered_after_kernels = false;
};

observations& seen() {
  static observations o;
  return o;
}

void ignore(rocprofiler_context_id_t, rocprofiler_buffer_id_t, rocprofiler_record_header_t**,
            size_t, void*, uint64_t) {}

int initialize(rocprofiler_client_finalize_t, void*) {
  rocprofiler_context_id_t markers{}, gpu{};
  rocprofiler_buffer_id_t marker_buffer{}, gpu_buffer{};
  if (rocprofiler_create_context(&markers) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(markers, 4096, 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS, ignore,
                                nullptr, &marker_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_buffer_tracing_service(
          markers, ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API, nullptr, 0, marker_buffer) !=
          ROCPROFILER_STATUS_SUCCESS)
    return 1;
  // The core records markers itself: no backend is looked for.
  seen().loaded_after_markers = dlopen(k_backend.c_str(), RTLD_NOLOAD | RTLD_NOW) != nullptr;
  if (rocprofiler_create_context(&gpu) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(gpu, 4096, 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS, ignore,
                                nullptr, &gpu_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_buffer_tracing_service(gpu, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                                                   nullptr, 0,
                                                   gpu_buffer) != ROCPROFILER_STATUS_SUCCESS)
    return 1;
  // KERNEL_DISPATCH is in the test backend's manifest, and in no other file's of the directory.
  seen().registered_after_kernels = test_backend_registered();
  return 0;
}

rocprofiler_tool_configure_result_t* configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  id->name = "backend-map-test";
  static rocprofiler_tool_configure_result_t result{sizeof(result), initialize, nullptr, nullptr};
  return &result;
}

class core_environment : public ::testing::Environment {
 public:
  void SetUp() override {
    setenv(ROCPROF_BACKEND_DIR_ENV, ROCPROF_TEST_BACKEND_DIR, 1);
    ASSERT_EQ(rocprofiler_force_configure(configure), ROCPROFILER_STATUS_SUCCESS);
  }
};

[[maybe_unused]] ::testing::Environment* const g_environment =
    ::testing::AddGlobalTestEnvironment(new core_environment());

struct report {
  std::string directory, name, path, why;
  bool has_name = false, loaded = false;
  uint64_t agents = 0;
};

std::vector<report> discover(const char* directory) {
  std::vector<report> out;
  EXPECT_EQ(rocprof_backend_discover_agents(
                directory,
                [](const rocprof_backend_discovery_t* found, void* data) {
                  report r;
                  r.directory = found->directory;
                  r.has_name = found->name != nullptr;
                  if (r.has_name) r.name = found->name;
                  if (found->path != nullptr) r.path = found->path;
                  if (found->why != nullptr) r.why = found->why;
                  r.loaded = found->loaded != 0;
                  r.agents = found->agents;
                  static_cast<std::vector<report>*>(data)->push_back(r);
                },
                &out),
            ROCPROFILER_STATUS_SUCCESS);
  return out;
}

TEST(backend_map, a_kind_loads_the_backend_whose_manifest_lists_it) {
  EXPECT_FALSE(seen().loaded_after_markers) << "marker kinds must not load a backend";
  EXPECT_TRUE(seen().registered_after_kernels)
      << "configuring KERNEL_DISPATCH must register the backend listing it, unrequested";
}

TEST(backend_map, a_library_without_a_manifest_is_never_loaded) {
  discover(nullptr);
  EXPECT_EQ(getenv("ROCPROF_TEST_NOT_A_BACKEND_LOADED"), nullptr);
}

TEST(backend_discovery, lists_each_backend_of_the_directory_with_its_agents) {
  for (const char* directory : {static_cast<const char*>(nullptr), ROCPROF_TEST_BACKEND_DIR}) {
    const auto found = discover(directory);
    ASSERT_EQ(found.size(), 1u) << "the library without a manifest is not a backend";
    EXPECT_EQ(found[0].directory, ROCPROF_TEST_BACKEND_DIR);
    EXPECT_EQ(found[0].name, "testbackend");
    EXPECT_EQ(found[0].path, k_backend);
    EXPECT_TRUE(found[0].loaded);
    EXPECT_EQ(found[0].agents, 1u);
    EXPECT_EQ(found[0].why, "");
  }
  bool gpu = false;
  rocprofiler_query_available_agents(
      ROCPROFILER_AGENT_INFO_VERSION_0,
      [](rocprofiler_agent_version_t, const void** agents, size_t n, void* data) {
        for (size_t i = 0; i < n; ++i) {
          const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
          if (a->type == ROCPROFILER_AGENT_TYPE_GPU) *static_cast<bool*>(data) = true;
        }
        return ROCPROFILER_STATUS_SUCCESS;
      },
      sizeof(rocprofiler_agent_v0_t), &gpu);
  EXPECT_TRUE(gpu);
}

TEST(backend_discovery, says_where_it_looked_when_there_is_no_backend) {
  char pattern[] = "/tmp/rocprof-no-backends-XXXXXX";
  const std::string empty = mkdtemp(pattern);
  const auto found = discover(empty.c_str());
  rmdir(empty.c_str());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(found[0].has_name);
  EXPECT_EQ(found[0].directory, empty);
}

TEST(backend_discovery, a_backend_that_cannot_load_says_why) {
  const auto found = discover(ROCPROF_TEST_BROKEN_BACKEND_DIR);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].name, "broken");
  EXPECT_FALSE(found[0].loaded);
  EXPECT_EQ(found[0].agents, 0u);
  EXPECT_NE(found[0].why.find("undefined symbol"), std::string::npos) << found[0].why;
}

}  // namespace
