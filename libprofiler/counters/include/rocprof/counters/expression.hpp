// rocprofv3's counter expression language (the `expression:` of a derived counter):
//
//   expr     := term (('+' | '-') term)*
//   term     := factor (('*' | '/') factor)*
//   factor   := NUMBER | NAME | '(' expr ')'
//             | 'reduce' '(' expr ',' OP [',' '[' DIM (',' DIM)* ']'] ')'    OP: sum avg avr min
//             max | 'select' '(' expr ',' '[' DIM '=' INDEX (',' DIM '=' INDEX)* ']' ')' |
//             'accumulate' '(' NAME ',' ('NONE' | 'LOW_RES' | 'HIGH_RES') ')'
//   INDEX    := NUMBER | '[' NUMBER ']'
//   NAME     := [A-Za-z_][A-Za-z0-9_]* ('.' [A-Za-z0-9_]+)*    (NVIDIA metrics:
//   a__b.sum.per_second) NUMBER   := digits ['.' digits] [exponent] | '.' digits [exponent]
//
// Whitespace (newlines included) separates tokens; "//" starts a comment to the end of the line.
// The parser never recurses deeper than max_nesting and never throws: errors carry the offset.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocprof/counters/result.hpp"

namespace rocprof::counters {

enum class node_kind : uint8_t {
  number,
  reference,  // a counter name
  add,
  subtract,
  multiply,
  divide,
  reduce,
  select,
  accumulate,
};

enum class reduce_op : uint8_t { sum, avg, min, max };
enum class accumulate_mode : uint8_t { none, low_res, high_res };

struct dimension_index {
  std::string dimension;
  uint64_t index = 0;
};

// One node of a parsed expression. Nodes live in expression::nodes in post-order: a node's
// operands always come before it, so evaluation is one loop over the vector (no recursion, even
// for a long chain like a+b+c+...).
struct expression_node {
  node_kind kind = node_kind::number;
  size_t offset = 0;  // where the node's text starts in the expression
  size_t length = 0;  // how long that text is
  double number = 0;  // number
  std::string name;   // reference, accumulate: the counter name
  uint32_t lhs = 0;   // add..divide: left operand; reduce, select: the operand
  uint32_t rhs = 0;   // add..divide: right operand
  reduce_op reduction = reduce_op::sum;
  std::vector<std::string> reduce_dimensions;  // reduce: empty means every dimension
  std::vector<dimension_index> selection;      // select
  accumulate_mode accumulation = accumulate_mode::none;
};

struct expression {
  std::string text;
  std::vector<expression_node> nodes;  // the root is nodes.back()

  // Counter names used (references and accumulate targets), each once, in first-use order.
  std::vector<std::string> references() const;
  // Fully parenthesised canonical form, e.g. "(a+(b*2))"; shows how the text was understood.
  std::string canonical() const;
};

inline constexpr size_t max_nesting = 64;  // parentheses and function calls inside each other
inline constexpr size_t max_expression_length = 64 * 1024;

// Parses `text`. On failure the error's offset points at the offending character.
result<expression> parse_expression(std::string_view text);

// Whether `name` is usable as a counter name in expressions (the NAME token above).
bool is_valid_counter_name(std::string_view name);

}  // namespace rocprof::counters
