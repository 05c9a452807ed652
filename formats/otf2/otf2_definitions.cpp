// OTF2 writer, finish() second half: the definitions. Location names (rocprofv3-facts.md §7),
// the empty local definition files, and the global definitions: clock properties, strings, the
// `category` attribute, regions, the system tree node, location groups (the process, one per
// agent), locations and metrics.
#include <time.h>

#include <algorithm>

#include "otf2/otf2_check.hpp"
#include "otf2/otf2_writer_impl.hpp"

namespace rocprof::trace::otf2 {
namespace {

uint64_t clock_ns(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(t.tv_nsec);
}

}  // namespace

std::string otf2_writer::location_name(const location_key& key) {
  const std::string thread = "Thread " + std::to_string(key.tid);
  switch (key.kind) {
    case location_kind::thread:
      return thread;
    case location_kind::copy:
      return thread + ", Copy to " + agent_text(key.agent);
    case location_kind::allocation:
      return thread + ", Memory Operation at " + agent_text(key.agent);
    case location_kind::memory_set:
      return thread + ", Memory Set on " + agent_text(key.agent);
    case location_kind::compute:
      break;
  }
  // Queues are numbered 0.. per agent in sorted handle order (§7).
  size_t n = 0;
  std::vector<uint64_t> queues;
  for (const auto& [k, index] : location_index_)
    if (k.kind == location_kind::compute && k.agent == key.agent) queues.push_back(k.queue);
  std::sort(queues.begin(), queues.end());
  queues.erase(std::unique(queues.begin(), queues.end()), queues.end());
  n = static_cast<size_t>(std::lower_bound(queues.begin(), queues.end(), key.queue) -
                          queues.begin());
  return thread + ", Compute on " + agent_text(key.agent) + ", Queue " + std::to_string(n);
}

// Every location needs its (empty) local definition file.
bool otf2_writer::write_local_definitions(OTF2_Archive* archive) {
  ROCPROF_OTF2_CHECK(error_, OTF2_Archive_OpenDefFiles(archive));
  for (const location_def& l : location_defs_) {
    OTF2_DefWriter* w = OTF2_Archive_GetDefWriter(archive, l.id);
    if (w == nullptr) {
      error_ = "OTF2_Archive_GetDefWriter failed for location " + std::to_string(l.id);
      return false;
    }
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseDefWriter(archive, w));
  }
  ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseDefFiles(archive));
  return true;
}

bool otf2_writer::write_definitions(OTF2_Archive* archive) {
  if (!write_local_definitions(archive)) return false;
  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
  if (g == nullptr) {
    error_ = "OTF2_Archive_GetGlobalDefWriter failed";
    return false;
  }

  // The offset must not exceed any timestamp; the process start is used when it does not.
  uint64_t offset = min_ts_ == ~0ull ? 0 : min_ts_;
  if (defs_->process.start_ns != 0) offset = std::min(offset, defs_->process.start_ns);
  const uint64_t last = std::max(max_ts_, defs_->process.end_ns);
  const uint64_t length = last > offset ? last - offset : 0;
  const uint64_t boot_now = clock_ns(CLOCK_BOOTTIME);
  const uint64_t real_now = clock_ns(CLOCK_REALTIME);
  const uint64_t realtime = boot_now >= offset && real_now >= boot_now - offset
                                ? real_now - (boot_now - offset)
                                : OTF2_UNDEFINED_TIMESTAMP;

  // Every string a later definition names is made before the strings are written.
  const auto& command = defs_->process.command;
  const std::string exe = command.empty() ? std::string("process") : command.front();
  const uint32_t exe_ref = string_ref(exe);
  const uint32_t host_ref = string_ref(defs_->node.hostname);
  const uint32_t category_ref = string_ref("category");
  const uint32_t category_desc_ref = string_ref("tracing category");
  std::vector<uint32_t> agent_name_refs;
  for (const auto& a : defs_->agents)
    agent_name_refs.push_back(string_ref(a.name));
  struct metric_strings {
    uint32_t name, description, unit;
  };
  std::vector<metric_strings> metric_refs;
  for (const uint64_t counter_id : metric_counters_) {
    std::string name = "counter " + std::to_string(counter_id), description, unit;
    for (const auto& c : defs_->counters)
      if (c.id == counter_id) {
        name = c.name;
        description = c.description;
        unit = c.units;
      }
    metric_refs.push_back({string_ref(name), string_ref(description), string_ref(unit)});
  }

  ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteClockProperties(g, 1'000'000'000ull, offset,
                                                                       length, realtime));
  for (size_t i = 0; i < strings_.size(); ++i)
    ROCPROF_OTF2_CHECK(
        error_, OTF2_GlobalDefWriter_WriteString(g, static_cast<uint32_t>(i), strings_[i].c_str()));
  ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteAttribute(
                                 g, 0, category_ref, category_desc_ref, OTF2_TYPE_STRING));
  for (size_t i = 0; i < regions_.size(); ++i) {
    const region_def& r = regions_[i];
    ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteRegion(g, static_cast<uint32_t>(i), r.name,
                                                                r.name, 0, r.role, r.paradigm,
                                                                OTF2_REGION_FLAG_NONE, 0, 0, 0));
  }
  ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteSystemTreeNode(
                                 g, 0, exe_ref, host_ref, OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteLocationGroup(
                                 g, 0, exe_ref, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                 OTF2_UNDEFINED_LOCATION_GROUP));
  for (size_t i = 0; i < defs_->agents.size(); ++i)
    ROCPROF_OTF2_CHECK(error_,
                       OTF2_GlobalDefWriter_WriteLocationGroup(
                           g, static_cast<uint32_t>(i + 1), agent_name_refs[i],
                           OTF2_LOCATION_GROUP_TYPE_ACCELERATOR, 0, OTF2_UNDEFINED_LOCATION_GROUP));
  for (const location_def& l : location_defs_)
    ROCPROF_OTF2_CHECK(
        error_, OTF2_GlobalDefWriter_WriteLocation(g, l.id, l.name, l.type, l.events, l.group));
  for (size_t i = 0; i < metric_refs.size(); ++i) {
    const auto ref = static_cast<uint32_t>(i);
    ROCPROF_OTF2_CHECK(error_, OTF2_GlobalDefWriter_WriteMetricMember(
                                   g, ref, metric_refs[i].name, metric_refs[i].description,
                                   OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
                                   OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, metric_refs[i].unit));
  }
  for (size_t i = 0; i < metric_refs.size(); ++i) {
    const auto ref = static_cast<uint32_t>(i);
    ROCPROF_OTF2_CHECK(
        error_, OTF2_GlobalDefWriter_WriteMetricClass(g, ref, 1, &ref, OTF2_METRIC_ASYNCHRONOUS,
                                                      OTF2_RECORDER_KIND_ABSTRACT));
  }
  return true;
}

}  // namespace rocprof::trace::otf2
