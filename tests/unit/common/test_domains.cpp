// The schema's domain table holds together: aggregates expand to real options in rocprofv3's
// order, tracing rows are tool settings, backends and shared buffers are consistent, and the
// settings JSON names follow the tool's variables.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "rocprof/config/domains.hpp"
#include "rocprof/config/schema.hpp"

using namespace rocprof::config;

TEST(Domains, AggregatesExpandToBooleanOptionsInRocprofv3sOrder) {
  std::vector<std::string_view> order;
  for (const option_spec* aggregate : aggregates_in_expansion_order()) {
    order.push_back(aggregate->key);
    EXPECT_EQ(aggregate->type, value_type::boolean) << aggregate->key;
    for (auto key : words(aggregate->expands)) {
      const option_spec* target = find_option(key);
      ASSERT_NE(target, nullptr) << aggregate->key << " expands to unknown " << key;
      EXPECT_EQ(target->type, value_type::boolean) << key;
      // An aggregate set by another must be expanded after it.
      if (!target->expands.empty()) {
        EXPECT_GT(target->expansion_step, aggregate->expansion_step) << key;
      }
    }
  }
  // facts §1.4: kokkos, sys, runtime, hip, hsa; this build adds the CUDA group last.
  EXPECT_EQ(order, (std::vector<std::string_view>{"kokkos_trace", "sys_trace", "runtime_trace",
                                                  "hip_trace", "hsa_trace", "cuda_trace"}));
}

TEST(Domains, TracingRowsAreToolSettingsAndCollect) {
  for (const auto& spec : schema()) {
    SCOPED_TRACE(std::string(spec.key));
    if (!spec.kinds.empty()) {
      EXPECT_TRUE(spec.domain) << "a row that traces kinds is a tracing domain";
    }
    if (spec.domain) {
      EXPECT_EQ(spec.form, env_form::flag);
      EXPECT_EQ(spec.type, value_type::boolean);
      EXPECT_TRUE(collects(spec));
    }
    if (!spec.expands.empty() && spec.kinds.empty() && !spec.collects) {
      EXPECT_FALSE(collects(spec)) << "an aggregate collects through what it expands to";
    }
  }
  for (const char* key : {"pmc", "pmc_groups", "advanced_thread_trace", "pc_sampling_method",
                          "kokkos_trace", "kernel_trace", "marker_trace"}) {
    EXPECT_TRUE(collects(option(key))) << key;
  }
  for (const char* key : {"sys_trace", "stats", "summary", "output_format", "kernel_rename"}) {
    EXPECT_FALSE(collects(option(key))) << key;
  }
}

TEST(Domains, BackendsAndSharedBuffersAreConsistent) {
  std::map<std::string_view, std::string_view> backend_of_buffer;
  std::set<std::string_view> kinds;
  for (const auto& spec : schema()) {
    SCOPED_TRACE(std::string(spec.key));
    if (!spec.backend.empty()) {
      EXPECT_NE(find_backend(spec.backend), nullptr) << spec.backend;
      EXPECT_FALSE(spec.amd_only) << "this build has no backend for AMD-only rows";
    }
    if (!spec.shared_buffer.empty()) {
      const auto [it, first] = backend_of_buffer.emplace(spec.shared_buffer, spec.backend);
      if (!first) {
        EXPECT_EQ(it->second, spec.backend) << "one shared buffer, one backend";
      }
    }
    for (auto kind : words(spec.kinds)) {
      EXPECT_TRUE(kinds.insert(kind).second) << kind << " is traced by two rows";
    }
  }
  for (const auto& backend : backends()) {
    EXPECT_FALSE(backend.label.empty());
    EXPECT_FALSE(backend.injection.empty());
  }
}

TEST(Domains, SettingNamesFollowTheToolsVariables) {
  EXPECT_EQ(setting_name(option("marker_trace")), "marker_api_trace");
  EXPECT_EQ(setting_name(option("hsa_amd_trace")), "hsa_amd_ext_api_trace");
  EXPECT_EQ(setting_name(option("cuda_driver_trace")), "cuda_driver_api_trace");
  EXPECT_EQ(setting_name(option("kokkos_trace")), "kokkos_trace");
  std::set<std::string> names;
  for (const auto& spec : schema()) {
    if (spec.domain) {
      EXPECT_TRUE(names.insert(setting_name(spec)).second) << spec.key;
    }
  }
  EXPECT_EQ(names.size(), 17u);
}

TEST(Domains, ChoicesAreFoundWithoutRegardToCase) {
  const option_spec& formats = option("output_format");
  EXPECT_EQ(find_choice(formats, "PFTRACE"), std::optional<std::string_view>("pftrace"));
  EXPECT_EQ(find_choice(formats, "Rocpd"), std::optional<std::string_view>("rocpd"));
  EXPECT_EQ(find_choice(formats, "rocp"), std::nullopt);
  EXPECT_EQ(find_choice(formats, ""), std::nullopt);
}
