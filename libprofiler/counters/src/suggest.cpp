#include "rocprof/counters/suggest.hpp"

#include <algorithm>
#include <utility>

namespace rocprof::counters {
namespace {

char fold(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// The banded distance, with the row buffer passed in so that scanning many names allocates once.
size_t banded_distance(std::string_view a, std::string_view b, size_t bound,
                       std::vector<size_t>& row) {
  const size_t over = bound + 1;
  const size_t la = a.size();
  const size_t lb = b.size();
  if ((la > lb ? la - lb : lb - la) > bound) return over;
  // One row of the dynamic programme, limited to the band |i - j| <= bound; cells outside the
  // band count as `over`.
  row.assign(lb + 1, 0);
  for (size_t j = 0; j <= lb; ++j)
    row[j] = j <= bound ? j : over;
  for (size_t i = 1; i <= la; ++i) {
    const size_t lo = i > bound ? i - bound : 1;
    const size_t hi = std::min(lb, i + bound);
    size_t diagonal = row[lo - 1];  // row[i-1][lo-1]
    row[lo - 1] = (lo == 1 && i <= bound) ? i : over;
    size_t row_min = row[lo - 1];
    for (size_t j = lo; j <= hi; ++j) {
      const size_t up = row[j];  // row[i-1][j]
      const size_t cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
      size_t best = diagonal + cost;
      best = std::min(best, up + 1);
      best = std::min(best, row[j - 1] + 1);
      row[j] = std::min(best, over);
      diagonal = up;
      row_min = std::min(row_min, row[j]);
    }
    if (hi < lb) row[hi + 1] = over;
    if (row_min > bound) return over;
  }
  return std::min(row[lb], over);
}

}  // namespace

size_t bounded_edit_distance(std::string_view a, std::string_view b, size_t bound) {
  std::vector<size_t> row;
  return banded_distance(a, b, bound, row);
}

std::vector<std::string> closest_names(std::string_view query,
                                       const std::vector<std::string_view>& candidates,
                                       size_t limit) {
  if (limit == 0) return {};
  size_t bound = std::max<size_t>(2, query.size() / 3);
  // The best so far, sorted by (distance, name); the bound shrinks to the worst kept once full.
  std::vector<std::pair<size_t, std::string_view>> best;
  std::vector<size_t> row;
  for (const auto& name : candidates) {
    const size_t d = banded_distance(query, name, bound, row);
    if (d > bound) continue;
    const std::pair<size_t, std::string_view> item{d, name};
    if (best.size() == limit && !(item < best.back())) continue;
    best.insert(std::upper_bound(best.begin(), best.end(), item), item);
    if (best.size() > limit) best.pop_back();
    if (best.size() == limit) bound = best.back().first;
  }
  std::vector<std::string> out;
  for (const auto& b : best)
    out.emplace_back(b.second);
  return out;
}

}  // namespace rocprof::counters
