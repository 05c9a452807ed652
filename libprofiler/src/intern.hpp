// String interning. Marker messages and NVTX domain names become pointers into a global,
// never-freed table, so records stay fixed-size and their strings stay valid until exit.
//
// Why a per-thread cache: the steady state of a marker-heavy program repeats a few messages
// from many threads. The thread's cache answers those with a hash of the text and one memcmp,
// without lock or allocation. Only the first sight of a text on a thread goes to the global
// table (mutex, and one allocation the first time the text is seen in the process). Keying
// by content rather than by pointer keeps messages built in reused stack buffers correct.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace rocprof::core {

class intern_cache {
 public:
  /// s must be non-null and NUL-terminated. Returns the interned copy. Inline: the common
  /// case (the same pointer as last time in its slot, same text) is one load, one compare and
  /// a strcmp of the text.
  const char* intern(const char* s) {
    pointer_slot& front =
        by_pointer_[(reinterpret_cast<uintptr_t>(s) >> 3) & (pointer_slot_count - 1)];
    if (__builtin_expect(front.source == s, 1) && std::strcmp(front.text, s) == 0)
      return front.text;
    return intern_miss(front, s);
  }

 private:
  struct slot {
    uint64_t hash = 0;
    size_t length = 0;
    const char* text = nullptr;
  };
  static constexpr size_t slot_count = 256;  // power of two
  static constexpr size_t probe_limit = 4;
  slot slots_[slot_count];
  // Front cache by address: most markers pass the same literal again and again. A hit is
  // confirmed with strcmp, so a reused buffer with new text simply misses.
  struct pointer_slot {
    const char* source = nullptr;
    const char* text = nullptr;
  };
  static constexpr size_t pointer_slot_count = 64;  // power of two
  pointer_slot by_pointer_[pointer_slot_count];
  const char* intern_by_content(const char* s);
  const char* intern_miss(pointer_slot& front, const char* s);
};

/// The global table (locked). Returns a pointer valid until process exit.
const char* intern_global(std::string_view text);

}  // namespace rocprof::core
