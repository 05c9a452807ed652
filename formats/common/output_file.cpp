#include "common/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace rocprof::formats {

// Not closed: the file was not finished, so it does not get its name.
output_file::~output_file() {
  discard();
}

void output_file::discard() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  staged_.discard();
}

output_file::output_file(output_file&& other) noexcept {
  *this = std::move(other);
}

output_file& output_file::operator=(output_file&& other) noexcept {
  if (this != &other) {
    discard();
    file_ = std::exchange(other.file_, nullptr);
    staged_ = std::move(other.staged_);
    path_ = std::move(other.path_);
    buffer_ = std::move(other.buffer_);
    error_ = std::move(other.error_);
    bytes_ = other.bytes_;
  }
  return *this;
}

bool output_file::open(std::string path) {
  discard();
  path_ = std::move(path);
  error_.clear();
  if (!staged_.create(path_)) {
    error_ = staged_.error();
    return false;
  }
  file_ = ::fdopen(staged_.fd(), "w+b");
  if (!file_) {
    error_ = "cannot open " + path_ + ": " + std::strerror(errno);
    staged_.discard();
    return false;
  }
  staged_.release_fd();  // the stream owns it now
  buffer_.reserve(flush_threshold + (flush_threshold >> 2));
  return true;
}

void output_file::flush() {
  if (!file_) {  // the open failed (error_ says why): drop rows rather than grow without bound
    buffer_.clear();
    return;
  }
  if (buffer_.empty()) return;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size() && error_.empty())
    error_ = "write to " + path_ + " failed: " + std::strerror(errno);
  bytes_ += buffer_.size();
  buffer_.clear();
}

void output_file::close_stream() {
  flush();
  if (std::fclose(file_) != 0 && error_.empty())
    error_ = "close of " + path_ + " failed: " + std::strerror(errno);
  file_ = nullptr;
}

std::string output_file::close() {
  if (file_) {
    close_stream();
    if (error_.empty()) {
      error_ = staged_.commit();
    } else {
      staged_.discard();  // complete or absent: a file that failed is not given its name
    }
  }
  return error_;
}

std::string output_file::move_contents_to(output_file& out) {
  if (!file_) return error_;
  flush();
  if (std::fflush(file_) != 0 && error_.empty())
    error_ = "write to " + path_ + " failed: " + std::strerror(errno);
  // Read back through the descriptor we created: the name is never looked up again.
  const int fd = ::fileno(file_);
  std::string chunk(1 << 20, '\0');
  for (off_t offset = 0;;) {
    const ssize_t n = ::pread(fd, chunk.data(), chunk.size(), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && error_.empty()) error_ = "cannot read back " + path_ + ": " + std::strerror(errno);
    if (n <= 0) break;
    out.flush();
    out.write(std::string_view{chunk.data(), static_cast<size_t>(n)});
    offset += n;
  }
  std::fclose(file_);
  file_ = nullptr;
  staged_.discard();
  return error_;
}

}  // namespace rocprof::formats
