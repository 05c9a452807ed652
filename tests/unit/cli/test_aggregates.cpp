#include <gtest/gtest.h>

#include "command_line.hpp"
#include "passes.hpp"

using namespace rocprof::cli;

namespace {

job expanded(std::vector<std::string> args) {
  job config = parse_command_line(args).options;
  expand_aggregates(config);
  return config;
}

}  // namespace

TEST(Aggregates, SysTraceSetsEveryDomain) {
  const auto c = expanded({"--sys-trace"});
  for (const char* key :
       {"hip_runtime_trace", "hip_compiler_trace", "hsa_core_trace", "hsa_amd_trace",
        "hsa_image_trace", "hsa_finalizer_trace", "marker_trace", "kernel_trace",
        "memory_copy_trace", "memory_allocation_trace", "scratch_memory_trace", "rccl_trace",
        "rocdecode_trace", "rocjpeg_trace", "cuda_runtime_trace", "cuda_driver_trace"}) {
    EXPECT_TRUE(c.flag(key)) << key;
  }
  EXPECT_FALSE(c.has("kernel_rename"));
}

TEST(Aggregates, ExplicitFalseSurvives) {
  const auto c = expanded({"--sys-trace", "--hsa-trace=False", "--cuda-driver-trace", "no"});
  for (const char* key : {"hsa_core_trace", "hsa_amd_trace", "hsa_image_trace",
                          "hsa_finalizer_trace", "cuda_driver_trace"}) {
    EXPECT_FALSE(c.flag(key)) << key;
  }
  EXPECT_TRUE(c.flag("hip_runtime_trace"));
  EXPECT_TRUE(c.flag("cuda_runtime_trace"));
  const auto d = expanded({"-s", "--kernel-trace=0"});
  EXPECT_FALSE(d.flag("kernel_trace"));
  EXPECT_TRUE(d.flag("memory_copy_trace"));
}

TEST(Aggregates, RuntimeTraceLeavesCompilerDriverAndHsa) {
  const auto c = expanded({"-r"});
  EXPECT_TRUE(c.flag("hip_runtime_trace"));
  EXPECT_TRUE(c.flag("cuda_runtime_trace"));
  EXPECT_TRUE(c.flag("kernel_trace"));
  EXPECT_TRUE(c.flag("marker_trace"));
  EXPECT_FALSE(c.flag("hip_compiler_trace"));
  EXPECT_FALSE(c.flag("cuda_driver_trace"));
  EXPECT_FALSE(c.flag("hsa_core_trace"));
}

TEST(Aggregates, GroupsAndKokkos) {
  const auto hip = expanded({"--hip-trace", "--hip-compiler-trace=no"});
  EXPECT_TRUE(hip.flag("hip_runtime_trace"));
  EXPECT_FALSE(hip.flag("hip_compiler_trace"));
  const auto cuda = expanded({"--cuda-trace"});
  EXPECT_TRUE(cuda.flag("cuda_runtime_trace"));
  EXPECT_TRUE(cuda.flag("cuda_driver_trace"));
  const auto kokkos = expanded({"--kokkos-trace"});
  EXPECT_TRUE(kokkos.flag("marker_trace"));
  EXPECT_TRUE(kokkos.flag("kernel_rename"));
  // Step 1 (kokkos) runs before step 2 (sys-trace): an explicit no still wins.
  const auto order = expanded({"--kokkos-trace", "--sys-trace", "--marker-trace=no"});
  EXPECT_FALSE(order.flag("marker_trace"));
  EXPECT_TRUE(order.flag("kernel_rename"));
  // A false aggregate sets nothing.
  EXPECT_FALSE(expanded({"--sys-trace=no"}).has("kernel_trace"));
}
