// Starts the application of one pass (posix_spawnp, never a shell) and waits for it, and relays
// the user's stop signals (SIGINT, SIGTERM, SIGQUIT, SIGHUP) while rocprofv3 runs.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "environment.hpp"

namespace rocprof::cli {

struct launch_result {
  int exit_status = 0;       // the app's exit code, or 128+N when signal N killed it
  bool interrupted = false;  // rocprofv3 itself received a stop signal
  pid_t pid = 0;
  int wait_status = 0;  // as waitpid reported it
};

// While one lives, the stop signals reach rocprofv3's handler. Each is forwarded to the running
// application, unless the terminal already sent it to the application's process group (Ctrl-C
// reaches the whole foreground group: forwarding it too would double it). Three within a second
// mean "stop at once": the application's tool stops at once too (it counts its own), and when
// no application runs (rocprofv3 is writing recovered outputs), rocprofv3 removes every output
// not yet complete and ends by the signal. Fewer never interrupt the writing.
class signal_relay {
 public:
  signal_relay();
  ~signal_relay();
  signal_relay(const signal_relay&) = delete;
  signal_relay& operator=(const signal_relay&) = delete;

  bool interrupted() const;      // a stop signal arrived
  bool stopped_at_once() const;  // three within a second
};

// The application's full path as posix_spawnp would find it; throws usage_error when it does not
// exist or is not executable (so nothing is launched).
std::string resolve_application(const std::string& name, const environment& env);

launch_result launch(const std::vector<std::string>& argv, const environment& env);

}  // namespace rocprof::cli
