#include "record_spool.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "rocprof/test_support/test_env.hpp"

namespace {

using rocprof::tool::record_spool;
namespace trace = rocprof::trace;

// A writer that keeps what it receives, to compare with what was appended.
class collecting_writer : public trace::writer {
 public:
  using trace::writer::write;  // the kinds not collected here keep the base's no-op
  void begin(const trace::trace_definitions&) override {}
  void write(trace::record_span<trace::api_record> batch) override {
    ++api_batches;
    for (const auto& r : batch)
      api.push_back(r);
  }
  void write(trace::record_span<trace::kernel_dispatch_record> batch) override {
    for (const auto& r : batch)
      dispatches.push_back(r);
  }
  std::string finish() override { return {}; }

  std::vector<trace::api_record> api;
  std::vector<trace::kernel_dispatch_record> dispatches;
  size_t api_batches = 0;
};

trace::api_record make_api(uint64_t i, int64_t tid = 1) {
  trace::api_record r;
  r.domain = trace::api_domain::marker_core_range;
  r.corr.internal = i;
  r.tid = tid;
  r.start_ns = 1000 + i;
  r.end_ns = 2000 + i;
  return r;
}

std::string make_temp_dir() {
  static int made = 0;
  return rocprof::test_support::scratch_dir("spool-" + std::to_string(++made));
}

TEST(RecordSpool, KeepsOrderInMemory) {
  record_spool spool(1 << 20, make_temp_dir());
  for (uint64_t i = 0; i < 1000; ++i)
    spool.append(make_api(i));
  trace::kernel_dispatch_record k;
  k.dispatch_id = 7;
  spool.append(k);
  EXPECT_EQ(spool.total_records(), 1001u);
  EXPECT_TRUE(spool.spill_path().empty());

  collecting_writer out;
  spool.replay(out, 100);
  ASSERT_EQ(out.api.size(), 1000u);
  EXPECT_EQ(out.api_batches, 10u);
  for (uint64_t i = 0; i < 1000; ++i)
    EXPECT_EQ(out.api[i].corr.internal, i);
  ASSERT_EQ(out.dispatches.size(), 1u);
  EXPECT_EQ(out.dispatches[0].dispatch_id, 7u);
}

TEST(RecordSpool, SpillsBeyondBudgetToPrivateFileAndRemovesIt) {
  const std::string dir = make_temp_dir() + "/nested/out";  // created on demand
  std::string path;
  {
    // A budget of 10 records: 10000 records must go through the file.
    record_spool spool(10 * sizeof(trace::api_record), dir);
    for (uint64_t i = 0; i < 10000; ++i)
      spool.append(make_api(i));
    path = spool.spill_path();
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(path.rfind(dir, 0), 0u) << path;
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);
    EXPECT_GT(spool.spilled_bytes(), 9000 * sizeof(trace::api_record));

    collecting_writer out;
    spool.replay(out, 4096);
    ASSERT_EQ(out.api.size(), 10000u);
    for (uint64_t i = 0; i < 10000; ++i)
      ASSERT_EQ(out.api[i].corr.internal, i);
    EXPECT_TRUE(spool.last_error().empty()) << spool.last_error();
  }
  struct stat info {};
  EXPECT_NE(::stat(path.c_str(), &info), 0) << "spill file left behind: " << path;
}

TEST(RecordSpool, ConcurrentAppendsLoseNothing) {
  record_spool spool(64 * 1024, make_temp_dir());  // small budget: spills while appending
  constexpr int threads = 8;
  constexpr uint64_t per_thread = 20000;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&spool, t] {
      std::vector<trace::api_record> chunk;
      for (uint64_t i = 0; i < per_thread; ++i) {
        chunk.push_back(make_api(i, t + 1));
        if (chunk.size() == 100) {
          spool.append(chunk.data(), chunk.size());
          chunk.clear();
        }
      }
      spool.append(chunk.data(), chunk.size());
    });
  }
  for (auto& t : pool)
    t.join();
  EXPECT_EQ(spool.total_records(), threads * per_thread);
  collecting_writer out;
  spool.replay(out);
  ASSERT_EQ(out.api.size(), threads * per_thread);
  // Per thread, records come back in the order that thread appended them.
  std::vector<uint64_t> next(threads + 1, 0);
  for (const auto& r : out.api) {
    ASSERT_EQ(r.corr.internal, next[static_cast<size_t>(r.tid)]);
    ++next[static_cast<size_t>(r.tid)];
  }
}

TEST(RecordSpool, DiscardRemovesTheSpillFile) {
  record_spool spool(sizeof(trace::api_record), make_temp_dir());
  for (uint64_t i = 0; i < 10; ++i)
    spool.append(make_api(i));
  const std::string path = spool.spill_path();
  ASSERT_FALSE(path.empty());
  spool.discard();
  struct stat info {};
  EXPECT_NE(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(spool.total_records(), 0u);
  spool.append(make_api(11));  // late arrivals stay in memory, no new file
  EXPECT_TRUE(spool.spill_path().empty());
}

// What a forked child does with the parent's spool: closes its descriptor and leaves the file,
// which the parent still writes and removes, in place.
TEST(RecordSpool, AbandonInForkedChildKeepsTheParentsSpillFile) {
  record_spool spool(sizeof(trace::api_record), make_temp_dir());
  for (uint64_t i = 0; i < 10; ++i)
    spool.append(make_api(i));
  const std::string path = spool.spill_path();
  ASSERT_FALSE(path.empty());
  spool.abandon_in_forked_child();
  struct stat info {};
  EXPECT_EQ(::stat(path.c_str(), &info), 0);
  ::unlink(path.c_str());  // the test plays the parent
}

}  // namespace
