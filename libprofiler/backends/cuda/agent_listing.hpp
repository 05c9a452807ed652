// GPU agents as a JSON document, for `rocprofv3 --list-avail`: the CLI opens this plugin with
// dlopen and calls the exported rocprof_cuda_list_agents_json (agent_listing_entry.cpp), so it
// needs neither the CUDA headers nor a profiler core to list the GPUs.
#pragma once

#include <string>

#include "device_info.hpp"

namespace rocprof::cuda {

// {"agents": [{"ordinal", "name", "uuid", "pci", "compute_capability", "sm_count", ...}],
//  "error": "<why no agent could be listed>" (only when the query failed)}
std::string agents_json(const device_query& q);

}  // namespace rocprof::cuda
