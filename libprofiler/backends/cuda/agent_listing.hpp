// GPU agents for listings (`rocprofv3 --list-avail`): the core asks the plugin through the
// backend ABI's discover_agents (backend_entry.cpp) to register every device the driver reports,
// and the CLI reads them back with the core's public agent query. Tracing registers its agents
// itself when CUDA creates a context (cupti_session).
#pragma once

#include <cstdint>
#include <string>

#include "backend_sink.hpp"
#include "device_info.hpp"

namespace rocprof::cuda {

// Registers every device of `q` with `sink`, in ordinal order, and returns how many. With none,
// `why` says why (the driver's error, or that it reports no device).
uint64_t register_listed_agents(const device_query& q, backend_sink& sink, std::string& why);

}  // namespace rocprof::cuda
