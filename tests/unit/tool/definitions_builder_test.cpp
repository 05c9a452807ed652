#include "definitions_builder.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

namespace {

using rocprof::tool::definitions_builder;

TEST(DefinitionsBuilder, InternsOnceWithEmptyStringFirst) {
  definitions_builder defs;
  const auto a = defs.intern("alpha");
  const auto b = defs.intern("beta");
  EXPECT_EQ(defs.intern("alpha"), a);
  EXPECT_NE(a, b);
  EXPECT_EQ(defs.intern(""), 0u);
  const auto snap = defs.snapshot();
  ASSERT_GE(snap.strings.size(), 3u);
  EXPECT_EQ(snap.strings[0], "");
  EXPECT_EQ(snap.str(a), "alpha");
  EXPECT_EQ(snap.str(b), "beta");
}

TEST(DefinitionsBuilder, ThreadWindowAndName) {
  definitions_builder defs;
  defs.observe_thread(42, 500, 600);
  defs.observe_thread(42, 100, 200);
  defs.observe_thread(42, 300, 900);
  defs.name_thread(42, "worker");
  defs.name_thread(7, "named-before-records");
  const auto snap = defs.snapshot();
  ASSERT_EQ(snap.threads.size(), 2u);
  EXPECT_EQ(snap.threads[0].tid, 42);
  EXPECT_EQ(snap.threads[0].start_ns, 100u);
  EXPECT_EQ(snap.threads[0].end_ns, 900u);
  EXPECT_EQ(snap.threads[0].name, "worker");
  EXPECT_EQ(snap.threads[1].name, "named-before-records");
}

TEST(DefinitionsBuilder, MissingNamesComeFromTheSystem) {
  definitions_builder defs;
  std::thread t([&defs] {
    pthread_setname_np(pthread_self(), "sysname-test");
    defs.observe_thread(::syscall(SYS_gettid), 1, 2);
    defs.fill_missing_thread_names();
  });
  t.join();
  const auto snap = defs.snapshot();
  ASSERT_EQ(snap.threads.size(), 1u);
  EXPECT_EQ(snap.threads[0].name, "sysname-test");
}

TEST(DefinitionsBuilder, ProcessIdentity) {
  definitions_builder defs;
  defs.capture_process_identity();
  const auto snap = defs.snapshot();
  EXPECT_EQ(snap.process.pid, ::getpid());
  EXPECT_EQ(snap.process.ppid, ::getppid());
  EXPECT_FALSE(snap.process.command.empty());
  EXPECT_GT(snap.process.start_ns, 0u);
  EXPECT_FALSE(snap.node.hostname.empty());
  EXPECT_LE(snap.node.id, static_cast<uint64_t>(UINT32_MAX));
}

TEST(DefinitionsBuilder, ResetStartsClean) {
  definitions_builder defs;
  defs.intern("x");
  defs.observe_thread(1, 1, 1);
  defs.add_dropped(5);
  defs.reset();
  const auto snap = defs.snapshot();
  EXPECT_EQ(snap.strings.size(), 1u);
  EXPECT_TRUE(snap.threads.empty());
  EXPECT_EQ(snap.dropped_records, 0u);
}

}  // namespace
