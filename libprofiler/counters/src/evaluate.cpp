#include "rocprof/counters/evaluate.hpp"

#include <algorithm>
#include <limits>

namespace rocprof::counters {
namespace {

double apply(node_kind op, double a, double b) {
  switch (op) {
    case node_kind::add:
      return a + b;
    case node_kind::subtract:
      return a - b;
    case node_kind::multiply:
      return a * b;
    case node_kind::divide:
      return b == 0.0 ? 0.0 : a / b;
    default:
      return 0.0;
  }
}

// Row-major strides of a shape: the last dimension varies fastest.
std::vector<uint64_t> strides_of(const std::vector<dimension>& dims) {
  std::vector<uint64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;)
    strides[i - 1] = strides[i] * dims[i].size;
  return strides;
}

// The position in a shape without the dimensions flagged in `dropped` (same order otherwise)
// of the element at `flat` in the full shape.
uint64_t position_without(uint64_t flat, const std::vector<dimension>& dims,
                          const std::vector<bool>& dropped) {
  uint64_t out = 0;
  uint64_t out_stride = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    const uint64_t coordinate = flat % dims[i].size;
    flat /= dims[i].size;
    if (dropped[i]) continue;
    out += coordinate * out_stride;
    out_stride *= dims[i].size;
  }
  return out;
}

std::vector<dimension> kept_dimensions(const std::vector<dimension>& dims,
                                       const std::vector<bool>& dropped) {
  std::vector<dimension> kept;
  for (size_t i = 0; i < dims.size(); ++i)
    if (!dropped[i]) kept.push_back(dims[i]);
  return kept;
}

// Which dimension `name` is in `value`; npos with ok for an absent rocprofiler dimension
// (nothing to do), an error for an absent name of any other kind (most likely a typo).
result<size_t> locate_dimension(const counter_value& value, const std::string& name,
                                const char* operation) {
  const size_t index = value.find_dimension(name);
  if (index != std::string::npos || is_rocprofiler_dimension(name)) return index;
  return error{std::string(operation) + ": the value has no dimension '" + name + "' (its shape " +
               value.shape_text() + ")"};
}

}  // namespace

result<counter_value> combine(const counter_value& lhs, node_kind op, const counter_value& rhs) {
  const auto& a = lhs.values();
  const auto& b = rhs.values();
  if (lhs.is_single() && rhs.is_single()) {
    const auto& dims =
        lhs.dimensions().size() >= rhs.dimensions().size() ? lhs.dimensions() : rhs.dimensions();
    return counter_value::tensor(dims, {apply(op, a[0], b[0])});
  }
  if (!lhs.is_single() && !rhs.is_single() && lhs.dimensions() != rhs.dimensions())
    return error{"dimension mismatch: " + lhs.shape_text() + " and " + rhs.shape_text() +
                 " (reduce() or select() one side first)"};
  const auto& shape = lhs.is_single() ? rhs : lhs;
  std::vector<double> out(shape.element_count());
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = apply(op, a[lhs.is_single() ? 0 : i], b[rhs.is_single() ? 0 : i]);
  return counter_value::tensor(shape.dimensions(), std::move(out));
}

result<counter_value> reduce(const counter_value& value, reduce_op op,
                             const std::vector<std::string>& dimensions) {
  const auto& dims = value.dimensions();
  std::vector<bool> dropped(dims.size(), dimensions.empty());
  for (const auto& name : dimensions) {
    auto index = locate_dimension(value, name, "reduce");
    if (!index) return index.failure();
    if (*index != std::string::npos) dropped[*index] = true;
  }
  auto kept = kept_dimensions(dims, dropped);
  uint64_t out_count = 1;
  for (const auto& d : kept)
    out_count *= d.size;

  double initial = 0.0;
  if (op == reduce_op::min) initial = std::numeric_limits<double>::infinity();
  if (op == reduce_op::max) initial = -std::numeric_limits<double>::infinity();
  std::vector<double> acc(out_count, initial);
  std::vector<uint64_t> count(out_count, 0);
  const auto& in = value.values();
  for (uint64_t flat = 0; flat < in.size(); ++flat) {
    const uint64_t o = position_without(flat, dims, dropped);
    switch (op) {
      case reduce_op::sum:
      case reduce_op::avg:
        acc[o] += in[flat];
        break;
      case reduce_op::min:
        acc[o] = std::min(acc[o], in[flat]);
        break;
      case reduce_op::max:
        acc[o] = std::max(acc[o], in[flat]);
        break;
    }
    ++count[o];
  }
  if (op == reduce_op::avg)
    for (size_t o = 0; o < acc.size(); ++o)
      acc[o] /= static_cast<double>(count[o]);
  return counter_value::tensor(std::move(kept), std::move(acc));
}

