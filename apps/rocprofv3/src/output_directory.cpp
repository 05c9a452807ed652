#include "output_directory.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "rocprof/config/schema.hpp"

namespace rocprof::cli {

std::string output_root(const job& config, const environment& base) {
  // Trailing slashes go, so that pass sub-directories read "<dir>/pass_N".
  const auto trimmed = [](std::string dir) {
    while (dir.size() > 1 && dir.back() == '/')
      dir.pop_back();
    return dir;
  };
  if (auto dir = config.text("output_directory")) return trimmed(*dir);
  const std::string from_env =
      environment_value(base, std::string(config::option("output_directory").env));
  if (!from_env.empty()) return trimmed(from_env);
  char cwd[PATH_MAX] = {};
  if (::getcwd(cwd, sizeof(cwd)) == nullptr) throw usage_error("cannot read the current directory");
  return cwd;
}

void ensure_output_directory(const std::string& directory) {
  std::string fixed = directory.substr(0, directory.find_first_of("%{$"));
  if (fixed.size() < directory.size()) {
    const size_t slash = fixed.find_last_of('/');
    fixed = slash == std::string::npos ? "." : fixed.substr(0, slash == 0 ? 1 : slash);
  }
  if (fixed.empty()) fixed = ".";
  // mkdir -p, one component at a time.
  for (size_t pos = 1; pos <= fixed.size(); ++pos) {
    if (pos != fixed.size() && fixed[pos] != '/') continue;
    const std::string part = fixed.substr(0, pos);
    if (::mkdir(part.c_str(), 0777) != 0 && errno != EEXIST) {
      throw usage_error("output directory '" + directory + "': cannot create '" + part +
                        "': " + std::strerror(errno));
    }
  }
  struct stat info {};
  if (::stat(fixed.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    throw usage_error("output directory '" + directory + "': '" + fixed + "' is not a directory");
  }
  // Create and remove a file rather than ask access(): root passes access() checks on
  // directories it still cannot write (read-only mounts, /proc).
  const std::string probe = fixed + "/.rocprofv3-write-test-" + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    throw usage_error("output directory '" + directory + "': '" + fixed +
                      "' is not writable: " + std::strerror(errno));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace rocprof::cli
