#include "record_buffer.hpp"

#include <chrono>
#include <cstring>

#include "core_port.hpp"
#include "rocprof/common/c_boundary.hpp"

namespace rocprof::v2 {

record_buffer::record_buffer(rocprofiler_session_id_t session, rocprofiler_buffer_id_t id,
                             rocprofiler_buffer_callback_t callback, size_t size)
    : session_(session), id_(id), callback_(callback), storage_((size + 7) / 8) {}

record_buffer::~record_buffer() {
  stop_flusher();
}

void record_buffer::append(const void* record, size_t size) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (closed_ || size > storage_.size() * 8) return;
  if (used_ + size > storage_.size() * 8) deliver_locked();
  if (used_ + size > storage_.size() * 8) return;  // a callback re-entered append: no room
  std::memcpy(reinterpret_cast<unsigned char*>(storage_.data()) + used_, record, size);
  used_ += size;
}

void record_buffer::deliver() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  deliver_locked();
}

void record_buffer::deliver_locked() {
  if (delivering_ || used_ == 0) return;
  delivering_ = true;
  const auto* begin = reinterpret_cast<const rocprofiler_record_header_t*>(storage_.data());
  const auto* end = reinterpret_cast<const rocprofiler_record_header_t*>(
      reinterpret_cast<const unsigned char*>(storage_.data()) + used_);
  // The user's callback is C code of the application: whatever it throws stays here.
  c_boundary::guarded_call("a rocprofiler v2 buffer callback",
                           [&] { callback_(begin, end, session_, id_); });
  used_ = 0;
  delivering_ = false;
}

void record_buffer::set_flush_interval(uint64_t milliseconds) {
  stop_flusher();
  if (milliseconds == 0) return;
  std::lock_guard<std::mutex> lock(flusher_mutex_);
  interval_ms_ = milliseconds;
  stop_flusher_ = false;
  flusher_ = std::thread([this] { flusher_loop(); });
}

void record_buffer::flusher_loop() {
  std::unique_lock<std::mutex> lock(flusher_mutex_);
  while (!stop_flusher_) {
    if (flusher_wake_.wait_for(lock, std::chrono::milliseconds(interval_ms_),
                               [this] { return stop_flusher_; }))
      break;
    lock.unlock();
    core_port::flush();  // what the core still holds belongs to this interval too
    deliver();
    lock.lock();
  }
}

void record_buffer::stop_flusher() {
  {
    std::lock_guard<std::mutex> lock(flusher_mutex_);
    stop_flusher_ = true;
  }
  flusher_wake_.notify_all();
  if (flusher_.joinable() && flusher_.get_id() != std::this_thread::get_id()) flusher_.join();
  if (flusher_.joinable()) flusher_.detach();  // closed from its own callback
}

void record_buffer::close() {
  stop_flusher();
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  deliver_locked();
  closed_ = true;
}

}  // namespace rocprof::v2
