// OTF2 writer, finish() first half: the events. Each location's intervals come back from the
// interval store in time order and become Enter/Leave pairs; an interval that overlaps the
// open ones without nesting goes to an extra "lane" location. Then counter values (at their
// dispatch's end) and device counter samples become Metric events, one location per agent.
#include <algorithm>

#include "otf2/otf2_check.hpp"
#include "otf2/otf2_writer_impl.hpp"

namespace rocprof::trace::otf2 {

bool otf2_writer::write_events(OTF2_Archive* archive) {
  OTF2_AttributeList* attributes = OTF2_AttributeList_New();
  if (attributes == nullptr) {
    error_ = "OTF2_AttributeList_New failed";
    return false;
  }
  struct attribute_list_deleter {
    OTF2_AttributeList* list;
    ~attribute_list_deleter() { OTF2_AttributeList_Delete(list); }
  } delete_attributes{attributes};

  uint64_t next_location = 1;  // location ids start at 1, in order of creation (§7)
  for (size_t index = 0; index < locations_.size(); ++index)
    if (!write_location_events(archive, index, attributes, next_location)) return false;
  return write_metric_events(archive, next_location);
}

bool otf2_writer::write_location_events(OTF2_Archive* archive, size_t index,
                                        OTF2_AttributeList* attributes, uint64_t& next_location) {
  struct open_slice {
    uint64_t end;
    uint32_t region;
  };
  struct lane {
    OTF2_EvtWriter* writer;
    size_t def;
    std::vector<open_slice> stack;
  };

  const location_key& key = locations_[index];
  const std::string base_name = location_name(key);
  const bool on_agent = key.kind != location_kind::thread;
  std::vector<lane> lanes;
  // A location definition (no events yet) and its event writer; nullptr (error_ set) on failure.
  const auto new_location = [&](const std::string& name) -> OTF2_EvtWriter* {
    const uint64_t id = next_location++;
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, id);
    if (w == nullptr) {
      error_ = "OTF2_Archive_GetEvtWriter failed for location " + std::to_string(id);
      return nullptr;
    }
    location_defs_.push_back(
        {id, string_ref(name),
         on_agent ? OTF2_LOCATION_TYPE_ACCELERATOR_STREAM : OTF2_LOCATION_TYPE_CPU_THREAD,
         on_agent ? group_of(key.agent) : 0, 0});
    return w;
  };
  const auto write_interval = [&](const interval& iv) {
    lane* chosen = nullptr;
    for (lane& l : lanes) {
      while (!l.stack.empty() && l.stack.back().end <= iv.start) {
        ROCPROF_OTF2_CHECK(error_, OTF2_EvtWriter_Leave(l.writer, nullptr, l.stack.back().end,
                                                        l.stack.back().region));
        l.stack.pop_back();
      }
      if (l.stack.empty() || l.stack.back().end >= iv.end) {
        chosen = &l;
        break;
      }
    }
    if (chosen == nullptr) {
      // Overlaps everything open: a new location for this lane.
      OTF2_EvtWriter* w = new_location(
          lanes.empty() ? base_name : base_name + " [lane " + std::to_string(lanes.size()) + "]");
      if (w == nullptr) return false;
      lanes.push_back({w, location_defs_.size() - 1, {}});
      chosen = &lanes.back();
    }
    ROCPROF_OTF2_CHECK(error_, OTF2_AttributeList_AddStringRef(attributes, 0, iv.category));
    ROCPROF_OTF2_CHECK(error_,
                       OTF2_EvtWriter_Enter(chosen->writer, attributes, iv.start, iv.region));
    chosen->stack.push_back({iv.end, iv.region});
    return true;
  };
  if (!store_.drain_sorted(index, write_interval)) {
    if (error_.empty()) error_ = store_.error();
    return false;
  }
  if (lanes.empty()) {
    // A location with no interval (a thread that only made marks) is still defined, with no
    // events: OTF2's reader cannot open an archive that has no location at all.
    OTF2_EvtWriter* w = new_location(base_name);
    if (w == nullptr) return false;
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseEvtWriter(archive, w));
  }
  for (lane& l : lanes) {
    while (!l.stack.empty()) {
      ROCPROF_OTF2_CHECK(error_, OTF2_EvtWriter_Leave(l.writer, nullptr, l.stack.back().end,
                                                      l.stack.back().region));
      l.stack.pop_back();
    }
    uint64_t events = 0;
    ROCPROF_OTF2_CHECK(error_, OTF2_EvtWriter_GetNumberOfEvents(l.writer, &events));
    location_defs_[l.def].events = events;
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseEvtWriter(archive, l.writer));
  }
  return true;
}

// Counter values: one metric location per agent, values at their dispatch's end.
bool otf2_writer::write_metric_events(OTF2_Archive* archive, uint64_t& next_location) {
  for (const counter_value_record& v : counter_values_) {
    const auto it = dispatch_ends_.find(v.dispatch_id);
    if (it == dispatch_ends_.end()) continue;  // no such dispatch: nothing to place it at
    samples_by_agent_[it->second.second].push_back(
        {it->second.first, metric_of(v.counter_id), v.value});
  }
  for (auto& [agent_id, samples] : samples_by_agent_) {
    std::stable_sort(
        samples.begin(), samples.end(),
        [](const metric_sample& a, const metric_sample& b) { return a.timestamp < b.timestamp; });
    const uint64_t id = next_location++;
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, id);
    if (w == nullptr) {
      error_ = "OTF2_Archive_GetEvtWriter failed for metric location " + std::to_string(id);
      return false;
    }
    for (const metric_sample& s : samples) {
      const OTF2_Type type = OTF2_TYPE_DOUBLE;
      OTF2_MetricValue value;
      value.floating_point = s.value;
      ROCPROF_OTF2_CHECK(
          error_, OTF2_EvtWriter_Metric(w, nullptr, s.timestamp, s.metric, 1, &type, &value));
    }
    uint64_t events = 0;
    ROCPROF_OTF2_CHECK(error_, OTF2_EvtWriter_GetNumberOfEvents(w, &events));
    location_defs_.push_back({id, string_ref("Counters on " + agent_text(agent_id)),
                              OTF2_LOCATION_TYPE_METRIC, group_of(agent_id), events});
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseEvtWriter(archive, w));
  }
  return true;
}

}  // namespace rocprof::trace::otf2
