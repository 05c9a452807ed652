#include "common/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

namespace rocprof::formats {

std::string create_parent_directories(const std::string& path) {
  auto parent = std::filesystem::path{path}.parent_path();
  if (parent.empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) return "cannot create directory " + parent.string() + ": " + ec.message();
  return {};
}

output_file::~output_file() {
  close();
}

output_file::output_file(output_file&& other) noexcept {
  *this = std::move(other);
}

output_file& output_file::operator=(output_file&& other) noexcept {
  if (this != &other) {
    close();
    file_ = std::exchange(other.file_, nullptr);
    path_ = std::move(other.path_);
    buffer_ = std::move(other.buffer_);
    error_ = std::move(other.error_);
    bytes_ = other.bytes_;
  }
  return *this;
}

bool output_file::open(std::string path) {
  close();
  path_ = std::move(path);
  error_ = create_parent_directories(path_);
  if (!error_.empty()) return false;
  file_ = std::fopen(path_.c_str(), "wb");
  if (!file_) {
    error_ = "cannot open " + path_ + ": " + std::strerror(errno);
    return false;
  }
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

std::string output_file::close() {
  if (file_) {
    flush();
    if (std::fclose(file_) != 0 && error_.empty())
      error_ = "close of " + path_ + " failed: " + std::strerror(errno);
    file_ = nullptr;
  }
  return error_;
}

}  // namespace rocprof::formats
