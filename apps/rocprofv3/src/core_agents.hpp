// GPU agents as the profiler core sees them, for --list-avail. The CLI never links the core: it
// opens the one it was built with (dlopen) and uses two of its C entry points:
// rocprof_backend_discover_agents, which loads every backend (from the core's own backend
// search, or from a given directory) and lets each register the agents it sees, and the public
// rocprofiler_query_available_agents, which lists them.
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <string>
#include <vector>

namespace rocprof::cli {

struct gpu_agent_list {
  // The GPU agents, in the core's order. Their strings point into the core, which stays loaded.
  std::vector<rocprofiler_agent_v0_t> gpus;
  // Per GPU (same order): the PC sampling configurations it offers (empty: none).
  std::vector<std::vector<rocprofiler_pc_sampling_configuration_t>> pc_sampling;
  // With no GPU agent: why, one reason per backend (or one for the core itself).
  std::vector<std::string> why_none;
};

// `core_library`: the path of librocprofiler-sdk.so; `backend_directory`: where the backends
// are, or "" for the core's own search ($ROCPROF_BACKEND_DIR, else next to the core).
gpu_agent_list query_gpu_agents(const std::string& core_library,
                                const std::string& backend_directory);

}  // namespace rocprof::cli
