#include "perfetto/proto_encoder.hpp"

#include <algorithm>
#include <cerrno>

namespace rocprof::trace::perfetto {

namespace {
size_t varint_size(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}
}  // namespace

proto_encoder::proto_encoder(size_t chunk_size)
    // Slack above the threshold so that a typical packet never forces a reallocation.
    : buf_(new uint8_t[chunk_size + 64 * 1024]),
      capacity_(chunk_size + 64 * 1024),
      flush_threshold_(chunk_size) {}

// Not closed: the trace was not finished, so its file does not get its name.
proto_encoder::~proto_encoder() {
  if (file_ != nullptr) std::fclose(file_);
  staged_.discard();
}

bool proto_encoder::open(const std::string& path) {
  if (!staged_.create(path)) {
    error_ = "cannot open " + path + ": " + staged_.error();
    return false;
  }
  file_ = ::fdopen(staged_.fd(), "wb");
  if (file_ == nullptr) {
    error_ = "cannot open " + path + ": " + std::strerror(errno);
    staged_.discard();
    return false;
  }
  staged_.release_fd();  // the stream owns it now
  // Our own chunk is the buffer; stdio's would only add a copy.
  std::setvbuf(file_, nullptr, _IONBF, 0);
  return true;
}

void proto_encoder::end_message(message_token at) {
  const size_t body_start = at + 4;
  const size_t body_len = pos_ - body_start;
  const size_t len_size = varint_size(body_len);
  uint8_t* base = buf_.get();
  if (len_size < 4) {
    std::memmove(base + at + len_size, base + body_start, body_len);
    pos_ -= 4 - len_size;
  }
  // Messages longer than 2^28 bytes cannot occur: a packet holds one event or descriptor.
  size_t value = body_len;
  for (size_t i = 0; i < len_size; ++i) {
    const bool more = i + 1 < len_size;
    base[at + i] = static_cast<uint8_t>((value & 0x7f) | (more ? 0x80 : 0));
    value >>= 7;
  }
}

void proto_encoder::grow(size_t needed) {
  const size_t new_capacity = std::max(needed, capacity_ * 2);
  std::unique_ptr<uint8_t[]> bigger(new uint8_t[new_capacity]);
  std::memcpy(bigger.get(), buf_.get(), pos_);
  buf_ = std::move(bigger);
  capacity_ = new_capacity;
}

void proto_encoder::flush() {
  if (pos_ == 0) return;
  if (file_ != nullptr && error_.empty()) {
    if (std::fwrite(buf_.get(), 1, pos_, file_) != pos_)
      error_ = std::string("write failed: ") + std::strerror(errno);
  }
  flushed_ += pos_;
  pos_ = 0;
}

bool proto_encoder::close() {
  flush();
  if (file_ != nullptr) {
    if (std::fclose(file_) != 0 && error_.empty())
      error_ = std::string("close failed: ") + std::strerror(errno);
    file_ = nullptr;
    if (error_.empty())
      error_ = staged_.commit();
    else
      staged_.discard();  // complete or absent
  }
  return error_.empty();
}

}  // namespace rocprof::trace::perfetto
