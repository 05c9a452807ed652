// The offline --list-avail document: built from the real libcupti, read back with nlohmann/json,
// through the library function and through the plugin's exported C entry point. The last test
// measures the costs that libprofiler/backends/cuda/README.md reports.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "metrics/metric_listing.hpp"
#include "real_profiler_host.hpp"

namespace rocprof::cuda {
namespace {

void expect_gh100_document(const nlohmann::json& doc) {
  EXPECT_FALSE(doc.contains("error")) << (doc.contains("error") ? doc.at("error").dump() : "");
  EXPECT_EQ(doc.at("chip"), "GH100");
  EXPECT_EQ(doc.at("architecture"), "sm_90");
  EXPECT_EQ(doc.at("profiler_type"), "range_profiler");
  EXPECT_GT(doc.at("max_hardware_metrics_per_pass").get<size_t>(), 0U);
  const auto& counts = doc.at("counts");
  EXPECT_GE(counts.at("counter").get<size_t>(), 3000U);
  EXPECT_EQ(counts.at("base").get<size_t>(), doc.at("metrics").size());
  const auto& sets = doc.at("sub_metric_sets");
  ASSERT_GE(sets.size(), 3U);  // at least one list per metric type
  size_t full = 0;
  bool found = false;
  for (const auto& m : doc.at("metrics")) {
    const auto& subs = sets.at(m.at("sub_metric_set").get<size_t>());
    full += subs.size();
    if (m.at("name") == "smsp__warps_launched") {
      found = true;
      EXPECT_EQ(m.at("type"), "counter");
      EXPECT_EQ(m.at("description"), "# of warps launched");
      EXPECT_EQ(m.at("hw_unit"), "smsp");
      EXPECT_EQ(m.at("dimension_unit"), "warp");
      const std::set<std::string> names(subs.begin(), subs.end());
      EXPECT_EQ(names.count(".sum"), 1U);
      EXPECT_EQ(names.count(".sum.per_second"), 1U);
    }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(counts.at("full").get<size_t>(), full);
}

class cupti_listing : public test::real_profiler_host_test {};

TEST_F(cupti_listing, gh100_by_chip_and_by_architecture) {
  const auto by_chip = nlohmann::json::parse(list_metrics_json(api, "", "GH100", 0));
  expect_gh100_document(by_chip);
  EXPECT_EQ(by_chip.at("requested"), "GH100");
  EXPECT_GE(by_chip.at("supported_chips").size(), 20U);
  const auto by_arch = nlohmann::json::parse(list_metrics_json(api, "", "sm_90", 0));
  EXPECT_EQ(by_arch.at("requested"), "sm_90");
  EXPECT_EQ(by_arch.at("chip"), "GH100");
  EXPECT_EQ(by_arch.at("metrics").size(), by_chip.at("metrics").size());
  const auto pm = nlohmann::json::parse(list_metrics_json(api, "", "GH100", 1));
  EXPECT_EQ(pm.at("profiler_type"), "pm_sampling");
  EXPECT_LT(pm.at("metrics").size(), by_chip.at("metrics").size());
}

TEST_F(cupti_listing, errors_are_documents_too) {
  const auto unknown = nlohmann::json::parse(list_metrics_json(api, "", "XX999", 0));
  EXPECT_NE(unknown.at("error").get<std::string>().find("XX999"), std::string::npos);
  EXPECT_GE(unknown.at("supported_chips").size(), 20U);
  EXPECT_FALSE(unknown.contains("metrics"));
  const auto no_chip = nlohmann::json::parse(list_metrics_json(api, "", "sm_95", 0));
  EXPECT_EQ(no_chip.at("error"), "no chip of architecture 'sm_95' is known");
  const auto unnamed = nlohmann::json::parse(list_metrics_json(api, "", "", 0));
  EXPECT_TRUE(unnamed.contains("error"));
  const auto bad_type = nlohmann::json::parse(list_metrics_json(api, "", "GH100", 7));
  EXPECT_TRUE(bad_type.contains("error"));
  const auto no_cupti =
      nlohmann::json::parse(list_metrics_json(nullptr, "libcupti not found", "GH100", 0));
  EXPECT_EQ(no_cupti.at("error"), "libcupti not found");
}

TEST_F(cupti_listing, the_plugin_exports_the_listing) {
  void* plugin = dlopen(ROCPROF_CUDA_PLUGIN_FILE, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(plugin, nullptr) << dlerror();
  using list_fn = const char* (*)(const char*, int);
  auto list = reinterpret_cast<list_fn>(dlsym(plugin, "rocprof_cuda_list_metrics_json"));
  ASSERT_NE(list, nullptr) << dlerror();
  const char* text = list("sm_90", 0);
  ASSERT_NE(text, nullptr);
  expect_gh100_document(nlohmann::json::parse(text));
  EXPECT_EQ(list("sm_90", 0), text);  // cached, stable while the plugin is loaded
  EXPECT_TRUE(nlohmann::json::parse(list(nullptr, 0)).contains("error"));
  dlclose(plugin);
}

// Not a check: prints what README.md reports (first host object of a process, enumeration,
// expanding every sub-metric list, properties, the listing and a validity check).
TEST_F(cupti_listing, measure_catalogue_costs) {
  using clock = std::chrono::steady_clock;
  auto ms = [](clock::time_point since) {
    return std::chrono::duration<double, std::milli>(clock::now() - since).count();
  };
  host_target target{"GH100", CUPTI_PROFILER_TYPE_RANGE_PROFILER, {}};
  auto t = clock::now();
  std::unique_ptr<metric_catalogue> cat;
  ASSERT_TRUE(metric_catalogue::open(*api, target, cat).ok());
  const double first_open = ms(t);
  t = clock::now();
  std::unique_ptr<metric_catalogue> second;
  ASSERT_TRUE(metric_catalogue::open(*api, target, second).ok());
  const double next_open = ms(t);
  t = clock::now();
  const size_t bases = cat->base_metric_count();
  const double enumerate = ms(t);
  t = clock::now();
  const size_t full = cat->full_metric_count();
  const double expand = ms(t);
  t = clock::now();
  for (CUpti_MetricType type : all_metric_types)
    for (const std::string& base : cat->base_metrics(type))
      cat->properties(base);
  const double properties = ms(t);
  t = clock::now();
  const bool valid = cat->check("smsp__inst_executed.sum").valid;
  const double check = ms(t);
  t = clock::now();
  const size_t bytes = list_metrics_json(api, "", "GH100", 0).size();
  const double listing = ms(t);
  EXPECT_TRUE(valid);
  std::printf(
      "[measure] GH100 range profiler: first host object %.1f ms, next %.2f ms; %zu base "
      "metrics in %.1f ms; %zu full names (all sub-metric lists) in %.1f ms; properties of all "
      "base metrics %.1f ms; one validity check %.2f ms; listing %zu bytes in %.1f ms\n",
      first_open, next_open, bases, enumerate, full, expand, properties, check, bytes, listing);
}

}  // namespace
}  // namespace rocprof::cuda
