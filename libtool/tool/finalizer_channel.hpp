// Between the signal handlers (signal_handlers.cpp) and the finalizer thread (lifecycle.cpp):
// a handler may do only async-signal-safe work, so it asks the thread, through a pipe, to do the
// rest, and waits for it with poll().
#pragma once

#include <csignal>

namespace rocprof::tool::lifecycle::detail {

enum request : int {
  finalize_request = 1,     // write the outputs
  fault_flush_request = 2,  // a fatal fault: flush what can be flushed
};

enum class wait_result {
  waited,     // the request was served (or timeout_ms passed)
  no_thread,  // there is no finalizer thread (or this is it)
  finalizing  // this thread is writing the outputs: it cannot wait for itself
};

// Async-signal-safe. Asks the finalizer thread for `what` (only the first request of the process
// is served: later ones wait for it) and waits up to timeout_ms for it to be done.
wait_result request_and_wait(request what, int timeout_ms);

// Async-signal-safe. A stop signal that arrived on the thread writing the outputs is kept
// (defer_stop_signal); finalize_once() hands it, once the outputs are complete, to
// deferred_stop_signal (signal_handlers.cpp), which ends the process with it.
void defer_stop_signal(int signo);
void deferred_stop_signal(int signo);

// signal_handlers.cpp: installs the handlers (the stop signals and SIGABRT always, the fault
// signals where their action is the default), and the alternate stack of the calling thread.
void install_signal_handlers();
bool handlers_installed();
// The application's action chained behind ours, per signal (signal_interpose.cpp).
struct sigaction* chained(int signo);
// In a forked child: no interrupt counted yet.
void reset_signal_state_after_fork();

// The real sigaction, bypassing the tool's interposer (real_signal.hpp).
int set_default_action(int signo);

}  // namespace rocprof::tool::lifecycle::detail
