// Pins what each aggregate and tracing option turns on, as rocprofv3's expansion (facts §1.4)
// and this build's CUDA-injection decision did before they were derived from the schema's
// domain table: the expected sets below are written out by hand on purpose.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "environment.hpp"
#include "passes.hpp"
#include "rocprof/test_support/test_env.hpp"

using namespace rocprof::cli;
using rocprof::test_support::temp_dir;

namespace {

// Every key the expansion sets to true, the option's own key included.
std::set<std::string> turned_on(const std::vector<std::string>& args) {
  job config = parse_command_line(args).options;
  expand_aggregates(config);
  std::set<std::string> on;
  for (const auto& [key, value] : config.values) {
    if (config.flag(key)) on.insert(key);
  }
  return on;
}

const std::set<std::string> k_hip = {"hip_runtime_trace", "hip_compiler_trace"};
const std::set<std::string> k_hsa = {"hsa_core_trace", "hsa_amd_trace", "hsa_image_trace",
                                     "hsa_finalizer_trace"};
const std::set<std::string> k_cuda = {"cuda_runtime_trace", "cuda_driver_trace"};

std::set<std::string> plus(std::set<std::string> a, const std::set<std::string>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

}  // namespace

TEST(DomainExpansion, EachAggregateTurnsOnTheSameKeysAsBefore) {
  EXPECT_EQ(turned_on({"--hip-trace"}), plus({"hip_trace"}, k_hip));
  EXPECT_EQ(turned_on({"--hsa-trace"}), plus({"hsa_trace"}, k_hsa));
  EXPECT_EQ(turned_on({"--cuda-trace"}), plus({"cuda_trace"}, k_cuda));
  EXPECT_EQ(turned_on({"--kokkos-trace"}),
            (std::set<std::string>{"kokkos_trace", "marker_trace", "kernel_rename"}));
  EXPECT_EQ(turned_on({"--runtime-trace"}),
            (std::set<std::string>{"runtime_trace", "hip_runtime_trace", "marker_trace",
                                   "kernel_trace", "memory_copy_trace", "memory_allocation_trace",
                                   "scratch_memory_trace", "rccl_trace", "rocdecode_trace",
                                   "rocjpeg_trace", "cuda_runtime_trace"}));
  EXPECT_EQ(
      turned_on({"--sys-trace"}),
      plus(plus(plus({"sys_trace", "hip_trace", "hsa_trace", "cuda_trace", "marker_trace",
                      "kernel_trace", "memory_copy_trace", "memory_allocation_trace",
                      "scratch_memory_trace", "rccl_trace", "rocdecode_trace", "rocjpeg_trace"},
                     k_hip),
                k_hsa),
           k_cuda));
}

TEST(DomainExpansion, ATracingOptionAloneTurnsOnOnlyItself) {
  for (const char* key :
       {"marker_trace", "kernel_trace", "memory_copy_trace", "memory_allocation_trace",
        "scratch_memory_trace", "rccl_trace", "rocdecode_trace", "rocjpeg_trace",
        "hip_runtime_trace", "hip_compiler_trace", "hsa_core_trace", "hsa_amd_trace",
        "hsa_image_trace", "hsa_finalizer_trace", "cuda_runtime_trace", "cuda_driver_trace"}) {
    std::string option = std::string("--") + key;
    for (char& c : option)
      c = c == '_' ? '-' : c;
    EXPECT_EQ(turned_on({option}), std::set<std::string>{key}) << option;
  }
}

TEST(DomainExpansion, OrderAndExplicitValues) {
  // sys-trace sets the groups (set-only-if-unset), which are expanded after it: an explicit
  // "no" on a group keeps its members off, on a member keeps that member off.
  const auto no_hip = turned_on({"--sys-trace", "--hip-trace=no"});
  EXPECT_EQ(no_hip.count("hip_trace") + no_hip.count("hip_runtime_trace") +
                no_hip.count("hip_compiler_trace"),
            0u);
  const auto no_driver = turned_on({"-s", "--cuda-driver-trace=no"});
  EXPECT_TRUE(no_driver.count("cuda_runtime_trace"));
  EXPECT_FALSE(no_driver.count("cuda_driver_trace"));
  // runtime-trace sets hip_runtime_trace directly, so it survives --hip-trace=no.
  const auto runtime = turned_on({"-r", "--hip-trace=no"});
  EXPECT_TRUE(runtime.count("hip_runtime_trace"));
  EXPECT_FALSE(runtime.count("hip_compiler_trace"));
  // Kokkos (step 1) before sys-trace (step 2): both set marker_trace; kernel_rename only kokkos.
  EXPECT_TRUE(turned_on({"--kokkos-trace", "-s"}).count("kernel_rename"));
  EXPECT_FALSE(turned_on({"-s"}).count("kernel_rename"));
  // Both system and runtime trace: the union.
  EXPECT_EQ(turned_on({"-s", "-r"}), plus(turned_on({"-s"}), {"runtime_trace"}));
}

TEST(DomainExpansion, CudaInjectionFollowsTheSameOptionsAsBefore) {
  temp_dir dir;
  std::filesystem::create_directories(dir.path() + "/lib/rocprofiler-sdk");
  dir.write("lib/rocprofiler-sdk/librocprofiler-sdk-cuda.so", "");
  const auto injects = [&dir](std::vector<std::string> args) {
    const auto passes = build_passes(parse_command_line(args));
    const environment base;
    pass_environment_input input;
    input.config = &passes.front().config;
    input.output_path = "/out";
    input.paths.root = dir.path();
    input.base = &base;
    return build_pass_environment(input).changes.count("CUDA_INJECTION64_PATH") == 1;
  };
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"--cuda-runtime-trace"},
                                             {"--cuda-driver-trace"},
                                             {"--cuda-trace"},
                                             {"--kernel-trace"},
                                             {"--memory-copy-trace"},
                                             {"--memory-allocation-trace"},
                                             {"--runtime-trace"},
                                             {"--sys-trace"},
                                             {"--pmc", "A"}}) {
    EXPECT_TRUE(injects(args)) << args[0];
  }
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"--marker-trace"},
           {"--kokkos-trace"},
           {"--hip-trace"},
           {"--hsa-trace"},
           {"--scratch-memory-trace"},
           {"--rccl-trace"},
           {"--rocdecode-trace"},
           {"--rocjpeg-trace"},
           {"--stats", "--marker-trace"},
           {"--sys-trace", "--cuda-trace=no", "--kernel-trace=no", "--memory-copy-trace=no",
            "--memory-allocation-trace=no"}}) {
    EXPECT_FALSE(injects(args)) << args[0];
  }
}
