#include "output_claim.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "rocprof/common/fnv1a.hpp"

namespace rocprof::tool {
namespace {

using common::fnv1a;

// 0: claimed, EADDRINUSE: held by another process, other errno: claims are not possible here.
int try_bind(int fd, const std::string& name) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  // Abstract namespace: a leading NUL, no file.
  const size_t length = std::min(name.size(), sizeof(address.sun_path) - 1);
  std::memcpy(address.sun_path + 1, name.data(), length);
  const auto size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + length);
  return ::bind(fd, reinterpret_cast<const sockaddr*>(&address), size) == 0 ? 0 : errno;
}

}  // namespace

std::string claim_key(const std::string& directory, const std::string& prefix) {
  std::error_code ec;
  std::filesystem::path path = std::filesystem::absolute(directory.empty() ? "." : directory, ec);
  path = (path / prefix).lexically_normal();
  char hash[17];
  std::snprintf(hash, sizeof(hash), "%016llx",
                static_cast<unsigned long long>(fnv1a(path.string())));
  return std::to_string(::getuid()) + "-" + hash;
}

output_claim::~output_claim() {
  if (fd_ >= 0) ::close(fd_);
}

std::string output_claim::claim(const std::string& directory, const std::string& prefix,
                                const std::string& run_registry) {
  if (fd_ >= 0) ::close(fd_);
  suffixed_ = false;
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const std::string own = prefix + "-" + std::to_string(::getpid());
  for (const std::string& candidate : {prefix, own}) {
    const std::string key = claim_key(directory, candidate);
    if (!run_registry.empty()) {
      const std::string mark = run_registry + "/claim-" + key;
      const int made =
          ::open(mark.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
      if (made < 0 && errno == EEXIST) continue;  // another process of this run has it
      if (made >= 0) ::close(made);
    }
    const int bound = fd_ >= 0 ? try_bind(fd_, "rocprofv3-outputs-" + key) : EBADF;
    if (bound == EADDRINUSE) continue;  // a live process of another run has it
    suffixed_ = candidate != prefix;
    if (bound != 0 && fd_ >= 0) {  // no socket claim possible here: the run's claim only
      ::close(fd_);
      fd_ = -1;
    }
    return candidate;
  }
  // Even our own pid's name is taken (a stale holder): the prefix as given.
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  return prefix;
}

void output_claim::forget_in_forked_child() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  suffixed_ = false;
}

}  // namespace rocprof::tool
