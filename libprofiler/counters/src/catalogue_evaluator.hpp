// Evaluates the counters of one catalogue: base counters through a getter (collected values at
// run time, zero tensors of the declared shape while the catalogue is built), derived counters
// through their expressions. Every counter is evaluated once per evaluator (a cache), so
// counters that share sub-counters cost no more than the sum of their own expressions.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>

#include "rocprof/counters/catalogue.hpp"
#include "rocprof/counters/evaluate.hpp"

namespace rocprof::counters {

class catalogue_evaluator final : public value_resolver {
 public:
  using base_getter = std::function<result<counter_value>(const base_counter&)>;

  catalogue_evaluator(const agent_catalogue& catalogue, base_getter get)
      : catalogue_(catalogue), get_(std::move(get)) {}

  // Base, constant or offered derived counter by name.
  result<counter_value> value_of(std::string_view name) const override;
  // The value of one derived counter's expression; an error keeps its offset in that
  // expression. Also used before the counter is offered, to infer its shape while the
  // catalogue is built.
  result<counter_value> evaluate_derived(const std::string& name,
                                         const agent_catalogue::derived_counter& d) const;

 private:
  const agent_catalogue& catalogue_;
  base_getter get_;
  mutable std::unordered_map<std::string, counter_value> cache_;
};

}  // namespace rocprof::counters
