// rocpd_info_agent.extdata: the agent as rocprofv3 serializes rocprofiler_agent_v0_t, which AMD's
// `rocpd convert` deserializes field by field (a missing key is an error there; see README,
// "Compatibility with AMD's rocpd tool").
#pragma once

#include <string>

#include "rocprof/trace/model.hpp"

namespace rocprof::formats::rocpd {

// JSON object text: the backend's extras (agent_info::extdata_json) plus every key the agent
// loader reads, with the packed firmware-version and capability words split into their named
// bit fields.
std::string agent_extdata(const trace::agent_info& a);

}  // namespace rocprof::formats::rocpd
