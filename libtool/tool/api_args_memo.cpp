#include "api_args_memo.hpp"

#include <cstring>

namespace rocprof::tool {
namespace {

uint64_t mix(uint64_t h, uint64_t word) {
  h ^= word + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

}  // namespace

bool api_args_memo::find(const api_args_key& key, trace::string_id* id) {
  if (key.size == 0 || key.size > max_bytes || key.args == nullptr) return false;
  if (!table_) table_.reset(new slot[slots]());
  slot& k = pending_;
  k.kind = key.kind;
  k.operation = key.operation;
  k.return_code = key.return_code;
  k.size = key.size;
  const uint32_t words = (key.size + 7) / 8;
  k.words[words - 1] = 0;  // the bytes past size in the last word stay zero
  std::memcpy(k.words, key.args, key.size);
  uint64_t h = mix(mix(uint64_t{key.kind} << 32 | static_cast<uint32_t>(key.operation),
                       static_cast<uint32_t>(key.return_code)),
                   key.size);
  for (uint32_t i = 0; i < words; ++i)
    h = mix(h, k.words[i]);
  pending_index_ = static_cast<uint32_t>((h ^ (h >> 29)) % slots);
  const slot& s = table_[pending_index_];
  if (s.size != k.size || s.kind != k.kind || s.operation != k.operation ||
      s.return_code != k.return_code || std::memcmp(s.words, k.words, words * 8) != 0)
    return false;
  *id = s.id;
  return true;
}

void api_args_memo::remember(trace::string_id id) {
  if (!table_ || pending_.size == 0) return;
  slot& s = table_[pending_index_];
  s = pending_;
  s.id = id;
}

}  // namespace rocprof::tool
