// The GPU agents the plugin registers for `--list-avail` (agent_listing.hpp): every device the
// driver reports, with its properties, or the reason there is none. (The CLI's text is checked
// in tests/unit/cli, the agent fields in test_abi_sink.)
#include <gtest/gtest.h>

#include "agent_listing.hpp"
#include "recording_sink.hpp"

namespace rocprof::cuda {
namespace {

TEST(agent_listing, registers_each_device_with_its_properties) {
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
  test::recording_sink sink;
  std::string why;
  EXPECT_EQ(register_listed_agents(q, sink, why), 1U);
  EXPECT_TRUE(why.empty()) << why;
  ASSERT_EQ(sink.agents.size(), 1U);
  const gpu_agent& g = sink.agents[0];
  EXPECT_EQ(g.device_ordinal, 1);
  EXPECT_EQ(g.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(g.uuid, "GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
  EXPECT_EQ(g.pci_bus, 0x1bU);
  EXPECT_EQ(g.pci_device, 2U);
  EXPECT_EQ(g.compute_major, 9U);
  EXPECT_EQ(g.sm_count, 132U);
  EXPECT_EQ(g.total_memory, 85029158912ULL);
}

TEST(agent_listing, a_failed_query_says_why_and_registers_nothing) {
  device_query q;
  q.error = "no CUDA driver (libcuda.so.1 not found)";
  test::recording_sink sink;
  std::string why;
  EXPECT_EQ(register_listed_agents(q, sink, why), 0U);
  EXPECT_TRUE(sink.agents.empty());
  EXPECT_EQ(why, q.error);
}

}  // namespace
}  // namespace rocprof::cuda
