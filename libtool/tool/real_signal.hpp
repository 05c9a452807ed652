// The C library's sigaction(), bypassing the tool's own interposed one (signal_interpose.cpp).
#pragma once

#include <csignal>

namespace rocprof::tool {

int real_sigaction(int signo, const struct sigaction* action, struct sigaction* previous);

}  // namespace rocprof::tool
