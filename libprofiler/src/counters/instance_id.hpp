// Counter instance ids (rocprofiler_counter_instance_id_t): which counter and which of its
// values a record holds. rocprofiler-sdk packs a 16-bit counter id and 6 bits per dimension;
// NVIDIA agents offer more than 2^16 counters, so here the counter id takes the top 24 bits
// and the value's flat (row-major) position among the counter's values the low 40. The
// position in one dimension follows from the counter's dimension sizes
// (rocprofiler_query_record_dimension_position). Tools decode ids only through the API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rocprof::core::counters {

inline constexpr unsigned k_position_bits = 40;
inline constexpr uint64_t k_position_mask = (uint64_t{1} << k_position_bits) - 1;
inline constexpr uint64_t k_max_counter_id = (uint64_t{1} << (64 - k_position_bits)) - 1;

inline uint64_t make_instance_id(uint64_t counter_id, uint64_t flat_position) {
  return (counter_id << k_position_bits) | (flat_position & k_position_mask);
}
inline uint64_t counter_of_instance(uint64_t instance_id) {
  return instance_id >> k_position_bits;
}
inline uint64_t flat_position_of(uint64_t instance_id) {
  return instance_id & k_position_mask;
}

/// Position along dimension `index` of a row-major flat position over `sizes`.
inline size_t position_in_dimension(uint64_t flat, const std::vector<uint64_t>& sizes,
                                    size_t index) {
  uint64_t stride = 1;
  for (size_t d = sizes.size(); d-- > index + 1;)
    stride *= sizes[d] == 0 ? 1 : sizes[d];
  const uint64_t size = sizes[index] == 0 ? 1 : sizes[index];
  return static_cast<size_t>((flat / stride) % size);
}

}  // namespace rocprof::core::counters
