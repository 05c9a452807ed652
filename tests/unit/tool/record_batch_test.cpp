// The tool's per-kind handling loops over the trace model's kind list: a record batch holds,
// cuts and spools every kind, and the spool gives every kind back, from memory and from its
// spill file. (tests/unit/record_kinds/ shows the same with a kind added to the list.)
#include "record_batch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "record_spool.hpp"
#include "rocprof/test_support/record_collector.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"

namespace {

namespace tr = rocprof::trace;
namespace ts = rocprof::test_support;
using rocprof::tool::record_batch;
using rocprof::tool::record_spool;

ts::synthetic_trace small_trace() {
  ts::synthetic_options so;
  so.records_per_kind = 500;
  return ts::make_synthetic_trace(so);
}

record_batch batch_of(const ts::synthetic_trace& trace) {
  record_batch batch;
  std::apply(
      [&batch](const auto&... tables) {
        ((batch.of<typename std::decay_t<decltype(tables)>::value_type>() = tables), ...);
      },
      ts::record_tables(trace));
  return batch;
}

// Every kind of the trace, in order, as the collector received it.
void expect_every_kind(const ts::record_collector& out, const ts::synthetic_trace& trace) {
  auto check = [&out](const auto& table) {
    using T = typename std::decay_t<decltype(table)>::value_type;
    EXPECT_TRUE(ts::same_records(out.of<T>(), table)) << tr::record_traits<T>::name;
  };
  std::apply([&check](const auto&... tables) { (check(tables), ...); }, ts::record_tables(trace));
}

TEST(RecordBatch, SpoolsEveryKindAndGetsItBackFromMemory) {
  const auto trace = small_trace();
  ts::temp_dir dir("record-batch");
  record_spool spool(size_t{64} << 20, dir.path());
  const record_batch batch = batch_of(trace);
  batch.append_to(spool);
  EXPECT_EQ(spool.total_records(), batch.total());
  EXPECT_TRUE(spool.spill_path().empty());
  ts::record_collector out;
  spool.replay(out, 128);
  expect_every_kind(out, trace);
}

TEST(RecordBatch, SpoolsEveryKindAndGetsItBackFromTheSpillFile) {
  const auto trace = small_trace();
  ts::temp_dir dir("record-batch");
  record_spool spool(4 * sizeof(tr::kernel_dispatch_record), dir.path());
  batch_of(trace).append_to(spool);
  EXPECT_FALSE(spool.spill_path().empty());
  EXPECT_GT(spool.spilled_bytes(), 0u);
  ts::record_collector out;
  spool.replay(out, 128);
  EXPECT_TRUE(spool.last_error().empty()) << spool.last_error();
  expect_every_kind(out, trace);
}

TEST(RecordBatch, DropBeforeCutsEveryTimedKindAndKeepsTheOthers) {
  const auto trace = small_trace();
  record_batch batch = batch_of(trace);
  const uint64_t epoch = trace.kernels[trace.kernels.size() / 2].start_ns;
  batch.drop_before(epoch);
  size_t kinds_cut = 0;
  std::apply(
      [&](const auto&... tables) {
        auto check = [&](const auto& table) {
          using T = typename std::decay_t<decltype(table)>::value_type;
          const auto& kept = batch.of<T>();
          if constexpr (tr::has_record_time<T>) {
            const auto expected = std::count_if(table.begin(), table.end(), [epoch](const T& r) {
              return tr::record_time_ns(r) >= epoch;
            });
            EXPECT_EQ(kept.size(), static_cast<size_t>(expected)) << tr::record_traits<T>::name;
            for (const T& r : kept)
              EXPECT_GE(tr::record_time_ns(r), epoch);
            kinds_cut += kept.size() < table.size() ? 1 : 0;
          } else {
            EXPECT_TRUE(ts::same_records(kept, table)) << tr::record_traits<T>::name;
          }
        };
        (check(tables), ...);
      },
      ts::record_tables(trace));
  EXPECT_GE(kinds_cut, 6u);  // API calls, dispatches, copies, sets, allocations, scratch at least
}

}  // namespace
