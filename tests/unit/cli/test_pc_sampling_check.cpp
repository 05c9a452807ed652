// The CLI's PC-sampling check against the GPU agents' configurations (issue 12 item 2): the
// wording of each error, on a synthetic agent list (what an H100 offers through CUPTI).
#include <gtest/gtest.h>

#include <sstream>

#include "pc_sampling_check.hpp"

namespace rocprof::cli {
namespace {

gpu_agent_list h100() {
  gpu_agent_list list;
  rocprofiler_agent_v0_t gpu{};
  gpu.name = "NVIDIA H100 80GB HBM3";
  gpu.logical_node_type_id = 0;
  list.gpus.push_back(gpu);
  rocprofiler_pc_sampling_configuration_t c{};
  c.size = sizeof(c);
  c.method = ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC;
  c.unit = ROCPROFILER_PC_SAMPLING_UNIT_CYCLES;
  c.min_interval = 32;
  c.max_interval = size_t{1} << 31;
  c.flags = ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2;
  list.pc_sampling.push_back({c});
  return list;
}

TEST(PcSamplingCheck, AnOfferedConfigurationPasses) {
  EXPECT_EQ(pc_sampling_error(h100(), "stochastic", "cycles", 4096), "");
}

TEST(PcSamplingCheck, AnUnofferedMethodListsWhatIsOffered) {
  const std::string e = pc_sampling_error(h100(), "host_trap", "time", 4096);
  EXPECT_NE(e.find("GPU:0 (NVIDIA H100 80GB HBM3) does not offer --pc-sampling-method host_trap"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("it offers: method stochastic, unit cycles, interval 32..2147483648 (a power "
                   "of two)"),
            std::string::npos)
      << e;
}

TEST(PcSamplingCheck, IntervalErrorsNameTheNearestValidValues) {
  std::string e = pc_sampling_error(h100(), "stochastic", "cycles", 5000);
  EXPECT_NE(e.find("must be a power of two"), std::string::npos) << e;
  EXPECT_NE(e.find("4096 and 8192"), std::string::npos) << e;
  e = pc_sampling_error(h100(), "stochastic", "cycles", 16);
  EXPECT_NE(e.find("the nearest valid value is 32"), std::string::npos) << e;
  e = pc_sampling_error(h100(), "stochastic", "cycles", uint64_t{1} << 32);
  EXPECT_NE(e.find("the nearest valid value is 2147483648"), std::string::npos) << e;
}

TEST(PcSamplingCheck, NoGpuOrNoConfigurationIsAnError) {
  gpu_agent_list none;
  none.why_none.push_back("CUDA backend: no CUDA driver");
  EXPECT_NE(pc_sampling_error(none, "stochastic", "cycles", 4096).find("no CUDA driver"),
            std::string::npos);
  gpu_agent_list bare = h100();
  bare.pc_sampling[0].clear();
  EXPECT_NE(pc_sampling_error(bare, "stochastic", "cycles", 4096).find("offers no PC sampling"),
            std::string::npos);
}

TEST(PcSamplingCheck, ListAvailPrintsEachConfiguration) {
  std::ostringstream out;
  print_pc_sampling_configurations(out, h100().pc_sampling[0]);
  EXPECT_NE(out.str().find("Method: stochastic\n      Unit: cycles\n      Min_Interval: 32\n"
                           "      Max_Interval: 2147483648\n      Flags: interval pow2"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace rocprof::cli
