#include "perfetto/perfetto_names.hpp"

#include "common/agent_names.hpp"

namespace rocprof::trace::perfetto {

agent_label label_of(const agent_info* agent, agent_index_mode mode) {
  if (agent == nullptr) return {"Agent", 0};
  const std::string_view kind =
      mode == agent_index_mode::type_relative ? formats::agent_type_name(agent->type) : "Agent";
  return {std::string(kind), formats::agent_index(*agent, mode)};
}

std::string_view type_name(const agent_info* agent) {
  return formats::agent_type_name(agent != nullptr ? agent->type : agent_type::unknown);
}

std::string dashed_name(const agent_info* agent, agent_index_mode mode) {
  return agent != nullptr ? formats::agent_label(*agent, mode, '-') : std::string("Agent-0");
}

namespace {
std::string bracketed(const agent_info* agent, agent_index_mode mode) {
  const agent_label l = label_of(agent, mode);
  return l.label + " [" + std::to_string(l.index) + "]";
}
}  // namespace

// rocprofv3 writes `"STREAM [" << id << "] "`; the trailing space is dropped here, as its own
// rocpd converter does, because the UI trims it anyway and it only hurts exact-name queries.
std::string stream_track_name(uint64_t stream_id) {
  return "STREAM [" + std::to_string(stream_id) + "]";
}

std::string compute_track_name(const agent_info* agent, agent_index_mode mode, size_t queue_n) {
  return "COMPUTE " + bracketed(agent, mode) + " QUEUE [" + std::to_string(queue_n) + "] " +
         std::string(type_name(agent));
}

std::string copy_track_name(const agent_info* agent, size_t thread_index) {
  const uint32_t node = agent != nullptr ? agent->logical_node_id : 0;
  return "COPY to AGENT [" + std::to_string(node) + "] THREAD [" + std::to_string(thread_index) +
         "] (" + std::string(type_name(agent)) + ")";
}

std::string copy_bytes_track_name(const agent_info* agent, agent_index_mode mode) {
  return "COPY BYTES to " + bracketed(agent, mode) + " (" + std::string(type_name(agent)) + ")";
}

std::string allocate_bytes_track_name(const agent_info* agent, agent_index_mode mode) {
  return "ALLOCATE BYTES on " + bracketed(agent, mode) + " (" + std::string(type_name(agent)) + ")";
}

std::string scratch_track_name(const agent_info* agent, agent_index_mode mode) {
  return "SCRATCH MEMORY on " + bracketed(agent, mode) + " (" + std::string(type_name(agent)) + ")";
}

std::string pmc_track_name(const agent_info* agent, agent_index_mode mode,
                           std::string_view counter) {
  return bracketed(agent, mode) + " PMC " + std::string(counter);
}

}  // namespace rocprof::trace::perfetto
