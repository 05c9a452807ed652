// --list-avail: what this machine offers. Small on purpose: the core and CUDA backends extend it.
#pragma once

#include <ostream>
#include <string>

namespace rocprof::cli {

// Prints the CPU agents described by `cpuinfo_path` and a note about GPU counters.
void print_list_avail(std::ostream& out, const std::string& cpuinfo_path = "/proc/cpuinfo");

}  // namespace rocprof::cli
