// The one place where the CLI loads profiler libraries (it never links them):
//   * GPU agents as the profiler core sees them (--list-avail, and the GPUs --pmc is checked
//     against): it opens the core it was built with (dlopen) and uses two of its C entry
//     points: rocprof_backend_discover_agents, which loads every backend (from the core's own
//     backend search, or from a given directory) and lets each register the agents it sees,
//     and the public rocprofiler_query_available_agents, which lists them;
//   * a backend plugin's offline counter entry points (the chip's native counters and pass
//     counts), named by the domain table's backend_spec, which need neither the core nor a GPU.
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <memory>
#include <string>
#include <vector>

#include "native_counters.hpp"
#include "rocprof/config/domains.hpp"

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

// The counter entry points of `backend`'s plugin at `plugin_path` (kept loaded for the life of
// the process, as CUPTI keeps threads in it). nullptr with `why` when the file is missing, cannot
// be loaded or lacks them.
std::unique_ptr<counter_backend> open_backend_counters(const config::backend_spec& backend,
                                                       const std::string& plugin_path,
                                                       std::string& why);

}  // namespace rocprof::cli
