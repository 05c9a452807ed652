#include "sass_disassembly.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

extern char** environ;

namespace rocprof::cuda {
namespace {

bool executable(const std::string& path) {
  return !path.empty() && ::access(path.c_str(), X_OK) == 0;
}

std::string on_path(const char* name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view rest = path;
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    rest.remove_prefix(colon == std::string_view::npos ? rest.size() : colon + 1);
    if (dir.empty()) continue;
    std::string candidate = std::string(dir) + "/" + name;
    if (executable(candidate)) return candidate;
  }
  return {};
}

// The child must not load the profiler again (LD_PRELOAD, CUDA_INJECTION64_PATH, the tool's
// ROCP_/ROCPROF settings): nvdisasm runs as a plain toolkit program.
bool inherited(std::string_view entry) {
  for (std::string_view prefix : {"LD_PRELOAD=", "CUDA_INJECTION64_PATH=", "ROCP_", "ROCPROF"})
    if (entry.substr(0, prefix.size()) == prefix) return false;
  return true;
}

struct temp_file {
  std::string path;
  ~temp_file() {
    if (!path.empty()) ::unlink(path.c_str());
  }
};

bool write_cubin(const char* cubin, size_t size, temp_file& file, std::string& error) {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern =
      std::string(dir != nullptr && dir[0] != '\0' ? dir : "/tmp") + "/rocprofv3-cubin-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) {
    error = std::string("temporary file: ") + std::strerror(errno);
    return false;
  }
  file.path = name.data();
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, cubin + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  if (done != size) error = "could not write the cubin to " + file.path;
  return done == size;
}

// Reads the child's stdout until it closes or the deadline passes; false on timeout.
bool read_until(int fd, std::chrono::steady_clock::time_point deadline, std::string& out) {
  char buffer[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;  // time is up (or poll failed): the child is killed
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    out.append(buffer, static_cast<size_t>(n));
  }
}

// Runs `nvdisasm -c file`; its stdout in `out`. False with `error` when it did not succeed.
bool run_disassembler(const std::string& nvdisasm, const std::string& file, std::string& out,
                      std::string& error, std::chrono::milliseconds limit) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e)
    if (inherited(*e)) env.push_back(*e);
  env.push_back(nullptr);
  std::string flag = "-c";
  std::vector<char*> argv{const_cast<char*>(nvdisasm.c_str()), flag.data(),
                          const_cast<char*>(file.c_str()), nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, nvdisasm.c_str(), &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (rc != 0) {
    ::close(pipe_fds[0]);
    error = nvdisasm + ": " + std::strerror(rc);
    return false;
  }
  const bool in_time = read_until(pipe_fds[0], std::chrono::steady_clock::now() + limit, out);
  ::close(pipe_fds[0]);
  if (!in_time) ::kill(pid, SIGKILL);  // a hung child must not hang the application's exit
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!in_time) {
    error = nvdisasm + " did not finish in " + std::to_string(limit.count()) + " ms";
    return false;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error = nvdisasm + " failed (status " + std::to_string(status) + ")";
    return false;
  }
  return true;
}

}  // namespace

std::string find_nvdisasm() {
  if (const char* set = std::getenv("ROCPROF_NVDISASM")) {
    const std::string_view v = set;
    if (v.empty() || v == "0") return {};
    return std::string(v);
  }
  if (const char* home = std::getenv("CUDA_HOME")) {
    std::string candidate = std::string(home) + "/bin/nvdisasm";
    if (executable(candidate)) return candidate;
  }
  const std::string standard = "/usr/local/cuda/bin/nvdisasm";
  if (executable(standard)) return standard;
  return on_path("nvdisasm");
}

bool disassemble_cubin(const std::string& nvdisasm, const char* cubin, size_t size,
                       sass_listing& out, std::string& error, std::chrono::milliseconds limit) {
  if (nvdisasm.empty() || cubin == nullptr || size == 0) {
    error = "nothing to disassemble";
    return false;
  }
  temp_file file;
  if (!write_cubin(cubin, size, file, error)) return false;
  std::string text;
  if (!run_disassembler(nvdisasm, file.path, text, error, limit)) return false;
  out = parse_nvdisasm(text);
  if (out.empty()) error = nvdisasm + " printed no instruction";
  return !out.empty();
}

}  // namespace rocprof::cuda
