// --list-avail: what this machine offers. CPU agents come from /proc/cpuinfo; GPU agents from
// the CUDA backend plugin, opened with dlopen and asked through its one plain-C listing entry
// (rocprof_cuda_list_agents_json, a JSON document), so the CLI needs no CUDA header and no
// profiler core.
#pragma once

#include <ostream>
#include <string>

namespace rocprof::cli {

// Prints the CPU agents described by `cpuinfo_path`, then the GPU agents the CUDA plugin at
// `cuda_plugin` lists (empty: $ROCPROF_BACKEND_DIR/librocprofiler-sdk-cuda.so, else the one
// next to the tool library; rocprofv3 passes the one under --rocm-root when given). Without
// GPU agents it prints one line saying so and why.
void print_list_avail(std::ostream& out, const std::string& cpuinfo_path = "/proc/cpuinfo",
                      const std::string& cuda_plugin = "");

}  // namespace rocprof::cli
