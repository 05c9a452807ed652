// The SASS text of sampled PCs, at the end of the run: each cubin that has samples is
// disassembled once, outside the sampler's locks (the child may take seconds).
#include <cstdio>
#include <cstdlib>
#include <set>

#include "notices.hpp"
#include "pc_sampler.hpp"
#include "sass_disassembly.hpp"

namespace rocprof::cuda {

void pc_sampler::sampled_instructions(const instruction_fn& each) {
  std::set<uint64_t> pending;
  {
    std::lock_guard<std::mutex> lock(cubin_mutex_);
    for (const auto& entry : sources_) {
      const uint64_t co = std::get<0>(entry.first);
      if (listings_.count(co) == 0 && cubins_.count(co) != 0) pending.insert(co);
    }
    if (!disassembler_set_) {
      disassembler_ = find_nvdisasm();
      disassembler_set_ = true;
    }
  }
  if (!pending.empty() && disassembler_.empty() && verbose_diagnostics())
    std::fprintf(stderr,
                 "rocprofv3 [cuda]: PC sampling: no nvdisasm (ROCPROF_NVDISASM, CUDA_HOME): "
                 "the Instruction column stays empty\n");
  bool gave_up = disassembler_.empty();
  for (const uint64_t co : pending) {
    sass_listing listing;
    if (!gave_up) {
      std::vector<char> cubin;
      {
        std::lock_guard<std::mutex> lock(cubin_mutex_);
        cubin = cubins_[co];
      }
      std::string error;
      if (!disassemble_cubin(disassembler_, cubin.data(), cubin.size(), listing, error)) {
        if (verbose_diagnostics())
          std::fprintf(stderr, "rocprofv3 [cuda]: PC sampling: code object %llu: %s\n",
                       static_cast<unsigned long long>(co), error.c_str());
        // A disassembler that hangs would hang on every cubin: the rest keep no text.
        gave_up = error.find("did not finish") != std::string::npos;
      }
    }
    std::lock_guard<std::mutex> lock(cubin_mutex_);
    listings_[co] = std::move(listing);
  }
  std::lock_guard<std::mutex> lock(cubin_mutex_);
  for (const auto& entry : sources_) {
    const auto& [co, function, offset] = entry.first;
    const auto listing = listings_.find(co);
    if (listing == listings_.end()) continue;
    const auto code = listing->second.find(function);
    if (code == listing->second.end()) continue;
    const auto text = code->second.find(offset);
    if (text == code->second.end()) continue;
    each(co, sink_.kernel_of(function.c_str()), offset, text->second.c_str());
  }
}

}  // namespace rocprof::cuda
