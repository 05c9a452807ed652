#include "common/number_format.hpp"

#include <fmt/format.h>

#include <charconv>
#include <iterator>

namespace rocprof::formats {

void append_uint(std::string& out, uint64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

void append_int(std::string& out, int64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

void append_trace_double(std::string& out, double v) {
  if (v >= 1.0)
    fmt::format_to(std::back_inserter(out), "{:.6f}", v);
  else
    fmt::format_to(std::back_inserter(out), "{:.8e}", v);
}

void append_stats_double(std::string& out, double v) {
  if (v > 0.01)
    fmt::format_to(std::back_inserter(out), "{:.6f}", v);
  else
    fmt::format_to(std::back_inserter(out), "{:.8e}", v);
}

void append_stats_percent(std::string& out, double v) {
  if (v >= 1.0)
    fmt::format_to(std::back_inserter(out), "{:.2f}", v);
  else if (v > 0.01)
    fmt::format_to(std::back_inserter(out), "{:.4f}", v);
  else
    fmt::format_to(std::back_inserter(out), "{:.3e}", v);
}

void append_hex_address(std::string& out, uint64_t v) {
  fmt::format_to(std::back_inserter(out), "0x{:016x}", v);
}

void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  if (s.find('"') == std::string_view::npos) {
    out += s;
  } else {
    for (char c : s) {
      if (c == '"') out += '"';
      out += c;
    }
  }
  out += '"';
}

std::string_view copy_direction_name(trace::memory_copy_direction d) {
  using trace::memory_copy_direction;
  switch (d) {
    case memory_copy_direction::none:
      return "MEMORY_COPY_NONE";
    case memory_copy_direction::host_to_host:
      return "MEMORY_COPY_HOST_TO_HOST";
    case memory_copy_direction::host_to_device:
      return "MEMORY_COPY_HOST_TO_DEVICE";
    case memory_copy_direction::device_to_host:
      return "MEMORY_COPY_DEVICE_TO_HOST";
    case memory_copy_direction::device_to_device:
      return "MEMORY_COPY_DEVICE_TO_DEVICE";
    case memory_copy_direction::peer_to_peer:  // CUDA peer copies (the core's PEER_TO_PEER op)
      return "MEMORY_COPY_PEER_TO_PEER";
  }
  return "MEMORY_COPY_NONE";
}

std::string_view allocation_operation_name(trace::memory_allocation_operation op) {
  using trace::memory_allocation_operation;
  switch (op) {
    case memory_allocation_operation::allocate:
      return "MEMORY_ALLOCATION_ALLOCATE";
    case memory_allocation_operation::vmem_allocate:
      return "MEMORY_ALLOCATION_VMEM_ALLOCATE";
    case memory_allocation_operation::free:
      return "MEMORY_ALLOCATION_FREE";
    case memory_allocation_operation::vmem_free:
      return "MEMORY_ALLOCATION_VMEM_FREE";
    case memory_allocation_operation::none:
      break;
  }
  return "MEMORY_ALLOCATION_NONE";
}

std::string_view scratch_operation_name(trace::scratch_memory_operation op) {
  using trace::scratch_memory_operation;
  switch (op) {
    case scratch_memory_operation::alloc:
      return "SCRATCH_MEMORY_ALLOC";
    case scratch_memory_operation::free:
      return "SCRATCH_MEMORY_FREE";
    case scratch_memory_operation::async_reclaim:
      return "SCRATCH_MEMORY_ASYNC_RECLAIM";
    case scratch_memory_operation::none:
      break;
  }
  return "SCRATCH_MEMORY_NONE";
}

std::string_view api_display_name(const trace::trace_definitions& defs,
                                  const trace::api_record& r) {
  if (r.message != trace::empty_string) {
    auto msg = defs.str(r.message);
    if (!msg.empty()) return msg;
  }
  return defs.str(r.operation);
}

}  // namespace rocprof::formats
