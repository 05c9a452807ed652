// The record kinds as one list (formats/include/rocprof/trace/model.hpp): the tables derived from
// it, and every writer of the registry deciding, for every kind, whether it writes it or
// deliberately ignores it (writer.hpp). A kind added to the list fails here until each writer
// says which.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/record_kinds.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

namespace tr = rocprof::trace;
namespace ts = rocprof::test_support;

std::string kind_name(size_t k) {
  return std::string{tr::record_kind_names[k]};
}

TEST(record_kinds, tables_follow_the_list_in_kind_order) {
  size_t index = 0;
  std::set<std::string> names;
  tr::for_each_record_type([&](auto tag) {
    using T = typename decltype(tag)::type;
    EXPECT_EQ(static_cast<size_t>(tr::record_traits<T>::kind), index);
    EXPECT_EQ(tr::record_size(tr::record_traits<T>::kind), sizeof(T));
    EXPECT_EQ(tr::record_kind_name(tr::record_traits<T>::kind), tr::record_traits<T>::name);
    names.insert(std::string{tr::record_traits<T>::name});
    ++index;
  });
  EXPECT_EQ(index, tr::record_kind_count);
  EXPECT_EQ(tr::record_types::size, tr::record_kind_count);
  EXPECT_EQ(names.size(), tr::record_kind_count) << "kind names must be unique";
  EXPECT_EQ(tr::record_kind_name(tr::record_kind::api), "api");
  EXPECT_EQ(tr::record_kind_name(tr::record_kind::pc_sample), "pc_sample");
}

TEST(record_kinds, record_time_is_the_start_or_the_sample_time) {
  tr::api_record api;
  api.start_ns = 7;
  api.end_ns = 9;
  EXPECT_EQ(tr::record_time_ns(api), 7u);
  tr::pc_sample_record pc;
  pc.timestamp_ns = 11;
  EXPECT_EQ(tr::record_time_ns(pc), 11u);
  static_assert(tr::has_record_time<tr::kernel_dispatch_record>);
  static_assert(tr::has_record_time<tr::device_counter_sample_record>);
  static_assert(!tr::has_record_time<tr::counter_value_record>);  // belongs to its dispatch
}

// A writer for the probe's own test: decides api (writes) and kernel dispatches (ignores) only.
class partial_writer final : public tr::writer {
 public:
  using tr::writer::write;
  void begin(const tr::trace_definitions&) override {}
  void write(tr::record_span<tr::api_record>) override {}
  void write(tr::record_span<tr::kernel_dispatch_record> r) override { ignore_records(r); }
  std::string finish() override { return {}; }
};

TEST(writer_kind_handling, the_probe_tells_written_ignored_and_undecided_kinds) {
  partial_writer w;
  const auto handling = tr::probe_kind_handling(w);
  for (size_t k = 0; k < tr::record_kind_count; ++k) {
    const auto kind = static_cast<tr::record_kind>(k);
    const auto expected = kind == tr::record_kind::api               ? tr::kind_handling::writes
                          : kind == tr::record_kind::kernel_dispatch ? tr::kind_handling::ignores
                                                                     : tr::kind_handling::undecided;
    EXPECT_EQ(handling[k], expected) << kind_name(k);
  }
}

TEST(writer_kind_handling, the_registry_holds_every_output) {
  const auto names = tr::writer_names();
  for (const char* expected : {"rocpd", "csv", "json", "pftrace", "otf2", "summary", "config"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
}

// What each registered writer does with each kind, for every writer the registry makes.
std::map<std::string, std::vector<tr::kind_handling>> probe_every_writer() {
  ts::temp_dir dir("record-kinds");
  tr::output_options options;
  options.output_directory = dir.path();
  options.file_prefix = "kinds";
  options.stats = true;
  options.summary = true;
  const auto defs = ts::make_synthetic_definitions(ts::synthetic_options{});
  std::map<std::string, std::vector<tr::kind_handling>> result;
  for (const auto& name : tr::writer_names()) {
    std::string error;
    auto w = tr::make_writer(name, options, &error);
    EXPECT_TRUE(w != nullptr) << name << ": " << error;
    if (!w) continue;
    w->begin(defs);
    const auto handling = tr::probe_kind_handling(*w);
    result[name].assign(handling.begin(), handling.end());
    EXPECT_EQ(w->finish(), "") << name;
  }
  return result;
}

TEST(writer_kind_handling, every_registered_writer_decides_every_kind) {
  for (const auto& [name, handling] : probe_every_writer())
    for (size_t k = 0; k < handling.size(); ++k)
      EXPECT_NE(handling[k], tr::kind_handling::undecided)
          << "writer '" << name << "' has no write() for record kind '" << kind_name(k)
          << "': override it, writing the records or calling ignore_records()";
}

// The decisions as they stand: a change is deliberate and shows here.
TEST(writer_kind_handling, each_writer_ignores_only_what_it_says) {
  const std::map<std::string, std::set<std::string>> ignored{
      {"rocpd", {}},  // PC samples: the rocpd_pc_sample extension table
      {"csv", {}},
      {"json", {}},
      {"pftrace", {}},  // PC samples: the "PC sampling hot spots" track
      {"otf2", {"scratch_memory", "pc_sample"}},
      {"summary", {"pc_sample"}},
      // PC sampling's hot-spot report reads PC samples only.
      {"pc_hotspots",
       {"api", "kernel_dispatch", "memory_copy", "memory_set", "memory_allocation",
        "scratch_memory", "counter_value", "counter_dispatch", "device_counter_sample"}},
  };
  for (const auto& [name, handling] : probe_every_writer()) {
    for (size_t k = 0; k < handling.size(); ++k) {
      const bool ignores = name == "config" ||
                           (ignored.count(name) != 0 && ignored.at(name).count(kind_name(k)) != 0);
      EXPECT_EQ(handling[k], ignores ? tr::kind_handling::ignores : tr::kind_handling::writes)
          << name << " / " << kind_name(k);
    }
  }
}

}  // namespace
