// Evaluation of a parsed expression over counter values (tensors over named dimensions).
//
// Semantics, as rocprofiler-sdk evaluates derived counters:
//  * + - * / work element by element on values of the same shape; a one-element value (a number,
//    a constant, anything reduced) broadcasts against any shape; other shapes do not combine.
//  * x / 0 is 0 (rocprofiler-sdk's rule: a counter that did not tick does not poison a ratio).
//  * reduce(X, op) reduces every dimension to one value; reduce(X, op, [D...]) only the listed
//    ones. Listing one of rocprofiler's DIMENSION_* names that X does not have changes nothing
//    (so AMD definitions that reduce DIMENSION_XCC still work on one-XCC hardware).
//  * select(X, [D=i, ...]) keeps index i of dimension D and drops D.
//  * accumulate(N, NONE | HIGH_RES) is N as collected; LOW_RES is N / 4. On AMD the resolution
//    says how often the hardware adds a level counter into an accumulator (every cycle, or every
//    fourth); a per-dispatch value can only be the finished sum, so HIGH_RES is meaningful only
//    for counters the hardware already accumulates per cycle (NVIDIA's "cumulative" metrics,
//    e.g. sm__warps_active), which the catalogue checks, and LOW_RES keeps AMD's quarter scale.
#pragma once

#include <string_view>

#include "rocprof/counters/expression.hpp"
#include "rocprof/counters/result.hpp"
#include "rocprof/counters/value.hpp"

namespace rocprof::counters {

// Supplies the value of each counter name an expression uses.
class value_resolver {
 public:
  virtual ~value_resolver() = default;
  virtual result<counter_value> value_of(std::string_view name) const = 0;
};

// Errors name the node's offset in the expression text.
result<counter_value> evaluate(const expression& expr, const value_resolver& values);

// The pieces, for callers and tests that work on values directly.
result<counter_value> combine(const counter_value& lhs, node_kind op, const counter_value& rhs);
result<counter_value> reduce(const counter_value& value, reduce_op op,
                             const std::vector<std::string>& dimensions);
result<counter_value> select(const counter_value& value,
                             const std::vector<dimension_index>& selection);
counter_value accumulate(const counter_value& value, accumulate_mode mode);

}  // namespace rocprof::counters
