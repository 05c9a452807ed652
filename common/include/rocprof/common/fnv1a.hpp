// FNV-1a, 64 bits: a hash that is the same in every process and build (std::hash is not), for
// names of files and identifiers that must stay put across runs.
#pragma once

#include <cstdint>
#include <string_view>

namespace rocprof::common {

inline uint64_t fnv1a(std::string_view text, uint64_t hash = 0xcbf29ce484222325ull) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

}  // namespace rocprof::common
