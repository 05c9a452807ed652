// The OTF2 writer class, shared by its source files (internal to formats/otf2):
//   otf2_writer.cpp       the archive (bounded chunk pool, open / close), string, region and
//                         metric references, begin() / finish();
//   otf2_records.cpp      one write() per record kind: each record becomes an interval on its
//                         location (or a metric sample), kept until finish();
//   otf2_events.cpp       finish(), first half: every location's intervals in time order as
//                         Enter/Leave events (with lanes for overlaps), then the metric events;
//   otf2_definitions.cpp  finish(), second half: location names and the global definitions
//                         (clock, strings, regions, system tree, groups, locations, metrics).
//
// Streaming constraint. OTF2 wants every location's events in time order with Enter/Leave
// properly nested, but records reach a writer in the order they were recorded: API calls and
// ranges when they end (inner calls before the range around them), GPU activity per buffer.
// So write() keeps one 24-byte interval per record and location in an interval_store (bounded
// memory; sorted runs spill to a temporary file past the budget), and finish() reads each
// location back in time order and streams it through OTF2's chunked event writers (OTF2 holds
// one chunk per open location and flushes the rest to disk). Activities that overlap without
// nesting on one location (concurrent kernels of one queue) are split into extra "lane"
// locations at finish(), as Perfetto needs tracks.
#pragma once

#include <otf2/otf2.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/kernel_names.hpp"
#include "otf2/interval_store.hpp"
#include "otf2/otf2_writer.hpp"

namespace rocprof::trace::otf2 {

enum class location_kind : uint8_t { thread, copy, allocation, compute, memory_set };

struct location_key {
  location_kind kind = location_kind::thread;
  int64_t tid = 0;
  uint64_t agent = 0;
  uint64_t queue = 0;
  bool operator<(const location_key& o) const {
    return std::tie(kind, tid, agent, queue) < std::tie(o.kind, o.tid, o.agent, o.queue);
  }
};

struct region_def {
  uint32_t name = 0;
  OTF2_RegionRole role = OTF2_REGION_ROLE_FUNCTION;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_HIP;
};

struct location_def {
  uint64_t id = 0;
  uint32_t name = 0;
  OTF2_LocationType type = OTF2_LOCATION_TYPE_CPU_THREAD;
  uint32_t group = 0;
  uint64_t events = 0;
};

struct metric_sample {
  uint64_t timestamp = 0;
  uint32_t metric = 0;
  double value = 0.0;
};

class otf2_writer final : public writer {
 public:
  otf2_writer(const output_options& options, const otf2_writer_options& otf2_options);

  using writer::write;
  // Counter-less kinds (scratch memory, PC samples) are not written, as §7 says.
  void write(record_span<scratch_memory_record> r) override { ignore_records(r); }
  void write(record_span<pc_sample_record> r) override { ignore_records(r); }
  void begin(const trace_definitions& defs) override;
  void write(record_span<api_record> records) override;
  void write(record_span<kernel_dispatch_record> records) override;
  void write(record_span<memory_copy_record> records) override;
  void write(record_span<memory_set_record> records) override;
  void write(record_span<memory_allocation_record> records) override;
  void write(record_span<counter_value_record> records) override;
  void write(record_span<counter_dispatch_record> records) override;
  void write(record_span<device_counter_sample_record> records) override;
  std::string finish() override;

 private:
  uint32_t string_ref(std::string_view text);
  uint32_t region(std::string_view name, OTF2_RegionRole role, OTF2_Paradigm paradigm);
  // The dense index of `key`'s location, made on first use.
  size_t location_of(const location_key& key);
  void add(const location_key& key, uint64_t start, uint64_t end, uint32_t region,
           uint32_t category);
  uint32_t metric_of(uint64_t counter_id);
  const agent_info* agent(uint64_t id) const {
    const auto it = agents_.find(id);
    return it != agents_.end() ? it->second : nullptr;
  }
  uint32_t group_of(uint64_t agent_id) const {
    const auto it = agent_groups_.find(agent_id);
    return it != agent_groups_.end() ? it->second : 0;
  }
  std::string location_name(const location_key& key);
  std::string agent_text(uint64_t agent_id) const;

  bool write_archive();
  bool set_properties(OTF2_Archive* archive);
  static void remove_archive(const std::filesystem::path& dir, const std::string& name);
  bool publish_archive(const std::filesystem::path& dir, const std::string& temp,
                       const std::string& name);
  bool write_events(OTF2_Archive* archive);
  bool write_location_events(OTF2_Archive* archive, size_t index, OTF2_AttributeList* attributes,
                             uint64_t& next_location);
  bool write_metric_events(OTF2_Archive* archive, uint64_t& next_location);
  bool write_definitions(OTF2_Archive* archive);
  bool write_local_definitions(OTF2_Archive* archive);

  output_options options_;
  const trace_definitions* defs_ = nullptr;
  std::optional<formats::kernel_names> kernel_names_;
  std::array<uint32_t, static_cast<size_t>(api_domain::count)> domain_category_{};
  std::string error_;

  std::vector<std::string> strings_{std::string{}};  // ref 0 is ""
  std::unordered_map<std::string, uint32_t> string_refs_{{std::string{}, 0}};
  std::vector<region_def> regions_;
  std::map<std::pair<std::string_view, int>, uint32_t> region_refs_;

  std::map<location_key, size_t> location_index_;
  std::vector<location_key> locations_;  // in order of creation; index = interval_store location
  interval_store store_;
  std::vector<location_def> location_defs_;

  std::unordered_map<uint64_t, const agent_info*> agents_;
  std::unordered_map<uint64_t, uint32_t> agent_groups_;  // agent id -> location group (1..)
  std::unordered_map<uint64_t, uint32_t> metrics_;       // counter id -> metric ref
  std::vector<uint64_t> metric_counters_;                // metric ref -> counter id
  std::map<uint64_t, std::vector<metric_sample>> samples_by_agent_;
  std::vector<counter_value_record> counter_values_;
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> dispatch_ends_;  // -> (end, agent)

  uint64_t min_ts_ = ~0ull, max_ts_ = 0;
  bool began_ = false;
};

}  // namespace rocprof::trace::otf2
