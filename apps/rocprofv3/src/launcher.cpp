#include "launcher.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "rocprof/config/values.hpp"
#include "rocprof/trace/staged_file.hpp"

namespace rocprof::cli {
namespace {

// Written before the signals are unblocked, read by the handler: lock-free and signal safe.
std::atomic<pid_t> g_child{0};
std::atomic<bool> g_child_in_our_group{false};
std::atomic<int> g_received{0};
std::atomic<bool> g_forced{false};
std::array<std::atomic<int64_t>, 3> g_arrivals{};
std::atomic<size_t> g_arrival_count{0};
constexpr int64_t forced_stop_window_ns = 1000000000;
constexpr int k_forwarded[] = {SIGINT, SIGTERM, SIGQUIT, SIGHUP};
constexpr size_t k_forwarded_count = sizeof(k_forwarded) / sizeof(k_forwarded[0]);
std::array<struct sigaction, k_forwarded_count> g_previous{};
std::atomic<int> g_relays{0};

int64_t monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

bool third_within_a_second() {
  const size_t n = g_arrival_count.fetch_add(1);
  const int64_t now = monotonic_ns();
  g_arrivals[n % g_arrivals.size()].store(now);
  if (n + 1 < g_arrivals.size()) return false;
  return now - g_arrivals[(n + 1) % g_arrivals.size()].load() <= forced_stop_window_ns;
}

void on_stop_signal(int signo, siginfo_t* info, void*) {
  const int saved_errno = errno;
  g_received.store(signo);
  if (third_within_a_second()) g_forced.store(true);
  const pid_t child = g_child.load();
  if (child > 0) {
    // A terminal's signal (si_code SI_KERNEL) went to the whole foreground group already.
    const bool from_terminal = info != nullptr && info->si_code == SI_KERNEL;
    if (!(from_terminal && g_child_in_our_group.load())) ::kill(child, signo);
  } else if (g_forced.load()) {
    // rocprofv3 is writing recovered outputs: what is not complete goes, then it ends.
    trace::remove_unfinished_outputs();
    static const char text[] =
        "rocprofv3: stopped at once (3 interrupts within a second): outputs not yet complete "
        "were removed\n";
    (void)!::write(STDERR_FILENO, text, sizeof(text) - 1);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(signo, &dfl, nullptr);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signo);
    ::raise(signo);
    ::sigprocmask(SIG_UNBLOCK, &only, nullptr);
    ::_exit(128 + signo);
  }
  errno = saved_errno;
}

bool executable_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

signal_relay::signal_relay() {
  if (g_relays.fetch_add(1) != 0) return;
  g_received.store(0);
  g_forced.store(false);
  g_arrival_count.store(0);
  struct sigaction action {};
  action.sa_sigaction = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART | SA_SIGINFO;
  for (size_t i = 0; i < k_forwarded_count; ++i)
    ::sigaction(k_forwarded[i], &action, &g_previous[i]);
}

signal_relay::~signal_relay() {
  if (g_relays.fetch_sub(1) != 1) return;
  for (size_t i = 0; i < k_forwarded_count; ++i)
    ::sigaction(k_forwarded[i], &g_previous[i], nullptr);
}

bool signal_relay::interrupted() const {
  return g_received.load() != 0;
}

bool signal_relay::stopped_at_once() const {
  return g_forced.load();
}

std::string resolve_application(const std::string& name, const environment& env) {
  if (name.empty()) throw usage_error("empty application name after '--'");
  if (name.find('/') != std::string::npos) {
    struct stat info {};
    if (::stat(name.c_str(), &info) != 0) {
      throw usage_error("application '" + name + "' does not exist");
    }
    if (!executable_file(name)) throw usage_error("application '" + name + "' is not executable");
    return name;
  }
  const auto path = env.find("PATH");
  const std::string search = path == env.end() ? "/usr/local/bin:/usr/bin:/bin" : path->second;
  for (const auto& dir : config::split_any(search, ":")) {
    const std::string candidate = dir + "/" + name;
    if (executable_file(candidate)) return candidate;
  }
  throw usage_error("application '" + name + "' not found in PATH or not executable");
}

launch_result launch(const std::vector<std::string>& argv, const environment& env) {
  std::vector<std::string> env_text;
  for (const auto& [name, value] : env)
    env_text.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& entry : env_text)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argp;
  for (auto& arg : args)
    argp.push_back(arg.data());
  argp.push_back(nullptr);

  const signal_relay relay;  // the caller's, if it has one; else one for this launch
  // Block the relayed signals around the spawn so that none is lost between posix_spawnp and
  // recording the child's pid; the child starts with the original mask.
  sigset_t forwarded, original;
  sigemptyset(&forwarded);
  for (int sig : k_forwarded)
    sigaddset(&forwarded, sig);
  ::sigprocmask(SIG_BLOCK, &forwarded, &original);

  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setsigmask(&attributes, &original);
  posix_spawnattr_setsigdefault(&attributes, &forwarded);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  pid_t child = 0;
  const int spawn_error =
      ::posix_spawnp(&child, argp[0], nullptr, &attributes, argp.data(), envp.data());
  posix_spawnattr_destroy(&attributes);
  launch_result result;
  if (spawn_error != 0) {
    ::sigprocmask(SIG_SETMASK, &original, nullptr);
    throw usage_error("cannot start '" + argv.front() + "': " + std::strerror(spawn_error));
  }
  // posix_spawn keeps the child in our process group (a terminal's Ctrl-C reaches both).
  g_child_in_our_group.store(true);
  g_child.store(child);
  ::sigprocmask(SIG_SETMASK, &original, nullptr);

  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  g_child.store(0);

  if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.exit_status = 128 + WTERMSIG(status);
  result.interrupted = relay.interrupted();
  result.pid = child;
  result.wait_status = status;
  return result;
}

}  // namespace rocprof::cli
