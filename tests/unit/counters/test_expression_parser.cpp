// The expression language: tokens (NVIDIA names with '.' and '__'), precedence, functions,
// positions in errors, and robustness against hostile text.
#include <gtest/gtest.h>

#include <random>

#include "rocprof/counters/expression.hpp"

namespace rc = rocprof::counters;

namespace {

std::string canonical(const std::string& text) {
  auto parsed = rc::parse_expression(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << (parsed ? "" : parsed.failure().message);
  return parsed ? parsed->canonical() : std::string();
}

rc::error failure_of(const std::string& text) {
  auto parsed = rc::parse_expression(text);
  EXPECT_FALSE(parsed.ok()) << text << " parsed as " << (parsed ? parsed->canonical() : "");
  return parsed ? rc::error{} : parsed.failure();
}

}  // namespace

TEST(expression_parser, precedence_and_associativity) {
  EXPECT_EQ(canonical("a+b*c"), "(a+(b*c))");
  EXPECT_EQ(canonical("a*b+c"), "((a*b)+c)");
  EXPECT_EQ(canonical("a-b-c"), "((a-b)-c)");
  EXPECT_EQ(canonical("a/b/c"), "((a/b)/c)");
  EXPECT_EQ(canonical("(a+b)*c"), "((a+b)*c)");
  EXPECT_EQ(canonical(" 100 * ( A + B ) / C "), "((100*(A+B))/C)");
}

TEST(expression_parser, nvidia_metric_names_are_single_names) {
  EXPECT_EQ(canonical("smsp__inst_executed.sum"), "smsp__inst_executed.sum");
  EXPECT_EQ(canonical("dram__bytes_read.sum.per_second/1024"),
            "(dram__bytes_read.sum.per_second/1024)");
  EXPECT_EQ(canonical("sm__warps_active.avg.pct_of_peak_sustained_active*2"),
            "(sm__warps_active.avg.pct_of_peak_sustained_active*2)");
  auto parsed = rc::parse_expression("lts__t_sectors_lookup_hit.sum+TCC_HIT");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->references(),
            (std::vector<std::string>{"lts__t_sectors_lookup_hit.sum", "TCC_HIT"}));
  EXPECT_TRUE(rc::is_valid_counter_name("smsp__warps_launched.sum"));
  EXPECT_TRUE(rc::is_valid_counter_name("TCC_HIT_sum"));
  EXPECT_FALSE(rc::is_valid_counter_name("a."));
  EXPECT_FALSE(rc::is_valid_counter_name("1abc"));
  EXPECT_FALSE(rc::is_valid_counter_name("a-b"));
  EXPECT_FALSE(rc::is_valid_counter_name(""));
}

TEST(expression_parser, numbers) {
  auto parsed = rc::parse_expression("1.5e3+.25+7+2E-1");
  ASSERT_TRUE(parsed.ok());
  std::vector<double> numbers;
  for (const auto& n : parsed->nodes)
    if (n.kind == rc::node_kind::number) numbers.push_back(n.number);
  EXPECT_EQ(numbers, (std::vector<double>{1500, 0.25, 7, 0.2}));
  EXPECT_EQ(failure_of("12abc").offset, 2u);
}

TEST(expression_parser, functions) {
  EXPECT_EQ(canonical("reduce(TCC_HIT,sum)"), "reduce(TCC_HIT,sum)");
  EXPECT_EQ(canonical("reduce(X, avr)"), "reduce(X,avg)");  // rocprofiler-sdk's spelling
  EXPECT_EQ(canonical("reduce(X,max,[DIMENSION_XCC,DIMENSION_SHADER_ENGINE])"),
            "reduce(X,max,[DIMENSION_XCC,DIMENSION_SHADER_ENGINE])");
  EXPECT_EQ(canonical("select(Y,[DIMENSION_XCC=[0],DIMENSION_SHADER_ENGINE=2])"),
            "select(Y,[DIMENSION_XCC=[0],DIMENSION_SHADER_ENGINE=[2]])");
  EXPECT_EQ(canonical("accumulate(SQ_LEVEL_WAVES, HIGH_RES)/reduce(GRBM_GUI_ACTIVE,max)/CU_NUM"),
            "((accumulate(SQ_LEVEL_WAVES,HIGH_RES)/reduce(GRBM_GUI_ACTIVE,max))/CU_NUM)");
  EXPECT_EQ(canonical("reduce(reduce(a*2,sum)+b, min)"), "reduce((reduce((a*2),sum)+b),min)");
  // Keywords are names when no '(' follows.
  EXPECT_EQ(canonical("reduce+select"), "(reduce+select)");
}

TEST(expression_parser, comments_and_line_breaks_are_space) {
  EXPECT_EQ(canonical("a +\n  b // the rest is a comment\n * c"), "(a+(b*c))");
}

