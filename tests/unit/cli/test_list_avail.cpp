#include <gtest/gtest.h>

#include <sstream>

#include "list_avail.hpp"
#include "rocprof/test_support/test_env.hpp"

using rocprof::cli::print_list_avail;
using rocprof::test_support::temp_dir;

TEST(ListAvail, OneCpuAgentPerPackage) {
  temp_dir dir;
  const auto cpuinfo = dir.write("cpuinfo",
                                 "processor\t: 0\nmodel name\t: Alpha CPU\nphysical id\t: 0\n\n"
                                 "processor\t: 1\nmodel name\t: Alpha CPU\nphysical id\t: 0\n\n"
                                 "processor\t: 2\nmodel name\t: Beta CPU\nphysical id\t: 1\n\n");
  std::ostringstream out;
  print_list_avail(out, cpuinfo);
  const std::string text = out.str();
  EXPECT_NE(text.find("CPU:0\n    Name: Alpha CPU\n    Logical processors: 2"), std::string::npos)
      << text;
  EXPECT_NE(text.find("CPU:1\n    Name: Beta CPU\n    Logical processors: 1"), std::string::npos)
      << text;
  EXPECT_NE(text.find("CUDA backend"), std::string::npos);
}

TEST(ListAvail, ThisMachine) {
  std::ostringstream out;
  print_list_avail(out);
  EXPECT_NE(out.str().find("CPU:0"), std::string::npos) << out.str();
}

TEST(ListAvail, AGpuAgentReadsAsTheListingAlwaysDid) {
  rocprofiler_agent_v0_t agent{};
  agent.size = sizeof(agent);
  agent.type = ROCPROFILER_AGENT_TYPE_GPU;
  agent.logical_node_type_id = 1;
  agent.name = "NVIDIA H100 80GB HBM3";
  for (int i = 0; i < 16; ++i)
    agent.uuid.bytes[i] = static_cast<uint8_t>(0xA0 + i);
  agent.domain = 0;
  agent.location_id = (0x1b << 8) | (2 << 3);
  agent.gfx_target_version = 90;
  agent.cu_count = 132;
  agent.wave_front_size = 32;
  agent.workgroup_max_size = 1024;
  agent.workgroup_max_lds_size = 49152;
  agent.max_engine_clk_fcompute_khz = 1980000;
  agent.local_mem_size = 85029158912ULL;
  std::ostringstream out;
  rocprof::cli::print_gpu_agent(out, agent);
  EXPECT_EQ(out.str(),
            "  GPU:1\n"
            "    Name: NVIDIA H100 80GB HBM3\n"
            "    UUID: GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf\n"
            "    PCI location: 0000:1b:02.0\n"
            "    Compute capability: 9.0\n"
            "    Compute units (SMs): 132\n"
            "    Wavefront (warp) size: 32\n"
            "    Max threads per block: 1024\n"
            "    Shared memory per block (bytes): 49152\n"
            "    Clock (kHz): 1980000\n"
            "    Memory (bytes): 85029158912\n");
}

TEST(ListAvail, WithoutBackendsTheLineSaysWhereTheCoreLooked) {
  temp_dir dir;
  std::ostringstream out;
  print_list_avail(out, "/proc/cpuinfo", dir.path());
  EXPECT_NE(out.str().find("GPU agents: none found (the CUDA backend is not part of this build (" +
                           dir.path() + "/librocprofiler-sdk-cuda.so not found))\n"),
            std::string::npos)
      << out.str();
}
