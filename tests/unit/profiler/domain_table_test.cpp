// The schema's domain table against the core and the backends: every kind a row traces is a
// kind of the core (the tool configures it by that name), and a backend's manifest lists
// exactly the buffer kinds of the rows that name it, so the core's kind -> backend map and the
// CLI's choice of backend to inject come from the same facts.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <rocprofiler-sdk/backend/backend_abi.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <set>
#include <string>

#include "rocprof/config/domains.hpp"
#include "rocprof/config/schema.hpp"

namespace {

using rocprof::config::schema;
using rocprof::config::words;

template <typename Kind, typename Query>
std::string name_of(Kind kind, Query query) {
  const char* name = nullptr;
  uint64_t length = 0;
  if (query(kind, &name, &length) != ROCPROFILER_STATUS_SUCCESS || name == nullptr) return "?";
  return std::string(name, length);
}

std::set<std::string> buffer_kind_names() {
  std::set<std::string> names;
  for (int k = ROCPROFILER_BUFFER_TRACING_NONE + 1; k < ROCPROFILER_BUFFER_TRACING_LAST; ++k)
    names.insert(name_of(static_cast<rocprofiler_buffer_tracing_kind_t>(k),
                         rocprofiler_query_buffer_tracing_kind_name));
  return names;
}

// The buffer kinds of the rows a backend serves, by name.
std::set<std::string> kinds_served_by(std::string_view backend) {
  std::set<std::string> kinds;
  for (const auto& spec : schema()) {
    if (spec.backend != backend) continue;
    for (auto kind : words(spec.kinds))
      kinds.emplace(kind);
  }
  return kinds;
}

TEST(domain_table, every_traced_kind_is_a_kind_of_the_core) {
  const auto known = buffer_kind_names();
  for (const auto& spec : schema()) {
    for (auto kind : words(spec.kinds)) {
      EXPECT_TRUE(known.count(std::string(kind))) << spec.key << ": " << kind;
    }
  }
}

#ifdef ROCPROF_TEST_CUDA_PLUGIN
TEST(domain_table, the_cuda_manifest_lists_the_kinds_of_the_rows_it_serves) {
  void* plugin = dlopen(ROCPROF_TEST_CUDA_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(plugin, nullptr) << dlerror();
  const auto* manifest = static_cast<const rocprof_backend_manifest_t*>(
      dlsym(plugin, ROCPROF_BACKEND_MANIFEST_SYMBOL));
  ASSERT_NE(manifest, nullptr);
  EXPECT_EQ(manifest->abi_version, static_cast<uint32_t>(ROCPROF_BACKEND_ABI_VERSION));
  ASSERT_NE(rocprof::config::find_backend(manifest->name), nullptr) << manifest->name;
  std::set<std::string> buffer, callback;
  for (uint64_t i = 0; i < manifest->buffer_kinds_count; ++i)
    buffer.insert(name_of(manifest->buffer_kinds[i], rocprofiler_query_buffer_tracing_kind_name));
  for (uint64_t i = 0; i < manifest->callback_kinds_count; ++i)
    callback.insert(
        name_of(manifest->callback_kinds[i], rocprofiler_query_callback_tracing_kind_name));
  EXPECT_EQ(buffer, kinds_served_by(manifest->name));
  EXPECT_EQ(callback, buffer) << "its API and activity kinds are offered both ways";
  // Counter rows (--pmc) name the backend too.
  EXPECT_NE(manifest->counters, 0u);
  EXPECT_EQ(rocprof::config::option("pmc").backend, manifest->name);
}
#endif

}  // namespace
