// Recursive-descent parser of counter expressions (grammar in expression.hpp). Binary operators
// are parsed by loops, so only parentheses and function calls recurse, and they stop at
// max_nesting. Every failure becomes an error with the offending offset; nothing throws.
#include <cmath>
#include <limits>

#include "lexer.hpp"
#include "rocprof/counters/expression.hpp"

namespace rocprof::counters {
namespace {

using detail::token;
using detail::token_kind;

class parser {
 public:
  explicit parser(std::string_view text) : text_(text), lex_(text) { advance(); }

  bool parse(expression& out) {
    if (!parse_sum(0)) return false;
    if (current_.kind == token_kind::invalid) return fail(current_.offset, current_.message);
    if (current_.kind != token_kind::end)
      return fail(current_.offset,
                  std::string("expected an operator or the end, found ") + describe(current_));
    out.text = std::string(text_);
    out.nodes = std::move(nodes_);
    return true;
  }

  const error& failure() const { return failure_; }

 private:
  // --- tokens -----------------------------------------------------------------------------
  void advance() { current_ = lex_.next(); }

  std::string describe(const token& t) const {
    if (t.kind == token_kind::name || t.kind == token_kind::number)
      return std::string(detail::token_kind_text(t.kind)) + " '" + std::string(t.text) + "'";
    return detail::token_kind_text(t.kind);
  }

  bool fail(size_t offset, std::string message) {
    if (failure_.message.empty()) failure_ = error{std::move(message), offset};
    return false;
  }

  bool expect(token_kind kind, const std::string& context) {
    if (current_.kind == token_kind::invalid) return fail(current_.offset, current_.message);
    if (current_.kind != kind)
      return fail(current_.offset, std::string("expected ") + detail::token_kind_text(kind) + " " +
                                       context + ", found " + describe(current_));
    advance();
    return true;
  }

  bool expect_name(const std::string& context, std::string& out, size_t* offset = nullptr) {
    if (offset != nullptr) *offset = current_.offset;
    if (current_.kind == token_kind::name) out = std::string(current_.text);
    return expect(token_kind::name, context);
  }

  // Consumes a ',' separating list items; false at the end of the list.
  bool skip_comma() {
    if (current_.kind != token_kind::comma) return false;
    advance();
    return true;
  }

  // --- nodes ------------------------------------------------------------------------------
  uint32_t push(expression_node node) {
    nodes_.push_back(std::move(node));
    return static_cast<uint32_t>(nodes_.size() - 1);
  }

  size_t start_of(uint32_t index) const { return nodes_[index].offset; }

  uint32_t push_binary(node_kind kind, uint32_t lhs, uint32_t rhs, size_t end) {
    expression_node n;
    n.kind = kind;
    n.lhs = lhs;
    n.rhs = rhs;
    n.offset = start_of(lhs);
    n.length = end - n.offset;
    return push(std::move(n));
  }

  size_t end_of_last() const { return nodes_.back().offset + nodes_.back().length; }

  // --- grammar ----------------------------------------------------------------------------
  // The operator a token is at one precedence level, if it is one.
  static bool additive(token_kind t, node_kind& op) {
    if (t != token_kind::plus && t != token_kind::minus) return false;
    op = t == token_kind::plus ? node_kind::add : node_kind::subtract;
    return true;
  }
  static bool multiplicative(token_kind t, node_kind& op) {
    if (t != token_kind::star && t != token_kind::slash) return false;
    op = t == token_kind::star ? node_kind::multiply : node_kind::divide;
    return true;
  }

  // One left-associative level: operands parsed by `operand`, joined by the level's operators
  // in a loop (a long chain costs no stack).
  bool parse_level(size_t depth, bool (*level_operator)(token_kind, node_kind&),
                   bool (parser::*operand)(size_t)) {
    if (!(this->*operand)(depth)) return false;
    auto lhs = static_cast<uint32_t>(nodes_.size() - 1);
    node_kind op = node_kind::add;
    while (level_operator(current_.kind, op)) {
      advance();
      if (!(this->*operand)(depth)) return false;
      lhs = push_binary(op, lhs, static_cast<uint32_t>(nodes_.size() - 1), end_of_last());
    }
    return true;
  }

  bool parse_sum(size_t depth) { return parse_level(depth, additive, &parser::parse_product); }
  bool parse_product(size_t depth) {
    return parse_level(depth, multiplicative, &parser::parse_factor);
  }

  bool parse_factor(size_t depth) {
    const token t = current_;
    switch (t.kind) {
      case token_kind::number: {
        advance();
        expression_node n;
        n.kind = node_kind::number;
        n.number = t.number;
        n.offset = t.offset;
        n.length = t.length;
        push(std::move(n));
        return true;
      }
      case token_kind::name: {
        if (lex_.peek().kind == token_kind::open_paren) {
          if (t.text == "reduce") return parse_reduce(depth);
          if (t.text == "select") return parse_select(depth);
          if (t.text == "accumulate") return parse_accumulate();
          return fail(t.offset, "unknown function '" + std::string(t.text) +
                                    "' (expected reduce, select or accumulate)");
        }
        advance();
        expression_node n;
        n.kind = node_kind::reference;
        n.name = std::string(t.text);
        n.offset = t.offset;
        n.length = t.length;
        push(std::move(n));
        return true;
      }
      case token_kind::open_paren: {
        if (depth + 1 > max_nesting)
          return fail(t.offset, "expression nested deeper than " + std::to_string(max_nesting));
        advance();
        if (!parse_sum(depth + 1)) return false;
        // The parenthesised node keeps its own span: positions in messages stay meaningful.
        return expect(token_kind::close_paren,
                      "to close the '(' opened at offset " + std::to_string(t.offset));
      }
      case token_kind::invalid:
        return fail(t.offset, t.message);
      default:
        return fail(t.offset, "expected a number, a counter name or '(', found " + describe(t));
    }
  }

