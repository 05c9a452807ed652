#include "rocpd/rocpd_schema.hpp"

#include <fmt/format.h>

#include <functional>

namespace rocprof::formats::rocpd {
namespace {

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
}

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

std::string expand_schema(const std::string& text, const std::string& uuid,
                          const std::string& guid) {
  std::string out = text;
  replace_all(out, "{{uuid}}", "_" + uuid);
  replace_all(out, "{{guid}}", guid);
  return out;
}

std::string make_guid(uint64_t start_ns, const std::string& machine_id, int64_t pid, int64_t ppid) {
  uint64_t seed = std::hash<std::string>{}(machine_id);
  seed = splitmix64(seed ^ static_cast<uint64_t>(pid));
  seed = splitmix64(seed ^ (static_cast<uint64_t>(ppid) << 32));
  seed = splitmix64(seed ^ start_ns);
  const uint64_t ms = (start_ns / 1'000'000) & 0xffffffffffffull;  // 48-bit time field
  const uint64_t rand_a = seed & 0xfff;
  const uint64_t rand_b = splitmix64(seed) & 0x3fffffffffffffffull;
  const uint64_t hi = (ms << 16) | (uint64_t{7} << 12) | rand_a;
  const uint64_t lo = (uint64_t{2} << 62) | rand_b;
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xffff,
                     hi & 0xffff, lo >> 48, lo & 0xffffffffffffull);
}

}  // namespace rocprof::formats::rocpd
