// --pc-sampling-method/-unit/-interval against what the GPU agents offer, before the
// application is launched (issue 12 item 2): an unoffered method or unit names what is offered,
// an interval out of range or not a power of two names the nearest valid values.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "core_agents.hpp"

namespace rocprof::cli {

// "" when every GPU agent takes the request; otherwise the error, naming the agent.
std::string pc_sampling_error(const gpu_agent_list& agents, const std::string& method,
                              const std::string& unit, uint64_t interval);

// The PC sampling configurations of one agent, in rocprofv3-avail's layout (Method, Unit,
// Min_Interval, Max_Interval, Flags), for --list-avail.
void print_pc_sampling_configurations(
    std::ostream& out, const std::vector<rocprofiler_pc_sampling_configuration_t>& configs);

}  // namespace rocprof::cli
