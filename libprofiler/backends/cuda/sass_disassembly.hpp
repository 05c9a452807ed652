// The SASS text of a cubin through the CUDA toolkit's disassembler (`nvdisasm -c`), run as a
// child process at the end of a run (never in a CUPTI callback, never on the hot path). Any
// failure (no nvdisasm, a cubin it cannot read, a child that hangs) leaves the text unknown:
// it is never an error of the run.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "sass_listing.hpp"

namespace rocprof::cuda {

// The disassembler to run: ROCPROF_NVDISASM if set (empty or "0": none), else
// $CUDA_HOME/bin/nvdisasm, /usr/local/cuda/bin/nvdisasm, then `nvdisasm` on PATH; "" when none
// is found or disassembly is turned off.
std::string find_nvdisasm();

// Writes the cubin to a temporary file, runs `nvdisasm -c <file>` with the profiler's own
// preload variables removed from its environment, and parses its output. A child still running
// after `limit` is killed. False with `error` set when no listing came out.
bool disassemble_cubin(const std::string& nvdisasm, const char* cubin, size_t size,
                       sass_listing& out, std::string& error,
                       std::chrono::milliseconds limit = std::chrono::seconds(20));

}  // namespace rocprof::cuda
