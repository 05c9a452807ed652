// The hand-written encoder against protoc's decoder: varint edges, length compaction at the
// 1/2/3-byte boundaries, negative int64, fixed64, and chunk flushing with tiny chunks.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "perfetto/perfetto_fields.hpp"
#include "perfetto/proto_encoder.hpp"
#include "protoc_text.hpp"
#include "rocprof/test_support/test_env.hpp"

namespace {

namespace pf = rocprof::trace::perfetto::fields;
using rocprof::trace::perfetto::proto_encoder;

// A file in a fresh folder of its own.
std::string temp_file(const std::string& name) {
  return rocprof::test_support::scratch_dir("encoder-" + name) + "/" + name;
}

void write_descriptor(proto_encoder& out, uint64_t uuid, const std::string& name, int64_t tid) {
  const auto packet = out.begin_packet();
  out.add_varint(pf::trace_packet::timestamp, uuid * 1000);
  out.add_varint(pf::trace_packet::trusted_packet_sequence_id, 7);
  const auto td = out.begin_message(pf::trace_packet::track_descriptor);
  out.add_varint(pf::track_descriptor::uuid, uuid);
  out.add_bytes(pf::track_descriptor::name, name);
  const auto thread = out.begin_message(pf::track_descriptor::thread);
  out.add_int64(pf::thread_descriptor::tid, tid);
  out.end_message(thread);
  out.end_message(td);
  out.end_packet(packet);
}

TEST(ProtoEncoder, LengthsAndVarintsDecodeWithProtoc) {
  ASSERT_TRUE(rocprof::test::protoc_available()) << rocprof::test_support::missing_reader("protoc");
  const std::string path = temp_file("encoder.pftrace");
  // Names whose lengths straddle the varint size boundaries of the compacted length prefix.
  const std::vector<size_t> sizes{0, 1, 120, 127, 128, 16383, 16384, 70000};
  const std::vector<uint64_t> uuids{1, 127, 128, 16384, (1ull << 35) + 5, ~0ull};
  uint64_t written = 0;
  {
    proto_encoder out(64);  // a tiny chunk: nearly every packet flushes, one grows the buffer
    ASSERT_TRUE(out.open(path)) << out.error();
    for (size_t i = 0; i < sizes.size(); ++i)
      write_descriptor(out, uuids[i % uuids.size()], std::string(sizes[i], 'a' + char(i)),
                       i % 2 == 0 ? -1 - int64_t(i) : int64_t(i) << 40);
    ASSERT_TRUE(out.close()) << out.error();
    written = out.bytes_written();
  }
  EXPECT_EQ(std::filesystem::file_size(path), written);
  std::vector<rocprof::test::decoded_packet> packets;
  std::string error;
  ASSERT_TRUE(rocprof::test::decode_trace(path, &packets, &error)) << error;
  ASSERT_EQ(packets.size(), sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto& p = packets[i];
    const uint64_t uuid = uuids[i % uuids.size()];
    EXPECT_EQ(p.get("track_descriptor.uuid"), std::to_string(uuid));
    EXPECT_EQ(p.get("timestamp"), std::to_string(uuid * 1000));
    EXPECT_EQ(p.get("track_descriptor.name"), '"' + std::string(sizes[i], 'a' + char(i)) + '"');
    const int64_t tid = i % 2 == 0 ? -1 - int64_t(i) : int64_t(i) << 40;
    EXPECT_EQ(p.get("track_descriptor.thread.tid"), std::to_string(tid));
  }
}

TEST(ProtoEncoder, Fixed64AndDoubles) {
  ASSERT_TRUE(rocprof::test::protoc_available()) << rocprof::test_support::missing_reader("protoc");
  const std::string path = temp_file("fixed.pftrace");
  {
    proto_encoder out;
    ASSERT_TRUE(out.open(path));
    const auto packet = out.begin_packet();
    out.add_varint(pf::trace_packet::trusted_packet_sequence_id, 1);
    const auto te = out.begin_message(pf::trace_packet::track_event);
    out.add_fixed64(pf::track_event::flow_ids, 0x0123456789abcdefull);
    out.add_fixed64(pf::track_event::flow_ids, 1);
    out.add_double(pf::track_event::double_counter_value, 2.5);
    out.end_message(te);
    out.end_packet(packet);
    ASSERT_TRUE(out.close());
  }
  std::vector<rocprof::test::decoded_packet> packets;
  std::string error;
  ASSERT_TRUE(rocprof::test::decode_trace(path, &packets, &error)) << error;
  ASSERT_EQ(packets.size(), 1u);
  const auto flows = packets[0].fields.equal_range("track_event.flow_ids");
  std::vector<std::string> values;
  for (auto it = flows.first; it != flows.second; ++it)
    values.push_back(it->second);
  EXPECT_EQ(values, (std::vector<std::string>{std::to_string(0x0123456789abcdefull), "1"}));
  EXPECT_EQ(packets[0].get("track_event.double_counter_value"), "2.5");
}

TEST(ProtoEncoder, OpenFailureIsReported) {
  proto_encoder out;
  // Writers create missing parent folders (as root anywhere), so the folder must be one that
  // nobody can create: /proc takes no new entries.
  EXPECT_FALSE(out.open("/proc/nonexistent-dir/x/y.pftrace"));
  EXPECT_NE(out.error().find("cannot open"), std::string::npos);
}

}  // namespace
