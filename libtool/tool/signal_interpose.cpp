// The tool library exports sigaction() and signal(): loaded first (LD_PRELOAD), they see the
// application's requests before the C library. For the signals the tool handles, the
// application's handler is recorded and chained behind the tool's (lifecycle.cpp) instead of
// replacing it, so a program that installs its own SIGTERM handler still leaves its outputs.
// Every other request goes straight to the C library.
#include <dlfcn.h>

#include <csignal>

#include "lifecycle.hpp"
#include "real_signal.hpp"
#include "rocprof/common/c_boundary.hpp"

using rocprof::tool::real_sigaction;

extern "C" {

// A failure inside the tool returns what the C library returns on failure: -1 / SIG_ERR.
__attribute__((visibility("default"))) int sigaction(int signo, const struct sigaction* action,
                                                     struct sigaction* previous) {
  return rocprof::c_boundary::guarded_or(__func__, -1, [&] {
    namespace lifecycle = rocprof::tool::lifecycle;
    struct sigaction* chained = lifecycle::is_handled(signo) && !lifecycle::finalized()
                                    ? lifecycle::chained_action(signo)
                                    : nullptr;
    if (chained == nullptr) return real_sigaction(signo, action, previous);
    if (previous != nullptr) *previous = *chained;
    if (action != nullptr) *chained = *action;
    return 0;
  });
}

__attribute__((visibility("default"))) sighandler_t signal(int signo, sighandler_t handler) {
  return rocprof::c_boundary::guarded_or(__func__, SIG_ERR, [&] {
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;  // the BSD semantics glibc's signal() gives
    struct sigaction previous {};
    if (sigaction(signo, &action, &previous) != 0) return SIG_ERR;
    return previous.sa_handler;
  });
}

}  // extern "C"
