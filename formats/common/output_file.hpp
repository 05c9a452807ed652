// A buffered output file: rows are appended to an in-memory buffer that is written out with
// fwrite whenever it passes a threshold, so memory stays bounded whatever the record count.
// The file is staged (rocprof/trace/staged_file.hpp): written under a private temporary name,
// created with O_EXCL|O_NOFOLLOW, and renamed over its name by close(), so a reader never sees
// it half-written and a link planted at the name is replaced, never followed. Creates missing
// parent directories. Errors are remembered and reported by close().
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "rocprof/trace/staged_file.hpp"

namespace rocprof::formats {

using trace::create_parent_directories;

class output_file {
 public:
  output_file() = default;
  explicit output_file(std::string path) { open(std::move(path)); }
  ~output_file();
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  output_file(output_file&& other) noexcept;
  output_file& operator=(output_file&& other) noexcept;

  bool open(std::string path);
  bool is_open() const { return file_ != nullptr; }
  const std::string& path() const { return path_; }

  // The row buffer; append to it, then call maybe_flush().
  std::string& buffer() { return buffer_; }
  void write(std::string_view s) {
    buffer_ += s;
    maybe_flush();
  }
  void maybe_flush() {
    if (buffer_.size() >= flush_threshold) flush();
  }
  void flush();
  uint64_t bytes_written() const { return bytes_ + buffer_.size(); }
  // Flushes, closes and gives the file its name; returns an error text or empty on success.
  std::string close();
  // For scratch files (never named): appends everything written so far to `out`, then removes
  // this file. Returns an error text or empty.
  std::string move_contents_to(output_file& out);
  // Drops what was written; the file never gets its name (also what the destructor does).
  void discard();

  static constexpr size_t flush_threshold = 1u << 20;

 private:
  void close_stream();

  std::FILE* file_ = nullptr;
  trace::staged_file staged_;
  std::string path_;
  std::string buffer_;
  std::string error_;
  uint64_t bytes_ = 0;
};

}  // namespace rocprof::formats
