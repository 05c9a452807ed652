// A minimal streaming protobuf encoder for Perfetto traces (no libprotobuf at runtime).
//
// Bytes go straight into one chunk buffer that is written to the file whenever a top-level
// TracePacket ends and the chunk is past its flush threshold, so memory stays at one chunk plus
// the largest single packet, whatever the trace length. Nested messages reserve a 4-byte length
// (a redundant varint, as protozero does) and are compacted to the shortest varint when they end,
// because small packets are the common case and 3 wasted bytes per message would be ~10% of a
// kernel slice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "rocprof/trace/staged_file.hpp"

namespace rocprof::trace::perfetto {

class proto_encoder {
 public:
  // Position of a nested message's reserved length; returned by begin_message().
  using message_token = size_t;

  explicit proto_encoder(size_t chunk_size = size_t{1} << 20);
  ~proto_encoder();
  proto_encoder(const proto_encoder&) = delete;
  proto_encoder& operator=(const proto_encoder&) = delete;

  // Opens `path` for writing: staged under a temporary name (rocprof/trace/staged_file.hpp)
  // that close() renames to `path`. Returns false and sets error() on failure.
  bool open(const std::string& path);
  // Writes what is buffered and closes the file. Returns false on any I/O error.
  bool close();
  const std::string& error() const { return error_; }
  uint64_t bytes_written() const { return flushed_ + pos_; }

  // Wire type 0 (varint). Negative int64 values take 10 bytes, as protobuf specifies.
  void add_varint(uint32_t field, uint64_t value) {
    ensure(20);
    put_varint(tag(field, 0));
    put_varint(value);
  }
  void add_int64(uint32_t field, int64_t value) { add_varint(field, static_cast<uint64_t>(value)); }
  void add_bool(uint32_t field, bool value) { add_varint(field, value ? 1 : 0); }
  // Wire type 1 (fixed64): doubles and fixed64 fields such as flow ids.
  void add_fixed64(uint32_t field, uint64_t value) {
    ensure(18);
    put_varint(tag(field, 1));
    std::memcpy(buf_.get() + pos_, &value, 8);  // little-endian host (x86-64 / aarch64)
    pos_ += 8;
  }
  void add_double(uint32_t field, double value) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, 8);
    add_fixed64(field, bits);
  }
  // Wire type 2 (length-delimited) with raw bytes.
  void add_bytes(uint32_t field, std::string_view bytes) {
    ensure(bytes.size() + 20);
    put_varint(tag(field, 2));
    put_varint(bytes.size());
    if (!bytes.empty()) std::memcpy(buf_.get() + pos_, bytes.data(), bytes.size());
    pos_ += bytes.size();
  }

  message_token begin_message(uint32_t field) {
    ensure(20);
    put_varint(tag(field, 2));
    const size_t at = pos_;
    pos_ += 4;
    return at;
  }
  void end_message(message_token at);

  // A top-level TracePacket (field 1 of Trace). end_packet() may flush the chunk.
  message_token begin_packet() { return begin_message(1); }
  void end_packet(message_token at) {
    end_message(at);
    if (pos_ >= flush_threshold_) flush();
  }

 private:
  static constexpr uint64_t tag(uint32_t field, uint32_t wire_type) {
    return (uint64_t{field} << 3) | wire_type;
  }
  void put_varint(uint64_t value) {
    uint8_t* p = buf_.get() + pos_;
    while (value >= 0x80) {
      *p++ = static_cast<uint8_t>(value | 0x80);
      value >>= 7;
    }
    *p++ = static_cast<uint8_t>(value);
    pos_ = static_cast<size_t>(p - buf_.get());
  }
  // Makes room for n more bytes. Growth happens only for a packet larger than the chunk.
  void ensure(size_t n) {
    if (pos_ + n > capacity_) grow(pos_ + n);
  }
  void grow(size_t needed);
  void flush();

  std::unique_ptr<uint8_t[]> buf_;
  size_t capacity_ = 0;
  size_t flush_threshold_ = 0;
  size_t pos_ = 0;
  uint64_t flushed_ = 0;
  std::FILE* file_ = nullptr;
  staged_file staged_;
  std::string error_;
};

}  // namespace rocprof::trace::perfetto
