// Launch sites for the hot-spot report (--kernel-host-callstack): the frame of a launch stack
// where the application launched the kernel, i.e. the first frame that is not CUDA's own (a
// CUDA library, the statically linked runtime, nvcc's launch stubs) and not the kernel's host
// stub (nvcc emits a host function with the kernel's name that makes the launch call).
#pragma once

#include <string>
#include <string_view>

#include "rocprof/trace/model.hpp"

namespace rocprof::formats::hotspots {

// True for frames of CUDA libraries, CUDA runtime entry points and nvcc-generated stubs.
bool is_cuda_frame(const trace::host_frame& frame);

// The launch site of a stack: "function (file:line)", "function (module file name)" without
// line information; "(unknown)" when every frame is CUDA's. `kernel_demangled` (may be empty) names
// the kernel, whose host stub is skipped too.
std::string launch_site(const trace::host_callstack_info& stack, std::string_view kernel_demangled);

}  // namespace rocprof::formats::hotspots
