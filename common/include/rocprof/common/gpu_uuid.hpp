// A GPU's 16 UUID bytes as nvidia-smi prints them: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
// Shared by the tool (agent definitions) and the CLI (--list-avail).
#pragma once

#include <cstdint>
#include <string>

namespace rocprof::common {

std::string format_gpu_uuid(const uint8_t (&bytes)[16]);

}  // namespace rocprof::common
