// The RE2 wrapper: rocprofv3's patterns still work, ECMAScript constructs RE2 cannot run are
// errors that name them, and the patterns that broke std::regex (deep nesting, catastrophic
// backtracking) finish in well under a second.
#include <gtest/gtest.h>

#include <chrono>

#include "rocprof/common/safe_regex.hpp"

using rocprof::common::k_regex_max_length;
using rocprof::common::k_regex_max_nesting;
using rocprof::common::regex_problem;
using rocprof::common::safe_regex;

namespace {

safe_regex compiled(const std::string& pattern) {
  std::string error;
  auto re = safe_regex::compile(pattern, &error);
  EXPECT_TRUE(re.has_value()) << pattern << ": " << error;
  return re ? *re : *safe_regex::compile("", nullptr);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST(SafeRegex, SearchAndFullMatchAsStdRegex) {
  const auto groups = compiled("KERNEL_DISPATCH|MEMORY_COPY");
  EXPECT_TRUE(groups.full_match("MEMORY_COPY"));
  EXPECT_FALSE(groups.full_match("MEMORY_COPY_X"));
  EXPECT_TRUE(groups.search("A_MEMORY_COPY_X"));
  const auto api = compiled(".*_API");
  EXPECT_TRUE(api.full_match("HIP_API"));
  EXPECT_FALSE(api.full_match("KERNEL_DISPATCH"));
  const auto kernel = compiled("^gemm\\d+\\b");
  EXPECT_TRUE(kernel.search("gemm16 (float*)"));
  EXPECT_FALSE(kernel.search("my_gemm16"));
  // Bytewise, as std::regex<char>: a UTF-8 literal matches its bytes; '.' is one byte.
  EXPECT_TRUE(compiled("é").search("caf\xc3\xa9"));
  EXPECT_TRUE(compiled("^caf..$").full_match("caf\xc3\xa9"));
  EXPECT_TRUE(
      compiled("a\\xffb").search("a\xff"
                                 "b"));  // any byte in the text
}

TEST(SafeRegex, EcmascriptConstructsRe2LacksAreNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {"(a)\\1", "backreference \\1"},    {"(?<n>a)\\k<n>", "named group"},
      {"a(?=b)", "lookahead (?=...)"},    {"a(?!b)", "negative lookahead (?!...)"},
      {"(?<=a)b", "lookbehind (?<=...)"}, {"(?<!a)b", "negative lookbehind (?<!...)"},
      {"\\u0041", "\\u escape"},          {"\\cA", "control escape \\c"},
  };
  for (const auto& [pattern, construct] : cases) {
    const auto problem = regex_problem(pattern);
    EXPECT_NE(problem.find(construct), std::string::npos) << pattern << ": " << problem;
  }
  // Inside a class or escaped, the same characters are literal and fine.
  EXPECT_EQ(regex_problem("[(?=]"), "");
  EXPECT_EQ(regex_problem("\\(\\?=x\\)"), "");
}

TEST(SafeRegex, SyntaxErrorsOfRocprofv3sTests) {
  EXPECT_NE(regex_problem("*._API"), "");  // rocprofv3's help example, not a regex
  EXPECT_NE(regex_problem("(unclosed"), "");
  EXPECT_NE(regex_problem("[z-a]"), "");
  EXPECT_NE(regex_problem("\xff(a)"), "");  // patterns must be UTF-8 (they reach JSON)
}

TEST(SafeRegex, LengthAndNestingLimitsBeforeCompiling) {
  EXPECT_EQ(regex_problem(std::string(k_regex_max_length, 'a')), "");
  EXPECT_NE(regex_problem(std::string(k_regex_max_length + 1, 'a')).find("longer than"),
            std::string::npos);
  const auto nested = [](size_t depth) {
    return std::string(depth, '(') + "a" + std::string(depth, ')');
  };
  EXPECT_EQ(regex_problem(nested(k_regex_max_nesting)), "");
  EXPECT_NE(regex_problem(nested(k_regex_max_nesting + 1)).find("nested more than"),
            std::string::npos);
  // What overflowed std::regex's stack: 100 000 nested groups, refused at once.
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(regex_problem(nested(100000)), "");
  EXPECT_NE(regex_problem(std::string(100000, '(')), "");
  EXPECT_LT(seconds_since(start), 1.0);
}

TEST(SafeRegex, NoCatastrophicBacktracking) {
  const auto start = std::chrono::steady_clock::now();
  const auto evil = compiled("(a*)*b");
  EXPECT_FALSE(evil.full_match(std::string(100000, 'a')));
  EXPECT_FALSE(compiled("(a|aa)+$").search(std::string(100000, 'a') + "!"));
  EXPECT_FALSE(compiled("(.*a){20}").full_match(std::string(5000, 'a') + "b"));
  EXPECT_LT(seconds_since(start), 1.0);
  // Repetition counts past RE2's limit (1000) are errors, not huge automata.
  EXPECT_NE(regex_problem("(a{1000}){1000}"), "");
}

TEST(SafeRegex, CopiesShareTheCompiledPattern) {
  const auto original = compiled("x+y");
  const safe_regex copy = original;  // NOLINT: the copy is the point
  EXPECT_TRUE(copy.full_match("xxy"));
  EXPECT_TRUE(original.full_match("xy"));
}
