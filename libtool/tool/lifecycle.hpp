// When the tool's end comes, and making sure it comes exactly once per process:
//   * normal exit: an atexit handler (and the core's finalize callback, whichever runs first);
//   * a fatal signal (SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGABRT): the handler only writes the
//     signal number into a pipe and waits (poll) for a dedicated finalizer thread to write the
//     outputs, then runs the application's own handler if it had one and re-raises the signal
//     with the default action so the exit status stays that of the signal;
//   * fork(): the child forgets the parent's records (the reset callback) and writes its own
//     outputs under its own pid at its own end.
// The application's later signal()/sigaction() calls for those signals are chained behind ours
// (see signal_interpose.cpp), so installing its handler does not silently disable ours.
#pragma once

#include <csignal>

namespace rocprof::tool::lifecycle {

using callback = void (*)();

// finalize: writes the outputs (called at most once per process, never concurrently).
// reset_after_fork: runs in a forked child before it continues.
void install(callback finalize, callback reset_after_fork, bool signal_handlers);

// Runs finalize unless it already ran (or is running: then waits for it to end).
void finalize_once();

bool finalized();

// For signal_interpose.cpp: whether `signo` is one we handle and our handler is installed; if
// so, `user` receives/returns the application's action that we chain behind ours.
bool is_handled(int signo);
struct sigaction* chained_action(int signo);

}  // namespace rocprof::tool::lifecycle
