// The agent as rocprofv3 serializes rocprofiler_agent_v0_t: the JSON output's "agents" entries
// and rocpd's rocpd_info_agent.extdata, which AMD's `rocpd convert` deserializes field by field
// (a missing key is an error there; see formats/rocpd/README.md, "Compatibility with AMD's rocpd
// tool"). Internal to the writers: it exposes nlohmann's type.
#pragma once

#include <nlohmann/json.hpp>

#include "rocprof/trace/model.hpp"

namespace rocprof::formats {

// The backend's extras (agent_info::extdata_json) plus every key the agent loader reads, with
// the packed firmware-version and capability words split into their named bit fields, and ours:
// the agent handle the records use ("handle") and the device UUID text ("device_uuid").
nlohmann::ordered_json agent_json(const trace::agent_info& a);

}  // namespace rocprof::formats
