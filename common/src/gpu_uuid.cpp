#include "rocprof/common/gpu_uuid.hpp"

namespace rocprof::common {

std::string format_gpu_uuid(const uint8_t (&bytes)[16]) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string uuid = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) uuid += '-';
    uuid += hex[bytes[i] >> 4];
    uuid += hex[bytes[i] & 0xF];
  }
  return uuid;
}

}  // namespace rocprof::common
