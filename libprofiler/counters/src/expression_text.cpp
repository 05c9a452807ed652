// Reading a parsed expression back: the names it uses and a canonical text. Both walk the nodes
// in their stored post-order, so neither recurses.
#include <algorithm>
#include <charconv>

#include "rocprof/counters/expression.hpp"

namespace rocprof::counters {
namespace {

std::string number_text(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

const char* reduce_text(reduce_op op) {
  switch (op) {
    case reduce_op::sum:
      return "sum";
    case reduce_op::avg:
      return "avg";
    case reduce_op::min:
      return "min";
    case reduce_op::max:
      return "max";
  }
  return "?";
}

const char* accumulate_text(accumulate_mode mode) {
  switch (mode) {
    case accumulate_mode::none:
      return "NONE";
    case accumulate_mode::low_res:
      return "LOW_RES";
    case accumulate_mode::high_res:
      return "HIGH_RES";
  }
  return "?";
}

std::string binary_text(const std::string& lhs, char op, const std::string& rhs) {
  return "(" + lhs + op + rhs + ")";
}

}  // namespace

std::vector<std::string> expression::references() const {
  std::vector<std::string> out;
  for (const auto& n : nodes) {
    if (n.kind != node_kind::reference && n.kind != node_kind::accumulate) continue;
    if (std::find(out.begin(), out.end(), n.name) == out.end()) out.push_back(n.name);
  }
  return out;
}

std::string expression::canonical() const {
  std::vector<std::string> part(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    switch (n.kind) {
      case node_kind::number:
        part[i] = number_text(n.number);
        break;
      case node_kind::reference:
        part[i] = n.name;
        break;
      case node_kind::add:
        part[i] = binary_text(part[n.lhs], '+', part[n.rhs]);
        break;
      case node_kind::subtract:
        part[i] = binary_text(part[n.lhs], '-', part[n.rhs]);
        break;
      case node_kind::multiply:
        part[i] = binary_text(part[n.lhs], '*', part[n.rhs]);
        break;
      case node_kind::divide:
        part[i] = binary_text(part[n.lhs], '/', part[n.rhs]);
        break;
      case node_kind::reduce: {
        std::string s = "reduce(" + part[n.lhs] + "," + reduce_text(n.reduction);
        if (!n.reduce_dimensions.empty()) {
          s += ",[";
          for (size_t d = 0; d < n.reduce_dimensions.size(); ++d)
            s += (d == 0 ? "" : ",") + n.reduce_dimensions[d];
          s += "]";
        }
        part[i] = s + ")";
        break;
      }
      case node_kind::select: {
        std::string s = "select(" + part[n.lhs] + ",[";
        for (size_t d = 0; d < n.selection.size(); ++d)
          s += (d == 0 ? "" : ",") + n.selection[d].dimension + "=[" +
               std::to_string(n.selection[d].index) + "]";
        part[i] = s + "])";
        break;
      }
      case node_kind::accumulate:
        part[i] = "accumulate(" + n.name + "," + accumulate_text(n.accumulation) + ")";
        break;
    }
  }
  return part.empty() ? std::string() : part.back();
}

}  // namespace rocprof::counters
