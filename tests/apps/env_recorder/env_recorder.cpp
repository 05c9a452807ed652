// env_recorder: a test application for the rocprofv3 launcher. It writes its argv, its pid and
// its environment as JSON, then does what its options say:
//   --out FILE        where to write (default: $ROCPROF_OUTPUT_PATH/env_recorder.json, else
//                     ./env_recorder.json)
//   --exit N          exit with status N
//   --sleep SECONDS   sleep before exiting (interruptible by a reported signal)
//   --report-signals  on SIGINT/SIGTERM/SIGQUIT/SIGHUP append "signal N" to FILE.signals and
//                     exit with 128+N
//   --kill-self SIG   raise signal SIG (e.g. 9) after writing
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

extern char** environ;

namespace {

char g_signal_file[4096];

void on_signal(int signal_number) {
  // Only async-signal-safe calls here.
  char line[32];
  const int length = std::snprintf(line, sizeof(line), "signal %d\n", signal_number);
  const int fd = ::open(g_signal_file, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd >= 0) {
    ssize_t written = ::write(fd, line, static_cast<size_t>(length));
    (void)written;
    ::close(fd);
  }
  ::_exit(128 + signal_number);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  int exit_code = 0;
  int sleep_seconds = 0;
  int kill_signal = 0;
  bool report_signals = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--out" && has_value) {
      out = argv[++i];
    } else if (arg == "--exit" && has_value) {
      exit_code = std::atoi(argv[++i]);
    } else if (arg == "--sleep" && has_value) {
      sleep_seconds = std::atoi(argv[++i]);
    } else if (arg == "--kill-self" && has_value) {
      kill_signal = std::atoi(argv[++i]);
    } else if (arg == "--report-signals") {
      report_signals = true;
    }
  }
  if (out.empty()) {
    const char* dir = std::getenv("ROCPROF_OUTPUT_PATH");
    out = std::string(dir != nullptr ? dir : ".") + "/env_recorder.json";
  }
  std::snprintf(g_signal_file, sizeof(g_signal_file), "%s.signals", out.c_str());
  if (report_signals) {
    for (int sig : {SIGINT, SIGTERM, SIGQUIT, SIGHUP})
      ::signal(sig, on_signal);
  }

  nlohmann::json record;
  record["pid"] = ::getpid();
  record["argv"] = std::vector<std::string>(argv, argv + argc);
  nlohmann::json env = nlohmann::json::object();
  for (char** item = environ; *item != nullptr; ++item) {
    const std::string entry(*item);
    const size_t eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  record["env"] = env;
  {
    // Written to a temporary name and renamed, so a reader never sees half a file.
    const std::string partial = out + ".partial";
    std::ofstream file(partial);
    file << record.dump(2) << "\n";
    file.close();
    if (!file || std::rename(partial.c_str(), out.c_str()) != 0) {
      std::fprintf(stderr, "env_recorder: cannot write %s\n", out.c_str());
      return 2;
    }
  }
  if (kill_signal != 0) ::raise(kill_signal);
  for (int i = 0; i < sleep_seconds * 10; ++i)
    ::usleep(100000);
  return exit_code;
}
