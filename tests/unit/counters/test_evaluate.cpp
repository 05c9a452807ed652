// The evaluator: arithmetic with broadcasting, division by zero, reduce/select/accumulate over
// named dimensions, and error positions.
#include <gtest/gtest.h>

#include <map>

#include "rocprof/counters/evaluate.hpp"

namespace rc = rocprof::counters;

namespace {

// Values by name, for expressions in these tests.
class table_resolver : public rc::value_resolver {
 public:
  std::map<std::string, rc::counter_value, std::less<>> values;
  rc::result<rc::counter_value> value_of(std::string_view name) const override {
    const auto it = values.find(name);
    if (it == values.end()) return rc::error{"no value for " + std::string(name)};
    return it->second;
  }
};

rc::counter_value tensor(std::vector<rc::dimension> dims, std::vector<double> values) {
  auto v = rc::counter_value::tensor(std::move(dims), std::move(values));
  EXPECT_TRUE(v.ok()) << (v ? "" : v.failure().message);
  return v ? *v : rc::counter_value{};
}

// XCC=2 x SE=4 x WGP=4 holding 1..32, as rocprofiler-sdk's documentation illustrates select().
rc::counter_value cube() {
  std::vector<double> v(32);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<double>(i + 1);
  return tensor({{"DIMENSION_XCC", 2}, {"DIMENSION_SHADER_ENGINE", 4}, {"DIMENSION_WGP", 4}}, v);
}

rc::result<rc::counter_value> eval(const std::string& text, const table_resolver& r) {
  auto parsed = rc::parse_expression(text);
  if (!parsed) return parsed.failure();
  return rc::evaluate(*parsed, r);
}

double scalar(const std::string& text, const table_resolver& r) {
  auto v = eval(text, r);
  EXPECT_TRUE(v.ok()) << text << ": " << (v ? "" : v.failure().message);
  if (!v) return -1;
  EXPECT_TRUE(v->is_single()) << text;
  return v->values()[0];
}

}  // namespace

TEST(evaluate, arithmetic_and_precedence) {
  table_resolver r;
  r.values["A"] = rc::counter_value::scalar(6);
  r.values["B"] = rc::counter_value::scalar(4);
  EXPECT_DOUBLE_EQ(scalar("A+B*2", r), 14);
  EXPECT_DOUBLE_EQ(scalar("(A+B)*2", r), 20);
  EXPECT_DOUBLE_EQ(scalar("A-B-1", r), 1);
  EXPECT_DOUBLE_EQ(scalar("A/B", r), 1.5);
  EXPECT_DOUBLE_EQ(scalar("100*A/(A+B)", r), 60);
}

TEST(evaluate, division_by_zero_is_zero) {
  table_resolver r;
  r.values["A"] = rc::counter_value::scalar(6);
  r.values["Z"] = rc::counter_value::scalar(0);
  EXPECT_DOUBLE_EQ(scalar("A/Z", r), 0);
  EXPECT_DOUBLE_EQ(scalar("Z/Z", r), 0);
  EXPECT_DOUBLE_EQ(scalar("1+A/0", r), 1);
  r.values["V"] = tensor({{"DIMENSION_INSTANCE", 3}}, {1, 0, 2});
  auto v = eval("A/V", r);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->values(), (std::vector<double>{6, 0, 3}));
}

TEST(evaluate, scalars_broadcast_and_shapes_must_match) {
  table_resolver r;
  r.values["V"] = tensor({{"DIMENSION_INSTANCE", 4}}, {1, 2, 3, 4});
  r.values["W"] = tensor({{"DIMENSION_INSTANCE", 4}}, {10, 20, 30, 40});
  r.values["S"] = tensor({{"DIMENSION_SHADER_ENGINE", 2}}, {1, 1});
  auto v = eval("2*V+W", r);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->values(), (std::vector<double>{12, 24, 36, 48}));
  EXPECT_EQ(v->dimensions(), (std::vector<rc::dimension>{{"DIMENSION_INSTANCE", 4}}));
  auto bad = eval("V+S", r);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.failure().offset, 0u);
  EXPECT_NE(bad.failure().message.find("dimension mismatch"), std::string::npos);
  EXPECT_DOUBLE_EQ(scalar("reduce(V,sum)+reduce(S,sum)", r), 12);
}

