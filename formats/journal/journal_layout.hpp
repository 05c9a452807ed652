// The journal's on-disk layout (see rocprof/trace/journal.hpp). Written and read by the same
// build (the tool and the rocprofv3 launcher), so records keep their in-memory layout; the file
// header names the version and every record kind's size, and a reader refuses a journal whose
// sizes differ.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rocprof/trace/journal.hpp"
#include "rocprof/trace/record_kinds.hpp"

namespace rocprof::trace::journal {

inline constexpr char file_magic[8] = {'R', 'P', 'V', '3', 'J', 'R', 'N', 'L'};
inline constexpr uint32_t layout_version = 1;
inline constexpr size_t file_header_size = 4096;  // one page: extents start page aligned
inline constexpr size_t max_kinds = 32;
static_assert(record_kind_count <= max_kinds, "the file header has room for 32 record kinds");

struct file_header {
  char magic[8];
  uint32_t version;
  uint32_t kind_count;
  uint32_t record_sizes[max_kinds];
  int64_t pid;
  std::atomic<uint32_t> outputs_written;  // 1 once the process wrote its outputs itself
};
static_assert(sizeof(file_header) <= file_header_size);
static_assert(std::atomic<uint32_t>::is_always_lock_free);

inline constexpr uint32_t extent_magic = 0x31545845;  // "EXT1"
enum extent_type : uint32_t { records_extent = 1, definitions_extent = 2 };

// Written before the extent's magic; `committed` grows as payload bytes complete (release
// store after the copy). A reader trusts at most `committed` bytes, and stops at the first
// extent without its magic (the writer died while making it).
struct extent_header {
  std::atomic<uint32_t> magic;
  uint32_t type;
  uint32_t kind;         // records: the record kind
  uint32_t record_size;  // records: sizeof the kind's struct
  uint64_t capacity;     // payload bytes
  std::atomic<uint64_t> committed;
  uint64_t reserved[4];
};
static_assert(sizeof(extent_header) == 64);
static_assert(std::atomic<uint64_t>::is_always_lock_free);

inline constexpr size_t record_extent_bytes = size_t{1} << 20;        // payload of a records extent
inline constexpr size_t definitions_extent_bytes = size_t{64} << 10;  // of a definitions extent

// A definitions entry: this header, `size` payload bytes, then padding to 8 bytes.
struct entry_header {
  uint32_t type;
  uint32_t size;
};
enum entry_type : uint32_t {
  plan_entry = 1,           // output_plan
  process_entry = 2,        // process_info + node_info
  string_entry = 3,         // u32 id + text
  thread_name_entry = 4,    // i64 tid + text
  thread_window_entry = 5,  // i64 tid, u64 start, u64 end
  agent_entry = 6,
  code_object_entry = 7,
  kernel_symbol_entry = 8,
  counter_entry = 9,
  dropped_entry = 10,  // u64 count to add
};

constexpr size_t round_up(size_t n, size_t to) {
  return (n + to - 1) / to * to;
}

// Hands the complete records of every records extent to `outs`, in extent order, read from `fd`
// in batches of at most batch_records (journal_reader.cpp). Returns an error text or empty.
std::string replay_extents(int fd, const std::vector<journal_extent>& extents,
                           const std::vector<writer*>& outs, size_t batch_records);

}  // namespace rocprof::trace::journal
