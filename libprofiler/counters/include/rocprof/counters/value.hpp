// Counter values: a small tensor over named dimensions, as rocprofiler-sdk reports a counter
// (one value per hardware instance, shader engine, ...). A value with no dimension is a scalar.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocprof/counters/result.hpp"

namespace rocprof::counters {

struct dimension {
  std::string name;  // e.g. "DIMENSION_INSTANCE"
  uint64_t size = 1;

  bool operator==(const dimension& other) const { return name == other.name && size == other.size; }
  bool operator!=(const dimension& other) const { return !(*this == other); }
};

// rocprofiler-sdk's dimension names (rocprofiler_profile_counter_instance_types), which AMD's
// counter definitions use in reduce() and select(). A backend may name others.
const std::vector<std::string_view>& rocprofiler_dimension_names();
bool is_rocprofiler_dimension(std::string_view name);

// The dimension a scalar is reported with (rocprofv3 lists "DIMENSION_INSTANCE[0:0]").
inline constexpr std::string_view scalar_dimension_name = "DIMENSION_INSTANCE";

class counter_value {
 public:
  counter_value() = default;  // the scalar 0
  static counter_value scalar(double value);
  // Row-major values over `dims` (the last dimension varies fastest). Every size must be at
  // least 1 and values.size() their product.
  static result<counter_value> tensor(std::vector<dimension> dims, std::vector<double> values);
  // A tensor of the given shape holding `fill` everywhere.
  static result<counter_value> filled(std::vector<dimension> dims, double fill);

  const std::vector<dimension>& dimensions() const { return dims_; }
  const std::vector<double>& values() const { return values_; }
  std::vector<double>& mutable_values() { return values_; }
  size_t element_count() const { return values_.size(); }
  // One element: broadcasts against any shape in arithmetic.
  bool is_single() const { return values_.size() == 1; }
  // The sum of every element: what rocprofv3's CSV prints for a counter.
  double total() const;
  // Index of a named dimension, or npos.
  size_t find_dimension(std::string_view name) const;
  // "[]" or "[DIMENSION_INSTANCE=16, DIMENSION_SHADER_ENGINE=8]", for messages.
  std::string shape_text() const;

 private:
  std::vector<dimension> dims_;
  std::vector<double> values_{0.0};
};

// "DIMENSION_INSTANCE[0:15] DIMENSION_SHADER_ENGINE[0:7]", as rocprofv3 --list-avail prints
// dimensions; a scalar prints as DIMENSION_INSTANCE[0:0].
std::string dimensions_text(const std::vector<dimension>& dims);

}  // namespace rocprof::counters