  // Shared start of reduce/select: "name(" then the operand expression and a comma.
  bool parse_call_operand(size_t depth, const token& keyword) {
    if (depth + 1 > max_nesting)
      return fail(keyword.offset, "expression nested deeper than " + std::to_string(max_nesting));
    advance();  // the keyword
    advance();  // '('
    if (!parse_sum(depth + 1)) return false;
    return expect(token_kind::comma,
                  "after the first argument of " + std::string(keyword.text) + "()");
  }

  bool finish_call(expression_node n, const token& keyword) {
    const size_t close = current_.offset;
    if (!expect(token_kind::close_paren, "to close " + std::string(keyword.text) + "("))
      return false;
    n.offset = keyword.offset;
    n.length = close + 1 - keyword.offset;
    push(std::move(n));
    return true;
  }

  bool parse_reduce(size_t depth) {
    const token keyword = current_;
    if (!parse_call_operand(depth, keyword)) return false;
    expression_node n;
    n.kind = node_kind::reduce;
    n.lhs = static_cast<uint32_t>(nodes_.size() - 1);
    std::string op;
    size_t op_offset = 0;
    if (!expect_name("(the reduce operation)", op, &op_offset)) return false;
    if (op == "sum") {
      n.reduction = reduce_op::sum;
    } else if (op == "avg" || op == "avr") {  // rocprofiler-sdk accepts both spellings
      n.reduction = reduce_op::avg;
    } else if (op == "min") {
      n.reduction = reduce_op::min;
    } else if (op == "max") {
      n.reduction = reduce_op::max;
    } else {
      return fail(op_offset,
                  "unknown reduce operation '" + op + "' (expected sum, avg, min or max)");
    }
    if (current_.kind == token_kind::comma) {
      advance();
      if (!expect(token_kind::open_bracket, "to start the list of dimensions to reduce"))
        return false;
      do {
        std::string dim;
        if (!expect_name("(a dimension name)", dim)) return false;
        n.reduce_dimensions.push_back(std::move(dim));
      } while (skip_comma());
      if (!expect(token_kind::close_bracket, "to end the list of dimensions")) return false;
    }
    return finish_call(std::move(n), keyword);
  }

  bool parse_index(uint64_t& index) {
    const bool bracketed = current_.kind == token_kind::open_bracket;
    if (bracketed) advance();
    const token t = current_;
    if (t.kind != token_kind::number)
      return fail(t.offset, "expected a dimension index, found " + describe(t));
    if (t.number < 0 || t.number != std::floor(t.number) ||
        t.number > static_cast<double>(std::numeric_limits<uint32_t>::max()))
      return fail(t.offset, "a dimension index must be a whole number");
    index = static_cast<uint64_t>(t.number);
    advance();
    if (bracketed && current_.kind == token_kind::colon)
      return fail(current_.offset,
                  "index ranges are not supported in select(); select one index per dimension");
    if (bracketed && current_.kind == token_kind::comma)
      return fail(current_.offset,
                  "index lists are not supported in select(); select one index per dimension");
    return !bracketed || expect(token_kind::close_bracket, "after the dimension index");
  }

  bool parse_select(size_t depth) {
    const token keyword = current_;
    if (!parse_call_operand(depth, keyword)) return false;
    expression_node n;
    n.kind = node_kind::select;
    n.lhs = static_cast<uint32_t>(nodes_.size() - 1);
    if (!expect(token_kind::open_bracket, "to start the selection")) return false;
    do {
      dimension_index sel;
      if (!expect_name("(a dimension name)", sel.dimension)) return false;
      if (!expect(token_kind::equals, "after the dimension name")) return false;
      if (!parse_index(sel.index)) return false;
      n.selection.push_back(std::move(sel));
    } while (skip_comma());
    if (!expect(token_kind::close_bracket, "to end the selection")) return false;
    return finish_call(std::move(n), keyword);
  }

  bool parse_accumulate() {
    const token keyword = current_;
    advance();  // keyword
    advance();  // '('
    expression_node n;
    n.kind = node_kind::accumulate;
    if (!expect_name("(accumulate takes a counter name)", n.name)) return false;
    if (!expect(token_kind::comma, "after the counter name")) return false;
    std::string mode;
    size_t mode_offset = 0;
    if (!expect_name("(the resolution: NONE, LOW_RES or HIGH_RES)", mode, &mode_offset))
      return false;
    if (mode == "NONE") {
      n.accumulation = accumulate_mode::none;
    } else if (mode == "LOW_RES") {
      n.accumulation = accumulate_mode::low_res;
    } else if (mode == "HIGH_RES") {
      n.accumulation = accumulate_mode::high_res;
    } else {
      return fail(mode_offset, "unknown accumulate resolution '" + mode +
                                   "' (expected NONE, LOW_RES or HIGH_RES)");
    }
    return finish_call(std::move(n), keyword);
  }

  std::string_view text_;
  detail::lexer lex_;
  token current_;
  std::vector<expression_node> nodes_;
  error failure_;
};

}  // namespace

result<expression> parse_expression(std::string_view text) {
  if (text.size() > max_expression_length)
    return error{"expression longer than " + std::to_string(max_expression_length) + " bytes",
                 max_expression_length};
  parser p(text);
  expression out;
  if (!p.parse(out)) return p.failure();
  return out;
}

bool is_valid_counter_name(std::string_view name) {
  detail::lexer lex(name);
  const auto t = lex.next();
  return t.kind == token_kind::name && t.offset == 0 && t.length == name.size();
}

}  // namespace rocprof::counters
