// Which kernel name a writer prints: the ROCTx/NVTX region with --kernel-rename when the dispatch
// has one, else the symbol's display name (already formatted per -M / -T by the producer), else
// the demangled or mangled symbol.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats {

std::string_view symbol_display_name(const trace::kernel_symbol_info& symbol);

class kernel_names {
 public:
  kernel_names(const trace::trace_definitions& defs, const trace::output_options& options);
  const trace::kernel_symbol_info* find(uint64_t kernel_id) const;
  // Rename-aware name of a dispatch.
  std::string_view name(const trace::kernel_dispatch_record& r) const;
  std::string_view name(uint64_t kernel_id, trace::string_id region_name) const;

 private:
  const trace::trace_definitions* defs_;
  bool rename_;
  std::unordered_map<uint64_t, const trace::kernel_symbol_info*> symbols_;
};

}  // namespace rocprof::formats
