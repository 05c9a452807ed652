// Agent labels as every format prints them (rocprofv3-facts §3.3): "Agent <node_id>" (absolute),
// "Agent <logical_node_id>" (relative, the default), "CPU <n>" / "GPU <n>" (type-relative, n =
// logical_node_type_id). Perfetto and OTF2 use '-' instead of ' ' ("Agent-4", "GPU-0").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats {

std::string agent_label(const trace::agent_info& agent, trace::agent_index_mode mode,
                        char separator = ' ');

// The index the label shows: node_id, logical_node_id or logical_node_type_id.
uint32_t agent_index(const trace::agent_info& agent, trace::agent_index_mode mode);

// "CPU", "GPU" or "UNK".
std::string_view agent_type_name(trace::agent_type type);

// Labels of all agents of a trace, looked up by agent handle (records carry handles).
class agent_names {
 public:
  agent_names(const trace::trace_definitions& defs, trace::agent_index_mode mode,
              char separator = ' ');
  // Empty for an unknown handle (e.g. the null agent of a free).
  std::string_view label(uint64_t agent_id) const;
  const trace::agent_info* find(uint64_t agent_id) const;

 private:
  std::unordered_map<uint64_t, std::string> labels_;
  std::unordered_map<uint64_t, const trace::agent_info*> agents_;
};

}  // namespace rocprof::formats
