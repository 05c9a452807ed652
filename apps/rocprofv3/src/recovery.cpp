#include "recovery.hpp"

#include <dirent.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "rocprof/trace/journal.hpp"
#include "rocprof/trace/output_plan.hpp"

namespace rocprof::cli {
namespace {

// Entries of the registry: (pid, journal path).
std::vector<std::pair<std::string, std::string>> registered(const std::string& directory) {
  std::vector<std::pair<std::string, std::string>> entries;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return entries;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name == "." || name == ".." || name.rfind("claim-", 0) == 0) continue;
    char target[PATH_MAX];
    const std::string link = directory + "/" + name;
    const ssize_t n = ::readlink(link.c_str(), target, sizeof(target) - 1);
    if (n <= 0) continue;
    entries.emplace_back(name, std::string(target, static_cast<size_t>(n)));
  }
  ::closedir(dir);
  return entries;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words)
    out += (out.empty() ? "" : ", ") + w;
  return out;
}

}  // namespace

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (!WIFSIGNALED(status)) return "ended";
  const int signo = WTERMSIG(status);
  const char* abbreviation = ::sigabbrev_np(signo);
  std::string text = "was killed by signal " + std::to_string(signo) + " (";
  text += abbreviation != nullptr ? "SIG" + std::string(abbreviation) : std::string("unknown");
  if (WCOREDUMP(status)) text += ", core dumped";
  return text + ")";
}

recovery_registry::~recovery_registry() {
  if (path_.empty()) return;
  // Links of processes still running, and the run's output-name claims (claim-*).
  if (DIR* dir = ::opendir(path_.c_str())) {
    while (const dirent* entry = ::readdir(dir)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") ::unlink((path_ + "/" + name).c_str());
    }
    ::closedir(dir);
  }
  ::rmdir(path_.c_str());
}

bool recovery_registry::create(std::string* error) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/rocprofv3-" +
                        std::to_string(::getpid()) + "-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    if (error) *error = "cannot create a recovery directory: " + std::string(std::strerror(errno));
    return false;
  }
  path_ = pattern;
  return true;
}

int recovery_registry::recover(std::ostream& err, int target_pid, int target_status) {
  int recovered = 0;
  for (const auto& [pid, journal_path] : registered(path_)) {
    const std::string link = path_ + "/" + pid;
    trace::journal_reader journal;
    std::string error;
    bool busy = false;
    if (!journal.open(journal_path, &error, &busy)) {
      if (busy) {
        err << "rocprofv3: process " << pid
            << " is still running after the application ended; it writes its own outputs when "
               "it ends\n";
        continue;
      }
      if (::access(journal_path.c_str(), F_OK) == 0)
        err << "rocprofv3: outputs of process " << pid << " cannot be recovered: " << error << "\n";
      if (journal.recognized()) ::unlink(journal_path.c_str());  // nothing in it can be used
      ::unlink(link.c_str());
      continue;
    }
    if (!journal.outputs_written()) {
      const std::string how = std::to_string(target_pid) == pid
                                  ? "the application " + describe_wait_status(target_status)
                                  : "process " + pid + " ended";
      const auto report = trace::run_output_plan(
          journal.plan(), journal.definitions(), journal.total_records(),
          [&journal](const std::vector<trace::writer*>& outs) { journal.replay(outs); });
      err << "rocprofv3: " << how << " before writing its outputs; "
          << (report.written.empty()
                  ? std::string("nothing was written")
                  : "recovered " + std::to_string(journal.total_records()) +
                        " records from its record journal into " + joined(report.written))
          << "\n";
      for (const auto& line : report.errors)
        err << "rocprofv3: " << line << "\n";
      for (const auto& line : journal.warnings())
        err << "rocprofv3: journal of process " << pid << ": " << line << "\n";
      ++recovered;
    }
    ::unlink(journal_path.c_str());
    ::unlink(link.c_str());
  }
  return recovered;
}

void recovery_registry::discard(std::ostream& err) {
  for (const auto& [pid, journal_path] : registered(path_)) {
    trace::journal_reader journal;
    std::string error;
    bool busy = false;
    const bool opened = journal.open(journal_path, &error, &busy);
    if (busy) continue;  // still running: it writes its own outputs
    if (opened && !journal.outputs_written())
      err << "rocprofv3: stopped at once: the outputs of process " << pid << " were not written\n";
    if (journal.recognized()) ::unlink(journal_path.c_str());
    ::unlink((path_ + "/" + pid).c_str());
  }
}

}  // namespace rocprof::cli
