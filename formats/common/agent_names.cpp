#include "common/agent_names.hpp"

#include <fmt/format.h>

namespace rocprof::formats {

uint32_t agent_index(const trace::agent_info& agent, trace::agent_index_mode mode) {
  switch (mode) {
    case trace::agent_index_mode::absolute:
      return agent.node_id;
    case trace::agent_index_mode::relative:
      return agent.logical_node_id;
    case trace::agent_index_mode::type_relative:
      return agent.logical_node_type_id;
  }
  return agent.logical_node_id;
}

std::string_view agent_type_name(trace::agent_type type) {
  switch (type) {
    case trace::agent_type::cpu:
      return "CPU";
    case trace::agent_type::gpu:
      return "GPU";
    case trace::agent_type::unknown:
      break;
  }
  return "UNK";
}

std::string agent_label(const trace::agent_info& agent, trace::agent_index_mode mode,
                        char separator) {
  std::string_view kind = "Agent";
  if (mode == trace::agent_index_mode::type_relative) kind = agent_type_name(agent.type);
  return fmt::format("{}{}{}", kind, separator, agent_index(agent, mode));
}

agent_names::agent_names(const trace::trace_definitions& defs, trace::agent_index_mode mode,
                         char separator) {
  for (const auto& a : defs.agents) {
    labels_.emplace(a.id, agent_label(a, mode, separator));
    agents_.emplace(a.id, &a);
  }
}

std::string_view agent_names::label(uint64_t agent_id) const {
  auto it = labels_.find(agent_id);
  return it == labels_.end() ? std::string_view{} : std::string_view{it->second};
}

const trace::agent_info* agent_names::find(uint64_t agent_id) const {
  auto it = agents_.find(agent_id);
  return it == agents_.end() ? nullptr : it->second;
}

}  // namespace rocprof::formats
