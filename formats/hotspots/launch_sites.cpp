#include "hotspots/launch_sites.hpp"

#include <cctype>

namespace rocprof::formats::hotspots {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string_view base_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Shared objects of the CUDA toolkit and driver whose frames are never the application's.
constexpr std::string_view cuda_library_prefixes[] = {
    "libcuda.",    "libcudart.",  "libcublas", "libcudnn", "libcufft",     "libcurand",
    "libcusparse", "libcusolver", "libnccl",   "libnvrtc", "libnvJitLink", "libcupti"};

}  // namespace

bool is_cuda_frame(const trace::host_frame& frame) {
  const std::string_view module = base_name(frame.module);
  for (std::string_view prefix : cuda_library_prefixes)
    if (starts_with(module, prefix)) return true;
  const std::string_view fn = frame.function;
  // Runtime and driver entry points (cudaLaunchKernel, cuLaunchKernel, the static runtime's
  // internals) and nvcc's stubs, wherever they were linked.
  // "cuda" or "cu" then an upper-case letter: an application's cuda_forward() stays its own.
  const auto api_prefix = [fn](std::string_view p) {
    return starts_with(fn, p) && fn.size() > p.size() &&
           std::isupper(static_cast<unsigned char>(fn[p.size()]));
  };
  if (api_prefix("cuda") || api_prefix("cu") || starts_with(fn, "__cudart") ||
      starts_with(fn, "__device_stub") || starts_with(fn, "__wrapper__device_stub"))
    return true;
  const std::string_view file = frame.file;
  return file.find(".cudafe1.") != std::string_view::npos || base_name(file) == "cuda_runtime.h";
}

std::string launch_site(const trace::host_callstack_info& stack,
                        std::string_view kernel_demangled) {
  for (const auto& frame : stack.frames) {
    if (is_cuda_frame(frame)) continue;
    if (!kernel_demangled.empty() && frame.function == kernel_demangled) continue;
    std::string out = frame.function.empty() ? std::string("(unknown function)") : frame.function;
    if (!frame.file.empty() && frame.line != 0)
      out += " (" + frame.file + ":" + std::to_string(frame.line) + ")";
    else if (!frame.module.empty())
      out += " (" + std::string(base_name(frame.module)) + ")";
    return out;
  }
  return "(unknown)";
}

}  // namespace rocprof::formats::hotspots
