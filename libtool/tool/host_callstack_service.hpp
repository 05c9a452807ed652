// --kernel-host-callstack: the host call stack of each kernel launch.
//
// A callback-tracing context on the CUDA runtime and driver operations that launch work (found
// by name: they contain "Launch", host-function launches excepted). At the ENTER of the
// outermost launch call of a thread the stack is unwound (libtool/callstack/unwind.hpp), the
// profiler's and the CUDA driver's own frames on top left out, interned in the lock-free stack
// table, and (correlation id -> stack id) appended to the launch log. The kernels' dispatch
// records carry the launch call's correlation id; at the end each distinct return address is
// resolved once with libdw and the definitions get the stacks and the join table.
#pragma once

#include <rocprof/trace/model.hpp>

namespace rocprof::tool {

struct tool_state;

// Inside the core's initialize call; does nothing unless the setting is on.
void configure_host_callstacks(tool_state& tool);
// At finalize, with the process still alive: resolves the stacks into `defs`. Reports on
// stderr (once) how many launches had no stack recorded because a table was full.
void attach_host_callstacks(const tool_state& tool, trace::trace_definitions& defs);

}  // namespace rocprof::tool
