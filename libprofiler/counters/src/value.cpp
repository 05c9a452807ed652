#include "rocprof/counters/value.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace rocprof::counters {

const std::vector<std::string_view>& rocprofiler_dimension_names() {
  static const std::vector<std::string_view> names = {
      "DIMENSION_XCC",          "DIMENSION_AID", "DIMENSION_SHADER_ENGINE", "DIMENSION_AGENT",
      "DIMENSION_SHADER_ARRAY", "DIMENSION_WGP", "DIMENSION_INSTANCE"};
  return names;
}

bool is_rocprofiler_dimension(std::string_view name) {
  const auto& names = rocprofiler_dimension_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

counter_value counter_value::scalar(double value) {
  counter_value v;
  v.values_[0] = value;
  return v;
}

namespace {

// Elements of a shape, checked: sizes at least 1, names distinct, a sane total.
result<uint64_t> element_count_of(const std::vector<dimension>& dims) {
  uint64_t count = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].size == 0) return error{"dimension " + dims[i].name + " has size 0"};
    if (count > std::numeric_limits<uint32_t>::max() / dims[i].size)
      return error{"counter value has too many elements"};
    count *= dims[i].size;
    for (size_t j = 0; j < i; ++j)
      if (dims[i].name == dims[j].name) return error{"dimension " + dims[i].name + " repeated"};
  }
  return count;
}

}  // namespace

result<counter_value> counter_value::tensor(std::vector<dimension> dims,
                                            std::vector<double> values) {
  auto count = element_count_of(dims);
  if (!count) return count.failure();
  if (values.size() != *count)
    return error{"counter value has " + std::to_string(values.size()) + " elements, its shape " +
                 std::to_string(*count)};
  counter_value v;
  v.dims_ = std::move(dims);
  v.values_ = std::move(values);
  return v;
}

result<counter_value> counter_value::filled(std::vector<dimension> dims, double fill) {
  auto count = element_count_of(dims);
  if (!count) return count.failure();
  return tensor(std::move(dims), std::vector<double>(*count, fill));
}

double counter_value::total() const {
  return std::accumulate(values_.begin(), values_.end(), 0.0);
}

size_t counter_value::find_dimension(std::string_view name) const {
  for (size_t i = 0; i < dims_.size(); ++i)
    if (dims_[i].name == name) return i;
  return std::string::npos;
}

std::string counter_value::shape_text() const {
  std::string out = "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i != 0) out += ", ";
    out += dims_[i].name + "=" + std::to_string(dims_[i].size);
  }
  return out + "]";
}

std::string dimensions_text(const std::vector<dimension>& dims) {
  if (dims.empty()) return std::string(scalar_dimension_name) + "[0:0]";
  std::string out;
  for (const auto& d : dims) {
    if (!out.empty()) out += ' ';
    out += d.name + "[0:" + std::to_string(d.size - 1) + "]";
  }
  return out;
}

}  // namespace rocprof::counters
