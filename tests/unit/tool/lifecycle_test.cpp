#include "lifecycle.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/staged_file.hpp"

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

namespace {

// Repeated and fatal signals (issue 14): a second stop signal while the outputs are written
// waits for them; three within a second stop the process at once, removing what is not
// complete; a fault flushes, then ends the process with the fault's own signal.

int marks_pipe[2];
void mark(char c) {
  (void)!::write(marks_pipe[1], &c, 1);
}

std::string read_marks() {
  ::close(marks_pipe[1]);
  std::string marks;
  char c = 0;
  while (::read(marks_pipe[0], &c, 1) == 1)
    marks += c;
  ::close(marks_pipe[0]);
  return marks;
}

void finalize_slowly() {
  mark('S');
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  mark('F');
}

// Sends `count` SIGINTs to this process, `gap_ms` apart, from another thread (which blocks them:
// they reach the main thread, as a terminal's would reach a single-threaded application).
void interrupt_later(int count, int gap_ms) {
  std::thread([count, gap_ms] {
    sigset_t interrupts;
    sigemptyset(&interrupts);
    sigaddset(&interrupts, SIGINT);
    pthread_sigmask(SIG_BLOCK, &interrupts, nullptr);
    for (int i = 0; i < count; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 50 : gap_ms));
      ::kill(::getpid(), SIGINT);
    }
  }).detach();
}

TEST(LifecycleSignals, ASecondSignalWaitsForTheOutputs) {
  ASSERT_EQ(::pipe(marks_pipe), 0);
  const int status = in_child([] {
    lifecycle::install(finalize_slowly, nullptr, true);
    interrupt_later(2, 200);
    for (;;)
      ::pause();
  });
  EXPECT_EQ(read_marks(), "SF");
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
}

std::string* g_unfinished = nullptr;

void finalize_forever() {
  static rocprof::trace::staged_file output;
  output.create(*g_unfinished);
  mark('S');
  std::this_thread::sleep_for(std::chrono::seconds(30));
  mark('F');
}

TEST(LifecycleSignals, ThreeSignalsWithinASecondStopAtOnce) {
  rocprof::test_support::temp_dir dir("lifecycle");
  static std::string target;
  target = dir.path() + "/out.csv";
  g_unfinished = &target;
  ASSERT_EQ(::pipe(marks_pipe), 0);
  const auto started = std::chrono::steady_clock::now();
  const int status = in_child([] {
    lifecycle::install(finalize_forever, nullptr, true);
    interrupt_later(3, 100);
    for (;;)
      ::pause();
  });
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(read_marks(), "S");
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_LT(took, std::chrono::seconds(10)) << "not at once";
  EXPECT_EQ(rocprof::test_support::run_command("ls -A " + dir.path()), "")
      << "the unfinished output is removed";
}

void flush_marks() {
  mark('X');
}

TEST(LifecycleSignals, AFaultFlushesThenDiesByTheFault) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer builds take over faults (the normal build tests this)";
#endif
  ASSERT_EQ(::pipe(marks_pipe), 0);
  const int status = in_child([] {
    lifecycle::install(report_finalize, nullptr, true, flush_marks);
    volatile uintptr_t nowhere = 0;
    *reinterpret_cast<volatile int*>(nowhere) = 1;
  });
  EXPECT_EQ(read_marks(), "X");
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGSEGV);
}

void own_segv_handler(int) {
  ::_exit(7);
}

TEST(LifecycleSignals, AnApplicationsFaultHandlerIsLeftAlone) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer builds take over faults (the normal build tests this)";
#endif
  ASSERT_EQ(::pipe(marks_pipe), 0);
  const int status = in_child([] {
    struct sigaction action {};
    action.sa_handler = own_segv_handler;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGSEGV, &action, nullptr);
    lifecycle::install(report_finalize, nullptr, true, flush_marks);
    volatile uintptr_t nowhere = 0;
    *reinterpret_cast<volatile int*>(nowhere) = 1;
  });
  EXPECT_EQ(read_marks(), "");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

}  // namespace
