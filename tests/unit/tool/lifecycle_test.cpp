#include "lifecycle.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <thread>
#include <vector>

namespace {

namespace lifecycle = rocprof::tool::lifecycle;

std::atomic<int> finalize_calls{0};

void slow_finalize() {
  finalize_calls.fetch_add(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

// Runs in a forked child so the process-wide hooks do not leak into other tests.
template <typename F>
int in_child(F body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(Lifecycle, FinalizeRunsOnceAcrossThreads) {
  const int status = in_child([] {
    lifecycle::install(slow_finalize, nullptr, false);
    std::vector<std::thread> pool;
    for (int i = 0; i < 8; ++i)
      pool.emplace_back([] { lifecycle::finalize_once(); });
    for (auto& t : pool)
      t.join();
    // Every caller returned only after the one finalization ended.
    ::_exit(finalize_calls.load() == 1 && lifecycle::finalized() ? 0 : 1);
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

int signal_pipe[2];
void report_finalize() {
  const char c = 'F';
  (void)::write(signal_pipe[1], &c, 1);
}

TEST(Lifecycle, SignalFinalizesThenDiesFromTheSignal) {
  ASSERT_EQ(::pipe(signal_pipe), 0);
  const int status = in_child([] {
    lifecycle::install(report_finalize, nullptr, true);
    ::raise(SIGTERM);
    ::_exit(0);  // not reached: the signal is re-raised with its default action
  });
  ::close(signal_pipe[1]);
  char c = 0;
  EXPECT_EQ(::read(signal_pipe[0], &c, 1), 1);
  EXPECT_EQ(c, 'F');
  ::close(signal_pipe[0]);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

TEST(Lifecycle, NoHandlersMeansNoFinalizeOnSignal) {
  ASSERT_EQ(::pipe(signal_pipe), 0);
  const int status = in_child([] {
    lifecycle::install(report_finalize, nullptr, false);
    ::raise(SIGTERM);
    ::_exit(0);
  });
  ::close(signal_pipe[1]);
  char c = 0;
  EXPECT_EQ(::read(signal_pipe[0], &c, 1), 0);  // the child wrote nothing
  ::close(signal_pipe[0]);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

}  // namespace
