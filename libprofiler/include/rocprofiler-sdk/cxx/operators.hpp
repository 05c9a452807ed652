// Comparison operators for the C API's value types, so that they work in std::map, std::set,
// sorting and ==: the typed handles ({uint64_t handle}) compare by handle, rocprofiler_dim3_t
// by volume and then x, y, z, agents by id, version triplets field by field.
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstdint>
#include <tuple>

namespace rocprofiler::sdk::operators {

/// Handle types: one 64-bit handle.
template <typename Tp>
constexpr bool equal(Tp lhs, Tp rhs) {
  static_assert(sizeof(Tp) == sizeof(uint64_t), "for the {uint64_t handle} types");
  return lhs.handle == rhs.handle;
}

template <typename Tp>
constexpr bool less(Tp lhs, Tp rhs) {
  static_assert(sizeof(Tp) == sizeof(uint64_t), "for the {uint64_t handle} types");
  return lhs.handle < rhs.handle;
}

}  // namespace rocprofiler::sdk::operators

// == and < per type; !=, >, <=, >= follow from them.
#define ROCPROFILER_CXX_DERIVED_OPERATORS(TYPE) \
  inline bool operator!=(TYPE lhs, TYPE rhs) {  \
    return !(lhs == rhs);                       \
  }                                             \
  inline bool operator>(TYPE lhs, TYPE rhs) {   \
    return rhs < lhs;                           \
  }                                             \
  inline bool operator<=(TYPE lhs, TYPE rhs) {  \
    return !(rhs < lhs);                        \
  }                                             \
  inline bool operator>=(TYPE lhs, TYPE rhs) {  \
    return !(lhs < rhs);                        \
  }

#define ROCPROFILER_CXX_HANDLE_OPERATORS(TYPE)             \
  inline bool operator==(TYPE lhs, TYPE rhs) {             \
    return ::rocprofiler::sdk::operators::equal(lhs, rhs); \
  }                                                        \
  inline bool operator<(TYPE lhs, TYPE rhs) {              \
    return ::rocprofiler::sdk::operators::less(lhs, rhs);  \
  }                                                        \
  ROCPROFILER_CXX_DERIVED_OPERATORS(TYPE)

ROCPROFILER_CXX_HANDLE_OPERATORS(rocprofiler_context_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS(rocprofiler_buffer_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS(rocprofiler_agent_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS(rocprofiler_queue_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS(rocprofiler_stream_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS(rocprofiler_counter_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS(rocprofiler_counter_config_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS(rocprofiler_callback_thread_t)
ROCPROFILER_CXX_HANDLE_OPERATORS(rocprofiler_address_t)

inline bool operator==(rocprofiler_dim3_t lhs, rocprofiler_dim3_t rhs) {
  return std::tie(lhs.x, lhs.y, lhs.z) == std::tie(rhs.x, rhs.y, rhs.z);
}
/// By volume (x * y * z), then field by field.
inline bool operator<(rocprofiler_dim3_t lhs, rocprofiler_dim3_t rhs) {
  const uint64_t lv = uint64_t{lhs.x} * lhs.y * lhs.z;
  const uint64_t rv = uint64_t{rhs.x} * rhs.y * rhs.z;
  if (lv != rv) return lv < rv;
  return std::tie(lhs.x, lhs.y, lhs.z) < std::tie(rhs.x, rhs.y, rhs.z);
}
ROCPROFILER_CXX_DERIVED_OPERATORS(rocprofiler_dim3_t)

inline bool operator==(rocprofiler_version_triplet_t lhs, rocprofiler_version_triplet_t rhs) {
  return std::tie(lhs.major, lhs.minor, lhs.patch) == std::tie(rhs.major, rhs.minor, rhs.patch);
}
inline bool operator<(rocprofiler_version_triplet_t lhs, rocprofiler_version_triplet_t rhs) {
  return std::tie(lhs.major, lhs.minor, lhs.patch) < std::tie(rhs.major, rhs.minor, rhs.patch);
}
ROCPROFILER_CXX_DERIVED_OPERATORS(rocprofiler_version_triplet_t)

/// Agents are the same agent when their ids are.
inline bool operator==(const rocprofiler_agent_v0_t& lhs, const rocprofiler_agent_v0_t& rhs) {
  return lhs.id == rhs.id;
}
inline bool operator<(const rocprofiler_agent_v0_t& lhs, const rocprofiler_agent_v0_t& rhs) {
  return lhs.id < rhs.id;
}
ROCPROFILER_CXX_DERIVED_OPERATORS(const rocprofiler_agent_v0_t&)

#undef ROCPROFILER_CXX_HANDLE_OPERATORS
#undef ROCPROFILER_CXX_DERIVED_OPERATORS
