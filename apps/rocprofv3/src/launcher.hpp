// Starts the application of one pass (posix_spawnp, never a shell), forwards SIGINT, SIGTERM,
// SIGQUIT and SIGHUP to it while it runs, and waits for it.
#pragma once

#include <string>
#include <vector>

#include "environment.hpp"

namespace rocprof::cli {

struct launch_result {
  int exit_status = 0;       // the app's exit code, or 128+N when signal N killed it
  bool interrupted = false;  // rocprofv3 itself received a forwarded signal
};

// The application's full path as posix_spawnp would find it; throws usage_error when it does not
// exist or is not executable (so nothing is launched).
std::string resolve_application(const std::string& name, const environment& env);

launch_result launch(const std::vector<std::string>& argv, const environment& env);

}  // namespace rocprof::cli
