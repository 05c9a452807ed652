#include "intern.hpp"

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

#include "fork_guard.hpp"

namespace rocprof::core {
namespace {

struct global_table {
  std::mutex mutex;
  std::unordered_set<std::string> strings;  // node-based: c_str() never moves
};

// Leaked on purpose: records hold these pointers until the very end of the process. Made
// without a lock, and its lock is held across fork() (fork_guard.hpp): a child never finds it
// taken by a thread that did not come along.
std::atomic<global_table*> g_table{nullptr};

global_table& table() {
  return lazily_made(g_table, [](global_table& t) { guard_across_fork(t.mutex); });
}

}  // namespace

const char* intern_global(std::string_view text) {
  global_table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.strings.emplace(text).first->c_str();
}

namespace {

// Hashes 8 bytes at a time (multiply-xorshift); the length comes from strlen, which glibc
// does with vector loads. Several times faster than a byte loop on short marker texts.
uint64_t hash_text(const char* s, size_t length) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ length;
  size_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint64_t word = 0;
    std::memcpy(&word, s + i, 8);
    h = (h ^ word) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, s + i, length - i);
  h = (h ^ tail) * 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 29);
}

}  // namespace

const char* intern_cache::intern_miss(pointer_slot& front, const char* s) {
  const char* text = intern_by_content(s);
  front = pointer_slot{s, text};
  return text;
}

const char* intern_cache::intern_by_content(const char* s) {
  const size_t length = std::strlen(s);
  const uint64_t hash = hash_text(s, length);
  const size_t home = static_cast<size_t>(hash) & (slot_count - 1);
  for (size_t i = 0; i < probe_limit; ++i) {
    slot& candidate = slots_[(home + i) & (slot_count - 1)];
    if (candidate.text == nullptr) {
      candidate = slot{hash, length, intern_global(std::string_view(s, length))};
      return candidate.text;
    }
    if (candidate.hash == hash && candidate.length == length &&
        std::memcmp(candidate.text, s, length) == 0)
      return candidate.text;
  }
  slot& victim = slots_[home];
  victim = slot{hash, length, intern_global(std::string_view(s, length))};
  return victim.text;
}

}  // namespace rocprof::core
