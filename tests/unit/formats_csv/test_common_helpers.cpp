// Shared writer helpers (formats/common) and the writer registry.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/agent_names.hpp"
#include "common/kernel_names.hpp"
#include "common/trace_stats.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;

TEST(agent_names, index_modes_and_separator) {
  trace::agent_info gpu;
  gpu.type = trace::agent_type::gpu;
  gpu.node_id = 4;
  gpu.logical_node_id = 2;
  gpu.logical_node_type_id = 0;
  EXPECT_EQ(formats::agent_label(gpu, trace::agent_index_mode::absolute), "Agent 4");
  EXPECT_EQ(formats::agent_label(gpu, trace::agent_index_mode::relative), "Agent 2");
  EXPECT_EQ(formats::agent_label(gpu, trace::agent_index_mode::type_relative), "GPU 0");
  EXPECT_EQ(formats::agent_label(gpu, trace::agent_index_mode::absolute, '-'), "Agent-4");
  trace::agent_info cpu;
  cpu.type = trace::agent_type::cpu;
  EXPECT_EQ(formats::agent_label(cpu, trace::agent_index_mode::type_relative, '-'), "CPU-0");
  auto defs = ts::make_synthetic_definitions({});
  formats::agent_names names{defs, trace::agent_index_mode::relative};
  EXPECT_EQ(names.label(ts::synthetic_gpu_agent_id(1)), "Agent 2");
  EXPECT_EQ(names.label(0), "");
}

TEST(kernel_names, rename_uses_the_region) {
  auto t = ts::make_synthetic_trace({});
  trace::output_options o;
  formats::kernel_names plain{t.defs, o};
  o.kernel_rename = true;
  formats::kernel_names renamed{t.defs, o};
  const auto& k = t.kernels[0];  // even dispatches carry a region name
  ASSERT_NE(k.region_name, 0u);
  EXPECT_EQ(plain.name(k), t.defs.kernel_symbols[0].display_name);
  EXPECT_EQ(renamed.name(k), t.defs.str(k.region_name));
  EXPECT_EQ(renamed.name(t.kernels[1]), t.defs.kernel_symbols[1].display_name);
}

TEST(duration_stats, welford_merge_matches_direct) {
  formats::duration_stats all, a, b;
  const uint64_t values[] = {5, 17, 3, 99, 42, 8, 1000};
  for (size_t i = 0; i < 7; ++i) {
    all.add(values[i]);
    (i < 3 ? a : b).add(values[i]);
  }
  a.merge(b);
  EXPECT_EQ(a.count, all.count);
  EXPECT_EQ(a.total, all.total);
  EXPECT_EQ(a.min, 3u);
  EXPECT_EQ(a.max, 1000u);
  EXPECT_NEAR(a.stddev(), all.stddev(), 1e-9);
  // Sample standard deviation (n - 1) of {5,17,3,99,42,8,1000}, from Python statistics.stdev.
  EXPECT_NEAR(all.stddev(), 368.568272, 1e-5);
  formats::duration_stats one;
  one.add(7);
  EXPECT_EQ(one.stddev(), 0.0);
}

TEST(writer_registry, names_and_errors) {
  auto names = trace::writer_names();
  for (const char* n : {"rocpd", "csv", "json", "summary", "config"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  trace::output_options o;
  std::string error;
  EXPECT_TRUE(trace::make_writer("RoCpD", o, &error));
  EXPECT_FALSE(trace::make_writer("xml", o, &error));
  EXPECT_NE(error.find("unknown output format 'xml'"), std::string::npos) << error;
}

}  // namespace
