// --list-avail: what this machine offers. CPU agents come from /proc/cpuinfo; GPU agents from
// the profiler core's public agent query, after the core loaded every backend and let each
// register the agents it sees (core_agents.hpp). The CLI names no backend entry point.
#pragma once

#include <rocprofiler-sdk/agent.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace rocprof::cli {

// Prints the counters available with these GPU agents (counter_setup.hpp).
using counter_printer =
    std::function<void(std::ostream&, const std::vector<rocprofiler_agent_v0_t>& gpus)>;

// Prints the CPU agents described by `cpuinfo_path`, then the GPU agents the core lists with the
// backends of `backend_directory` (empty: the core's own search, $ROCPROF_BACKEND_DIR, else the
// directory next to the core; rocprofv3 passes the one under --rocm-root when given). Without
// GPU agents it prints one line saying so and why. Then `counters`, when given, with the GPUs.
void print_list_avail(std::ostream& out, const std::string& cpuinfo_path = "/proc/cpuinfo",
                      const std::string& backend_directory = "",
                      const counter_printer& counters = nullptr);

// One GPU agent's entry of that list.
void print_gpu_agent(std::ostream& out, const rocprofiler_agent_v0_t& agent);

}  // namespace rocprof::cli
