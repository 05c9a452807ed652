// Agents: CPU agents discovered from the system, GPU agents registered by backends.
#pragma once

#include "rocprofiler-sdk/agent.h"

namespace rocprof::core {

/// Deep-copies the agent (strings and arrays included) and returns its new handle.
rocprofiler_agent_id_t register_gpu_agent(const rocprofiler_agent_v0_t* agent);
/// Whether an agent with this id exists (CPU or GPU).
bool agent_known(rocprofiler_agent_id_t id);

/// The agent with this id (valid until process exit), or nullptr.
const rocprofiler_agent_v0_t* find_agent(rocprofiler_agent_id_t id);

}  // namespace rocprof::core
