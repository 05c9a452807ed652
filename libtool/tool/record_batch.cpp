#include "record_batch.hpp"

#include <algorithm>
#include <tuple>

#include "record_spool.hpp"

namespace rocprof::tool {

void record_batch::drop_before(uint64_t epoch_ns) {
  std::apply(
      [epoch_ns](auto&... vectors) {
        auto cut = [epoch_ns](auto& records) {
          using T = typename std::decay_t<decltype(records)>::value_type;
          if constexpr (trace::has_record_time<T>) {
            records.erase(std::remove_if(records.begin(), records.end(),
                                         [epoch_ns](const T& r) {
                                           return trace::record_time_ns(r) < epoch_ns;
                                         }),
                          records.end());
          }
        };
        (cut(vectors), ...);
      },
      records_);
}

void record_batch::append_to(record_spool& spool) const {
  append_to_sink(spool);
}

size_t record_batch::total() const {
  return std::apply([](const auto&... vectors) { return (size_t{0} + ... + vectors.size()); },
                    records_);
}

}  // namespace rocprof::tool
