#include "rocprof/trace/staged_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

namespace rocprof::trace {
namespace {

// The table of unfinished files, read by remove_unfinished_outputs() from a signal handler:
// fixed storage (no allocation), each slot's state changed only with atomic exchanges. A slot
// is free, being filled, listed (the handler may take it) or taken by the handler (its file is
// being removed and the slot is never reused: the process is about to end).
enum slot_state : int { free_slot = 0, filling = 1, listed = 2, taken = 3 };

struct unfinished_slot {
  std::atomic<int> state{free_slot};
  pid_t owner = 0;  // a forked child inherits the table: it removes only its own files
  char path[4096] = {};
};

constexpr size_t slot_count = 128;  // more open outputs than this are simply not listed
std::array<unfinished_slot, slot_count> g_slots;
std::atomic<bool> g_abandoning{false};
std::atomic<unsigned> g_sequence{0};

int list_unfinished(const std::string& path) {
  if (path.size() >= sizeof(unfinished_slot::path)) return -1;
  for (size_t i = 0; i < slot_count; ++i) {
    int expected = free_slot;
    if (!g_slots[i].state.compare_exchange_strong(expected, filling)) continue;
    g_slots[i].owner = ::getpid();
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(listed, std::memory_order_release);
    return static_cast<int>(i);
  }
  return -1;
}

void unlist(int slot) {
  if (slot < 0) return;
  int expected = listed;
  // Taken by the handler: leave it alone, the process is ending.
  g_slots[static_cast<size_t>(slot)].state.compare_exchange_strong(expected, free_slot);
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::string base_name_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string create_parent_directories(const std::string& path) {
  auto parent = std::filesystem::path{path}.parent_path();
  if (parent.empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) return "cannot create directory " + parent.string() + ": " + ec.message();
  return {};
}

staged_file::~staged_file() {
  discard();
}

staged_file::staged_file(staged_file&& other) noexcept {
  *this = std::move(other);
}

staged_file& staged_file::operator=(staged_file&& other) noexcept {
  if (this != &other) {
    discard();
    fd_ = std::exchange(other.fd_, -1);
    slot_ = std::exchange(other.slot_, -1);
    final_path_ = std::move(other.final_path_);
    temp_path_ = std::move(other.temp_path_);
    error_ = std::move(other.error_);
    other.temp_path_.clear();
  }
  return *this;
}

bool staged_file::create(std::string final_path) {
  discard();
  final_path_ = std::move(final_path);
  error_ = create_parent_directories(final_path_);
  if (!error_.empty()) return false;
  const std::string prefix = directory_of(final_path_) + "." + base_name_of(final_path_) + "." +
                             std::to_string(::getpid());
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (g_abandoning.load()) {
      error_ = "not writing " + final_path_ + ": the process is being stopped";
      return false;
    }
    std::string candidate = prefix + "-" + std::to_string(g_sequence.fetch_add(1)) + ".partial";
    // O_EXCL|O_NOFOLLOW: never open what someone else placed at the name, link or file.
    const int fd =
        ::open(candidate.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      fd_ = fd;
      temp_path_ = std::move(candidate);
      slot_ = list_unfinished(temp_path_);
      return true;
    }
    if (errno != EEXIST) {
      error_ = "cannot create " + candidate + ": " + std::strerror(errno);
      return false;
    }
  }
  error_ = "cannot create a temporary file for " + final_path_;
  return false;
}

int staged_file::release_fd() {
  return std::exchange(fd_, -1);
}

void staged_file::close_fd() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void staged_file::forget_slot() {
  unlist(slot_);
  slot_ = -1;
}

std::string staged_file::commit() {
  close_fd();
  if (temp_path_.empty()) return error_.empty() ? "no file to commit for " + final_path_ : error_;
  forget_slot();
  std::string error;
  if (::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    error = "cannot rename " + temp_path_ + " to " + final_path_ + ": " + std::strerror(errno);
    ::unlink(temp_path_.c_str());
  }
  temp_path_.clear();
  return error;
}

void staged_file::discard() {
  close_fd();
  if (temp_path_.empty()) return;
  forget_slot();
  ::unlink(temp_path_.c_str());
  temp_path_.clear();
}

int remove_unfinished_outputs() noexcept {
  g_abandoning.store(true);
  const pid_t self = ::getpid();
  int removed = 0;
  for (auto& slot : g_slots) {
    int expected = listed;
    if (!slot.state.compare_exchange_strong(expected, taken)) continue;
    if (slot.owner == self && ::unlink(slot.path) == 0) ++removed;
  }
  return removed;
}

}  // namespace rocprof::trace