TEST(evaluate, reduce_everything_or_named_dimensions) {
  table_resolver r;
  r.values["X"] = cube();
  EXPECT_DOUBLE_EQ(scalar("reduce(X,sum)", r), 528);
  EXPECT_DOUBLE_EQ(scalar("reduce(X,avg)", r), 16.5);
  EXPECT_DOUBLE_EQ(scalar("reduce(X,min)", r), 1);
  EXPECT_DOUBLE_EQ(scalar("reduce(X,max)", r), 32);
  auto v = eval("reduce(X,sum)", r);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->dimensions().empty());

  // Reducing XCC leaves SE x WGP, each the sum of the two XCC planes.
  auto by_xcc = eval("reduce(X,sum,[DIMENSION_XCC])", r);
  ASSERT_TRUE(by_xcc.ok());
  EXPECT_EQ(by_xcc->dimensions(),
            (std::vector<rc::dimension>{{"DIMENSION_SHADER_ENGINE", 4}, {"DIMENSION_WGP", 4}}));
  EXPECT_EQ(by_xcc->values()[0], 1 + 17);
  EXPECT_EQ(by_xcc->values()[15], 16 + 32);

  // Reducing XCC and SE leaves WGP.
  auto wgp = eval("reduce(X,max,[DIMENSION_XCC,DIMENSION_SHADER_ENGINE])", r);
  ASSERT_TRUE(wgp.ok());
  EXPECT_EQ(wgp->values(), (std::vector<double>{29, 30, 31, 32}));

  // Reducing a rocprofiler dimension the value lacks changes nothing; other names are errors.
  auto same = eval("reduce(X,sum,[DIMENSION_AID])", r);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->values(), cube().values());
  auto typo = eval("reduce(X,sum,[DIMENSION_SE])", r);
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.failure().message.find("DIMENSION_SE"), std::string::npos);
}

TEST(evaluate, select_picks_an_index_and_drops_the_dimension) {
  table_resolver r;
  r.values["Y"] = cube();
  auto plane = eval("select(Y,[DIMENSION_XCC=[0]])", r);
  ASSERT_TRUE(plane.ok());
  EXPECT_EQ(plane->dimensions(),
            (std::vector<rc::dimension>{{"DIMENSION_SHADER_ENGINE", 4}, {"DIMENSION_WGP", 4}}));
  EXPECT_EQ(plane->values()[0], 1);
  EXPECT_EQ(plane->values()[15], 16);
  auto row = eval("select(Y,[DIMENSION_XCC=[0],DIMENSION_SHADER_ENGINE=[2]])", r);
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(row->values(), (std::vector<double>{9, 10, 11, 12}));
  auto other = eval("select(Y,[DIMENSION_XCC=1,DIMENSION_WGP=3])", r);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->values(), (std::vector<double>{20, 24, 28, 32}));
  EXPECT_DOUBLE_EQ(scalar("reduce(select(Y,[DIMENSION_XCC=[1]]),sum)", r), 392);
  EXPECT_FALSE(eval("select(Y,[DIMENSION_XCC=[2]])", r).ok());
  EXPECT_TRUE(eval("select(Y,[DIMENSION_AID=[0]])", r).ok());
  EXPECT_FALSE(eval("select(Y,[DIMENSION_AID=[1]])", r).ok());
}

TEST(evaluate, accumulate_resolutions) {
  table_resolver r;
  r.values["LEVEL"] = rc::counter_value::scalar(400);
  EXPECT_DOUBLE_EQ(scalar("accumulate(LEVEL,NONE)", r), 400);
  EXPECT_DOUBLE_EQ(scalar("accumulate(LEVEL,HIGH_RES)", r), 400);
  EXPECT_DOUBLE_EQ(scalar("accumulate(LEVEL,LOW_RES)", r), 100);
}

TEST(evaluate, errors_carry_the_node_offset) {
  table_resolver r;
  r.values["A"] = rc::counter_value::scalar(1);
  auto missing = eval("A+2*MISSING", r);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.failure().offset, 4u);
  EXPECT_NE(missing.failure().message.find("MISSING"), std::string::npos);
}

TEST(evaluate, values_validate_their_shape) {
  EXPECT_FALSE(rc::counter_value::tensor({{"DIMENSION_INSTANCE", 2}}, {1}).ok());
  EXPECT_FALSE(rc::counter_value::tensor({{"DIMENSION_INSTANCE", 0}}, {}).ok());
  EXPECT_FALSE(rc::counter_value::tensor({{"D", 1}, {"D", 1}}, {1}).ok());
  EXPECT_FALSE(rc::counter_value::filled({{"A", 1u << 20}, {"B", 1u << 20}}, 0).ok());
  EXPECT_EQ(rc::dimensions_text({}), "DIMENSION_INSTANCE[0:0]");
  EXPECT_EQ(rc::dimensions_text({{"DIMENSION_INSTANCE", 16}, {"DIMENSION_SHADER_ENGINE", 8}}),
            "DIMENSION_INSTANCE[0:15] DIMENSION_SHADER_ENGINE[0:7]");
  EXPECT_DOUBLE_EQ(cube().total(), 528);
}
