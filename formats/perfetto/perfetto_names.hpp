// Names rocprofv3 gives Perfetto tracks and slice arguments (rocprofv3-facts.md §3.3, §6).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::trace::perfetto {

// "Agent" and its index per --agent-index: ("Agent", logical_node_id), ("Agent", node_id) or
// ("GPU", logical_node_type_id).
struct agent_label {
  std::string label;
  uint32_t index = 0;
};
agent_label label_of(const agent_info* agent, agent_index_mode mode);
std::string_view type_name(const agent_info* agent);                      // "GPU", "CPU" or "UNK"
std::string dashed_name(const agent_info* agent, agent_index_mode mode);  // "Agent-4"

std::string stream_track_name(uint64_t stream_id);
std::string compute_track_name(const agent_info* agent, agent_index_mode mode, size_t queue_n);
std::string copy_track_name(const agent_info* agent, size_t thread_index);
std::string copy_bytes_track_name(const agent_info* agent, agent_index_mode mode);
std::string allocate_bytes_track_name(const agent_info* agent, agent_index_mode mode);
std::string scratch_track_name(const agent_info* agent, agent_index_mode mode);
std::string pmc_track_name(const agent_info* agent, agent_index_mode mode,
                           std::string_view counter);

}  // namespace rocprof::trace::perfetto
