// The argument text already made for a CUDA API call's exact argument bytes, so that a loop
// repeating a call with the same arguments (a training step's launches: same kernel, grid,
// argument array and stream) formats them once instead of once per call. On the buffer callback
// threads: one memo per thread, no lock.
//
// The text is a pure function of the key: the core decodes a buffer record's arguments from the
// copied parameter struct without following any pointer (max dereference 0), so equal bytes, kind,
// operation and return code give equal text. A key that differs only in padding bytes is a miss,
// never a wrong answer.
#pragma once

#include <cstdint>
#include <memory>

#include "rocprof/trace/model.hpp"

namespace rocprof::tool {

// What decides a record's argument text.
struct api_args_key {
  uint32_t kind = 0;
  int32_t operation = 0;
  int32_t return_code = 0;
  uint32_t size = 0;           // bytes of args in use (at most api_args_memo::max_bytes)
  const void* args = nullptr;  // the record's copy of the parameter struct
};

class api_args_memo {
 public:
  static constexpr uint32_t max_bytes = 128;  // ROCPROFILER_CUDA_API_ARGS_CAPACITY
  static constexpr uint32_t slots = 1024;     // direct-mapped: a newer key replaces an older

  // True and *id when this key's text was remembered.
  bool find(const api_args_key& key, trace::string_id* id);
  // Remembers the id for the key last passed to find() (call it after a miss).
  void remember(trace::string_id id);

 private:
  struct slot {
    uint32_t kind;
    int32_t operation;
    int32_t return_code;
    uint32_t size;  // 0: empty slot (records without arguments are never looked up)
    trace::string_id id;
    uint64_t words[max_bytes / 8];
  };
  std::unique_ptr<slot[]> table_;  // made at the first lookup: threads without CUDA pay nothing
  slot pending_{};                 // the key of the last find(), zero-padded to whole words
  uint32_t pending_index_ = 0;
};

}  // namespace rocprof::tool
