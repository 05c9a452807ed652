#include "launcher.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "rocprof/config/values.hpp"

namespace rocprof::cli {
namespace {

// Written before the signals are unblocked, read by the handler: lock-free and signal safe.
std::atomic<pid_t> g_child{0};
std::atomic<int> g_received{0};
constexpr int k_forwarded[] = {SIGINT, SIGTERM, SIGQUIT, SIGHUP};

void forward_signal(int signal_number) {
  g_received.store(signal_number);
  const pid_t child = g_child.load();
  if (child > 0) ::kill(child, signal_number);
}

bool executable_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

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

  // Block the forwarded signals around the spawn so that none is lost between posix_spawnp and
  // recording the child's pid; the child starts with the original mask.
  sigset_t forwarded, original;
  sigemptyset(&forwarded);
  for (int sig : k_forwarded)
    sigaddset(&forwarded, sig);
  ::sigprocmask(SIG_BLOCK, &forwarded, &original);

  struct sigaction action {
  }, previous[4];
  action.sa_handler = forward_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (size_t i = 0; i < 4; ++i)
    ::sigaction(k_forwarded[i], &action, &previous[i]);

  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setsigmask(&attributes, &original);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : k_forwarded)
    sigaddset(&defaults, sig);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  pid_t child = 0;
  const int spawn_error =
      ::posix_spawnp(&child, argp[0], nullptr, &attributes, argp.data(), envp.data());
  posix_spawnattr_destroy(&attributes);
  launch_result result;
  if (spawn_error != 0) {
    ::sigprocmask(SIG_SETMASK, &original, nullptr);
    for (size_t i = 0; i < 4; ++i)
      ::sigaction(k_forwarded[i], &previous[i], nullptr);
    throw usage_error("cannot start '" + argv.front() + "': " + std::strerror(spawn_error));
  }
  g_received.store(0);
  g_child.store(child);
  ::sigprocmask(SIG_SETMASK, &original, nullptr);

  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  g_child.store(0);
  for (size_t i = 0; i < 4; ++i)
    ::sigaction(k_forwarded[i], &previous[i], nullptr);

  if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.exit_status = 128 + WTERMSIG(status);
  result.interrupted = g_received.load() != 0;
  return result;
}

}  // namespace rocprof::cli