TEST(expression_parser, node_spans_cover_their_text) {
  const std::string text = "100*reduce(TCC_HIT,sum)";
  auto parsed = rc::parse_expression(text);
  ASSERT_TRUE(parsed.ok());
  const auto& root = parsed->nodes.back();
  EXPECT_EQ(root.offset, 0u);
  EXPECT_EQ(root.length, text.size());
  const auto& reduce = parsed->nodes[root.rhs];
  EXPECT_EQ(text.substr(reduce.offset, reduce.length), "reduce(TCC_HIT,sum)");
  const auto& ref = parsed->nodes[reduce.lhs];
  EXPECT_EQ(ref.offset, 11u);
  EXPECT_EQ(ref.name, "TCC_HIT");
}

TEST(expression_parser, errors_name_the_offset) {
  EXPECT_EQ(failure_of("").offset, 0u);
  EXPECT_EQ(failure_of("a+").offset, 2u);
  EXPECT_EQ(failure_of("a+*b").offset, 2u);
  EXPECT_EQ(failure_of("(a+b").offset, 4u);
  EXPECT_EQ(failure_of("a b").offset, 2u);
  EXPECT_EQ(failure_of("a+b)").offset, 3u);
  EXPECT_EQ(failure_of("-a").offset, 0u);  // no unary minus, as in rocprofiler-sdk
  const auto bad_char = failure_of("a # b");
  EXPECT_EQ(bad_char.offset, 2u);
  EXPECT_NE(bad_char.message.find("'#'"), std::string::npos);
  const auto bad_op = failure_of("reduce(SQ_WAVES,summ)");
  EXPECT_EQ(bad_op.offset, 16u);
  EXPECT_NE(bad_op.message.find("summ"), std::string::npos);
  EXPECT_EQ(failure_of("reduce(SQ_WAVES)").offset, 15u);
  EXPECT_EQ(failure_of("reduce(SQ_WAVES,sum,[])").offset, 21u);
  EXPECT_EQ(failure_of("foo(a)").offset, 0u);
  EXPECT_EQ(failure_of("accumulate(a+b,NONE)").offset, 12u);  // a name, not an expression
  EXPECT_EQ(failure_of("accumulate(a,MEDIUM)").offset, 13u);
  EXPECT_EQ(failure_of("select(a,[DIMENSION_XCC=[0:3]])").offset, 26u);
  EXPECT_EQ(failure_of("select(a,[DIMENSION_XCC=1.5])").offset, 24u);
  EXPECT_EQ(failure_of("select(a,[DIMENSION_XCC])").offset, 23u);
  EXPECT_EQ(failure_of("a+\x01").offset, 2u);
}

TEST(expression_parser, nesting_is_bounded) {
  const std::string ok =
      std::string(rc::max_nesting, '(') + "a" + std::string(rc::max_nesting, ')');
  EXPECT_TRUE(rc::parse_expression(ok).ok());
  const std::string deep = std::string(10000, '(') + "a" + std::string(10000, ')');
  const auto e = failure_of(deep);
  EXPECT_EQ(e.offset, rc::max_nesting);
  EXPECT_NE(e.message.find("nested deeper"), std::string::npos);
  std::string deep_calls;
  for (int i = 0; i < 1000; ++i)
    deep_calls += "reduce(";
  EXPECT_FALSE(rc::parse_expression(deep_calls + "a").ok());
}

TEST(expression_parser, long_chains_do_not_recurse) {
  std::string chain = "a";
  for (int i = 0; i < 10000; ++i)
    chain += "+a";
  auto parsed = rc::parse_expression(chain);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->nodes.size(), 20001u);
  EXPECT_EQ(parsed->references(), std::vector<std::string>{"a"});
  EXPECT_FALSE(rc::parse_expression(std::string(rc::max_expression_length + 1, 'a')).ok());
}

TEST(expression_parser, random_text_never_crashes) {
  // Fuzz-style: random strings over the language's alphabet either parse or fail with an offset
  // inside the text; a parsed result always prints back to something that parses the same.
  const std::string alphabet = "ab_.09()[],=:+-*/ \nreducselctmuASUMx#";
  std::mt19937 rng(12345);
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const size_t len = rng() % 40;
    for (size_t i = 0; i < len; ++i)
      text += alphabet[rng() % alphabet.size()];
    auto parsed = rc::parse_expression(text);
    if (!parsed) {
      EXPECT_LE(parsed.failure().offset, text.size()) << text;
      continue;
    }
    auto again = rc::parse_expression(parsed->canonical());
    ASSERT_TRUE(again.ok()) << text << " -> " << parsed->canonical();
    EXPECT_EQ(again->canonical(), parsed->canonical());
  }
}
