// The --list-avail document the plugin hands the CLI (agent_listing.hpp), read back as JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "agent_listing.hpp"

namespace rocprof::cuda {
namespace {

TEST(agent_listing, lists_each_device_with_its_properties) {
  device_query q;
  gpu_agent a;
  a.device_ordinal = 1;
  a.name = "NVIDIA H100 80GB HBM3";
  for (int i = 0; i < 16; ++i)
    a.uuid_bytes[i] = static_cast<unsigned char>(0xA0 + i);
  a.uuid = format_uuid(a.uuid_bytes);
  a.pci_domain = 0;
  a.pci_bus = 0x1b;
  a.pci_device = 2;
  a.sm_count = 132;
  a.warp_size = 32;
  a.compute_major = 9;
  a.compute_minor = 0;
  a.total_memory = 85029158912ULL;
  q.devices.push_back(a);
  const auto doc = nlohmann::json::parse(agents_json(q));
  ASSERT_EQ(doc.at("agents").size(), 1U);
  EXPECT_FALSE(doc.contains("error"));
  const auto& g = doc.at("agents")[0];
  EXPECT_EQ(g.at("ordinal"), 1);
  EXPECT_EQ(g.at("name"), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(g.at("uuid"), "GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
  EXPECT_EQ(g.at("pci"), "0000:1b:02.0");
  EXPECT_EQ(g.at("compute_capability"), "9.0");
  EXPECT_EQ(g.at("sm_count"), 132);
  EXPECT_EQ(g.at("total_memory"), 85029158912ULL);
}

TEST(agent_listing, a_failed_query_says_why_and_lists_nothing) {
  device_query q;
  q.error = "no CUDA driver (libcuda.so.1 not found)";
  const auto doc = nlohmann::json::parse(agents_json(q));
  EXPECT_TRUE(doc.at("agents").empty());
  EXPECT_EQ(doc.at("error"), q.error);
}

}  // namespace
}  // namespace rocprof::cuda
