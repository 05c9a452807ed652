#include "record_spool.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <new>
#include <utility>

#include "rocprof/trace/output_plan.hpp"

namespace rocprof::tool {
namespace {

// One spilled run of records of one kind. Written and read by this process only, so the
// layout is the in-memory one.
struct segment_header {
  uint32_t kind = 0;
  uint32_t record_size = 0;
  uint64_t count = 0;
};

bool write_all(int fd, const void* data, size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool read_all(int fd, void* data, size_t size) {
  auto* p = static_cast<unsigned char*>(data);
  while (size > 0) {
    ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

void make_directories(const std::string& path) {
  for (size_t pos = 1; pos <= path.size(); ++pos) {
    if (pos == path.size() || path[pos] == '/') ::mkdir(path.substr(0, pos).c_str(), 0755);
  }
}

}  // namespace

record_spool::record_spool(size_t budget_bytes, std::string spill_directory)
    : budget_bytes_(budget_bytes), spill_directory_(std::move(spill_directory)) {}

record_spool::~record_spool() {
  std::lock_guard<std::mutex> lock(mutex_);
  close_spill_locked();
}

void record_spool::unmapper::operator()(unsigned char* p) const {
  ::munmap(p, chunk_bytes);
}

void record_spool::append_bytes(trace::record_kind kind, const void* data, size_t record_size,
                                size_t count) {
  if (count == 0) return;
  const auto k = static_cast<size_t>(kind);
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::lock_guard<std::mutex> lock(mutex_);
  auto& chunks = memory_[k];
  for (size_t left = count; left > 0;) {
    if (chunks.empty() || chunks.back().used == chunks.back().capacity) {
      chunk fresh;
      fresh.capacity = std::max<size_t>(1, chunk_bytes / record_size) * record_size;
      void* mapped = ::mmap(nullptr, chunk_bytes, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
      if (mapped == MAP_FAILED) throw std::bad_alloc();
      fresh.data.reset(static_cast<unsigned char*>(mapped));
      chunks.push_back(std::move(fresh));
    }
    chunk& tail = chunks.back();
    const size_t n = std::min(left, (tail.capacity - tail.used) / record_size);
    std::memcpy(tail.data.get() + tail.used, bytes, n * record_size);
    tail.used += n * record_size;
    bytes += n * record_size;
    left -= n;
  }
  memory_bytes_ += record_size * count;
  counts_[k] += count;
  if (memory_bytes_ > budget_bytes_ && !spill_failed_) spill_locked();
}

bool record_spool::spill_locked() {
  if (spill_fd_ < 0) {
    make_directories(spill_directory_);
    // O_EXCL: never follow or reuse a file someone else placed there; retry on a name clash.
    for (int attempt = 0; attempt < 100 && spill_fd_ < 0; ++attempt) {
      std::string path = spill_directory_;
      if (!path.empty() && path.back() != '/') path += '/';
      path +=
          ".rocprofv3-spool-" + std::to_string(::getpid()) + "-" + std::to_string(attempt) + ".dat";
      spill_fd_ = ::open(path.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
      if (spill_fd_ >= 0)
        spill_path_ = path;
      else if (errno != EEXIST)
        break;
    }
    if (spill_fd_ < 0) {
      spill_failed_ = true;
      error_ = "cannot create a spill file in '" + spill_directory_ + "': " + std::strerror(errno) +
               "; records stay in memory";
      return false;
    }
  }
  for (size_t k = 0; k < kind_count; ++k) {
    auto& chunks = memory_[k];
    const auto record_size = static_cast<uint32_t>(trace::record_sizes[k]);
    // One segment per chunk; a failed write leaves the chunks not yet written in memory.
    size_t written = 0;
    for (; written < chunks.size(); ++written) {
      const chunk& c = chunks[written];
      segment_header header;
      header.kind = static_cast<uint32_t>(k);
      header.record_size = record_size;
      header.count = c.used / record_size;
      if (!write_all(spill_fd_, &header, sizeof(header)) ||
          !write_all(spill_fd_, c.data.get(), c.used)) {
        spill_failed_ = true;
        error_ = "writing the spill file '" + spill_path_ + "' failed: " + std::strerror(errno) +
                 "; records stay in memory";
        break;
      }
      spilled_bytes_ += sizeof(header) + c.used;
      memory_bytes_ -= c.used;
    }
    chunks.erase(chunks.begin(), chunks.begin() + static_cast<std::ptrdiff_t>(written));
    if (spill_failed_) return false;
  }
  return true;
}

void record_spool::close_spill_locked() {
  if (spill_fd_ >= 0) ::close(spill_fd_);
  spill_fd_ = -1;
  if (!spill_path_.empty()) ::unlink(spill_path_.c_str());
  spill_path_.clear();
}

void record_spool::replay(trace::writer& out, size_t batch_records) {
  replay(std::vector<trace::writer*>{&out}, batch_records);
}

void record_spool::replay(const std::vector<trace::writer*>& outs, size_t batch_records) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (batch_records == 0) batch_records = 1;
  if (spill_fd_ >= 0 && spilled_bytes_ > 0) {
    ::lseek(spill_fd_, 0, SEEK_SET);
    std::vector<unsigned char> read_back;
    uint64_t consumed = 0;
    while (consumed < spilled_bytes_) {
      segment_header header;
      if (!read_all(spill_fd_, &header, sizeof(header)) || header.kind >= kind_count ||
          header.record_size != trace::record_sizes[header.kind]) {
        error_ = "the spill file '" + spill_path_ + "' could not be read back";
        break;
      }
      consumed += sizeof(header) + header.count * header.record_size;
      uint64_t left = header.count;
      while (left > 0) {
        const size_t n = static_cast<size_t>(left < batch_records ? left : batch_records);
        read_back.resize(n * header.record_size);
        if (!read_all(spill_fd_, read_back.data(), read_back.size())) {
          error_ = "the spill file '" + spill_path_ + "' is truncated";
          consumed = spilled_bytes_;
          break;
        }
        trace::write_record_bytes(static_cast<trace::record_kind>(header.kind), read_back.data(), n,
                                  outs);
        left -= n;
      }
    }
  }
  for (size_t k = 0; k < kind_count; ++k) {
    const auto kind = static_cast<trace::record_kind>(k);
    const size_t size = trace::record_size(kind);
    for (const chunk& c : memory_[k]) {
      const size_t count = c.used / size;
      for (size_t first = 0; first < count; first += batch_records) {
        const size_t n = count - first < batch_records ? count - first : batch_records;
        trace::write_record_bytes(kind, c.data.get() + first * size, n, outs);
      }
    }
  }
}

uint64_t record_spool::total_records() const {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t total = 0;
  for (auto c : counts_)
    total += c;
  return total;
}

uint64_t record_spool::spilled_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return spilled_bytes_;
}

std::string record_spool::last_error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

void record_spool::discard() {
  std::lock_guard<std::mutex> lock(mutex_);
  close_spill_locked();
  spill_failed_ = true;  // never create another spill file
  spilled_bytes_ = 0;
  memory_bytes_ = 0;
  for (auto& chunks : memory_)
    std::vector<chunk>().swap(chunks);  // gives the chunks back
  counts_.fill(0);
}

void record_spool::abandon_in_forked_child() {
  if (spill_fd_ >= 0) ::close(spill_fd_);
  spill_fd_ = -1;
}

}  // namespace rocprof::tool
