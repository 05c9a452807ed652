// When the tool's end comes, and making sure it comes exactly once per process:
//   * normal exit: an atexit handler (and the core's finalize callback, whichever runs first);
//   * a stop signal (SIGINT, SIGTERM, SIGQUIT, SIGHUP) or SIGABRT: the handler only writes a
//     request into a pipe and waits (poll) for a dedicated finalizer thread to write the
//     outputs, then runs the application's own handler if it had one and re-raises the signal
//     with the default action, so the exit status stays that of the signal. More signals while
//     the outputs are written do not interrupt them (they wait too); three stop signals within a
//     second stop the process at once, after removing every output not yet complete (each file
//     is then complete or absent);
//   * a fatal fault (SIGSEGV, SIGBUS, SIGILL, SIGFPE; only where the application left the
//     default action): the handler, on an alternate stack, asks the finalizer thread to flush
//     what it can (flush_for_fault: into the record journal, whose outputs the launcher then
//     writes; without one, the outputs themselves), waits a bounded time, and re-raises with the
//     default action: the exit status and the core dump stay the application's;
//   * fork(): the child forgets the parent's records (the reset callback) and writes its own
//     outputs under its own pid at its own end.
// The application's later signal()/sigaction() calls for the stop signals and SIGABRT are
// chained behind ours (see signal_interpose.cpp), so installing its handler does not silently
// disable ours; for the fault signals its handler simply replaces ours (runtimes such as the JVM
// use SIGSEGV themselves).
#pragma once

#include <csignal>

namespace rocprof::tool::lifecycle {

using callback = void (*)();

// finalize: writes the outputs (called at most once per process, never concurrently).
// reset_after_fork: runs in a forked child before it continues.
// flush_for_fault: runs on the finalizer thread when a fatal fault arrives; nullptr: finalize.
void install(callback finalize, callback reset_after_fork, bool signal_handlers,
             callback flush_for_fault = nullptr);

// Runs finalize unless it already ran (or is running: then waits for it to end).
void finalize_once();

bool finalized();

// For signal_interpose.cpp: whether `signo` is one we handle and chain; if so, the action of
// the application that we chain behind ours.
bool is_handled(int signo);
struct sigaction* chained_action(int signo);

}  // namespace rocprof::tool::lifecycle