result<counter_value> select(const counter_value& value,
                             const std::vector<dimension_index>& selection) {
  const auto& dims = value.dimensions();
  std::vector<bool> dropped(dims.size(), false);
  std::vector<uint64_t> fixed(dims.size(), 0);
  for (const auto& sel : selection) {
    auto index = locate_dimension(value, sel.dimension, "select");
    if (!index) return index.failure();
    if (*index == std::string::npos) {
      // Absent rocprofiler dimension: it has the single index 0.
      if (sel.index != 0)
        return error{"select: index " + std::to_string(sel.index) + " of " + sel.dimension +
                     ", which the value does not have (only index 0 exists)"};
      continue;
    }
    if (sel.index >= dims[*index].size)
      return error{"select: index " + std::to_string(sel.index) + " is out of range for " +
                   sel.dimension + " of size " + std::to_string(dims[*index].size)};
    dropped[*index] = true;
    fixed[*index] = sel.index;
  }
  auto kept = kept_dimensions(dims, dropped);
  const auto strides = strides_of(dims);
  uint64_t base = 0;
  for (size_t i = 0; i < dims.size(); ++i)
    if (dropped[i]) base += fixed[i] * strides[i];
  std::vector<uint64_t> kept_strides;
  for (size_t i = 0; i < dims.size(); ++i)
    if (!dropped[i]) kept_strides.push_back(strides[i]);

  uint64_t out_count = 1;
  for (const auto& d : kept)
    out_count *= d.size;
  std::vector<double> out(out_count);
  for (uint64_t o = 0; o < out_count; ++o) {
    uint64_t rest = o;
    uint64_t flat = base;
    for (size_t k = kept.size(); k-- > 0;) {
      flat += (rest % kept[k].size) * kept_strides[k];
      rest /= kept[k].size;
    }
    out[o] = value.values()[flat];
  }
  return counter_value::tensor(std::move(kept), std::move(out));
}

counter_value accumulate(const counter_value& value, accumulate_mode mode) {
  if (mode != accumulate_mode::low_res) return value;
  counter_value out = value;
  for (auto& v : out.mutable_values())
    v /= 4.0;
  return out;
}

result<counter_value> evaluate(const expression& expr, const value_resolver& values) {
  if (expr.nodes.empty()) return error{"empty expression", 0};
  std::vector<counter_value> slot(expr.nodes.size());
  for (size_t i = 0; i < expr.nodes.size(); ++i) {
    const auto& n = expr.nodes[i];
    // Operands precede their node (parse_expression's post-order); refuse anything else.
    const bool unary = n.kind == node_kind::reduce || n.kind == node_kind::select;
    const bool binary = n.kind >= node_kind::add && n.kind <= node_kind::divide;
    if ((unary || binary) && (n.lhs >= i || (binary && n.rhs >= i)))
      return error{"malformed expression", n.offset};
    result<counter_value> r = counter_value{};
    switch (n.kind) {
      case node_kind::number:
        r = counter_value::scalar(n.number);
        break;
      case node_kind::reference:
        r = values.value_of(n.name);
        break;
      case node_kind::add:
      case node_kind::subtract:
      case node_kind::multiply:
      case node_kind::divide:
        r = combine(slot[n.lhs], n.kind, slot[n.rhs]);
        break;
      case node_kind::reduce:
        r = reduce(slot[n.lhs], n.reduction, n.reduce_dimensions);
        break;
      case node_kind::select:
        r = select(slot[n.lhs], n.selection);
        break;
      case node_kind::accumulate: {
        r = values.value_of(n.name);
        if (r) r = accumulate(*r, n.accumulation);
        break;
      }
    }
    if (!r) {
      error e = r.failure();
      if (e.offset == std::string::npos) e.offset = n.offset;
      return e;
    }
    slot[i] = std::move(r).value();
  }
  return std::move(slot.back());
}

}  // namespace rocprof::counters
