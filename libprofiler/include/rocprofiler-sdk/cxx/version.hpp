// The version packed into one integer (rocprofiler_configure's `version`: 10000 * major +
// 100 * minor + patch) unpacked into a rocprofiler_version_triplet_t.
#pragma once

#include <rocprofiler-sdk/fwd.h>

#include <cstdint>

namespace rocprofiler::sdk::version {

/// FactorV is the weight between two fields: 100 for rocprofiler_configure's value (so 10203
/// is 1.2.3), 1000 for a value packed as 1002003.
template <uint64_t FactorV = 100>
constexpr rocprofiler_version_triplet_t compute_version_triplet(uint64_t packed) {
  static_assert(FactorV > 1, "the factor separates two fields");
  rocprofiler_version_triplet_t out{};
  out.major = static_cast<uint32_t>(packed / (FactorV * FactorV));
  out.minor = static_cast<uint32_t>((packed / FactorV) % FactorV);
  out.patch = static_cast<uint32_t>(packed % FactorV);
  return out;
}

}  // namespace rocprofiler::sdk::version
