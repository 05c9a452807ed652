// "Did you mean": the names closest to a misspelt one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rocprof::counters {

// Up to `limit` candidates closest to `query` by edit distance (insert, delete, substitute;
// letters compared case-insensitively), nearest first, ties by name. Candidates further than
// max(2, |query| / 3) edits are not suggested. Linear in the candidates with a banded distance
// and a shrinking bound: a lookup among 10^5 names takes tens of milliseconds.
std::vector<std::string> closest_names(std::string_view query,
                                       const std::vector<std::string_view>& candidates,
                                       size_t limit = 5);

// The edit distance, or bound + 1 when it exceeds `bound`.
size_t bounded_edit_distance(std::string_view a, std::string_view b, size_t bound);

}  // namespace rocprof::counters
