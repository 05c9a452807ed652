// PC sampling of every CUDA context (cupti-notes §(d), probe findings): enabled in the
// CONTEXT_CREATED resource callback, before any module of the context loads (samples of code
// loaded earlier cannot be attributed: CUPTI counts them as non-user samples); CONTINUOUS
// collection by default (no measurable slowdown, no correlation ids: samples are tied to their
// kernel by function) or KERNEL_SERIALIZED (ROCPROF_CUDA_PC_SAMPLING_MODE=serialized: each
// sample's launch is known, kernels run one at a time); a drain thread calls GetData every
// drain_ms (without it the hardware buffer overflows and CUPTI returns nothing).
//
// Delivery: CUPTI's data is decoded into records under the sampler's lock and queued; the
// records are handed to the sink outside it, by the drain thread (or by drain()'s caller).
// Samples CUPTI releases at the very end (cuptiPCSamplingStop hands over the last range) are
// read in finish() or in the context-destroy callback, which at exit() may run on the main
// thread after its thread-local state is gone (the core accepts no record from it then): they
// are queued too, and the drain thread, which lives until finish(), hands them over.
#pragma once

#include <cuda.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "pc_sampling_api.hpp"
#include "pc_sampling_decode.hpp"
#include "pc_sampling_reasons.hpp"
#include "sass_listing.hpp"

namespace rocprof::cuda {

// Where samples go and how they are tied to kernels and launches (the session's glue).
class pc_sample_sink {
 public:
  virtual ~pc_sample_sink() = default;
  virtual void emit(const rocprofiler_pc_sampling_record_aggregated_v0_t& r) = 0;
  virtual uint64_t kernel_of(const char* function) = 0;        // kernel id; 0 unknown
  virtual uint64_t launch_of(uint32_t cupti_correlation) = 0;  // core correlation id; 0 unknown
  virtual uint64_t agent_of(CUcontext ctx) = 0;                // agent id; 0 unknown
};

// What the sizing needs of the GPUs sampled (the largest of them); H100 SXM by default.
struct pc_sampling_gpu {
  uint32_t sm_count = 132;
  uint32_t clock_khz = 1980000;
  uint64_t memory_bytes = uint64_t{80} << 30;
};

// Buffer sizes and periods (pc_sampler_sizing.cpp explains the numbers).
struct pc_sampler_settings {
  uint64_t interval = 4096;      // cycles, a power of two in [2^5, 2^31]
  bool serialized = false;       // CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED
  uint32_t drain_ms = 5;         // our GetData period
  uint32_t worker_sleep_ms = 1;  // CUPTI's decode threads' period
  size_t hardware_buffer_bytes = size_t{1} << 30;  // device memory the hardware fills
  size_t scratch_buffer_bytes = size_t{4} << 20;   // decoded PC data awaiting GetData
  size_t max_pcs = 10000;                          // PCs one GetData returns at most
  bool restart_after_overflow = false;             // Stop + Start when the hardware buffer was full
  bool buffer_size_from_env = false;  // ROCPROF_CUDA_PC_SAMPLING_HW_BUFFER_MB: kept as given
};

// What the H100 (any CUPTI PC-sampling GPU) offers: pc_sampling.h configuration values.
inline constexpr uint64_t k_min_pc_sampling_interval = uint64_t{1} << 5;
inline constexpr uint64_t k_max_pc_sampling_interval = uint64_t{1} << 31;

// Settings for `interval` (pc_sampler_sizing.cpp), then the environment's overrides:
// ROCPROF_CUDA_PC_SAMPLING_MODE (serialized), _DRAIN_MS, _WORKER_SLEEP_MS, _HW_BUFFER_MB,
// _SCRATCH_KB, _RESTART_AFTER_OVERFLOW (1).
pc_sampler_settings pc_sampler_settings_from_env(uint64_t interval);
// The defaults for `interval` on `gpu`, without the environment.
pc_sampler_settings pc_sampler_default_settings(uint64_t interval, const pc_sampling_gpu& gpu = {});
// `base` with the hardware buffer sized for `gpu` (unless the environment set it).
pc_sampler_settings pc_sampler_sized_for(const pc_sampler_settings& base,
                                         const pc_sampling_gpu& gpu);
// Samples per second the hardware takes on `gpu` at `interval` cycles (one per SM per interval).
double pc_samples_per_second(const pc_sampling_gpu& gpu, uint64_t interval);
// The largest GPU the driver lists (needs an initialised driver: the context-created callback);
// the defaults when the driver cannot say.
pc_sampling_gpu largest_sampled_gpu();
// One line naming the sizes chosen and why (stderr with ROCPROF_CUDA_VERBOSE).
std::string describe_sizing(const pc_sampler_settings& s, const pc_sampling_gpu& gpu);

class pc_sampler {
 public:
  pc_sampler(pc_sampling_api& api, pc_sample_sink& sink, const pc_sampler_settings& settings);
  ~pc_sampler();
  pc_sampler(const pc_sampler&) = delete;
  pc_sampler& operator=(const pc_sampler&) = delete;

  // Resource callbacks (CUPTI's callback thread; contexts are created on application threads).
  void on_context_created(CUcontext ctx);
  void on_module_loaded(const void* cubin, size_t size, uint64_t crc, uint64_t code_object_id);
  void on_context_destroying(CUcontext ctx);
  // Reads every context's samples now and hands them to the sink on the calling thread (the
  // drain thread does this every drain_ms).
  void drain();
  // Stops sampling everywhere (the last range's samples read after cuptiPCSamplingStop), then
  // ends the drain thread after it handed every queued record to the sink; idempotent. On
  // return every sample CUPTI gave is in the sink.
  void finish();
  const pc_sampler_settings& settings() const { return settings_; }
  // Where the GPU's size comes from (tests replace the driver query).
  void set_gpu_lookup(std::function<pc_sampling_gpu()> lookup) { gpu_lookup_ = std::move(lookup); }

  // Source file and line of a PC (needs a cubin built with -lineinfo); false when unknown.
  bool source_of(uint64_t code_object_id, const char* function, uint64_t offset, std::string& file,
                 uint32_t& line);
  rocprofiler_pc_sampling_loss_t losses(uint64_t agent_id) const;
  // The SASS text of every sampled PC (pc_sampler_sass.cpp): after finish(), each cubin with
  // samples is disassembled once (find_nvdisasm; nothing when none is found); `each` gets the
  // code object, the kernel id of the PC's function, its offset and the text.
  using instruction_fn = std::function<void(uint64_t code_object_id, uint64_t kernel_id,
                                            uint64_t offset, const char* text)>;
  void sampled_instructions(const instruction_fn& each);
  // Where the disassembler is (tests name a stand-in); find_nvdisasm() by default.
  void set_disassembler(std::string path) {
    disassembler_ = std::move(path);
    disassembler_set_ = true;
  }
  bool active() const { return !contexts_.empty(); }

 private:
  struct context_state;
  void drain_context(context_state& c);
  void deliver(context_state& c, CUpti_PCSamplingData& d);  // with mutex_ held: queues records
  void stop_context(context_state& c);                      // with mutex_ held
  void restart_after_overflow(context_state& c);            // with mutex_ held
  void read_all();  // every sampling context's data into the queue
  void publish();   // the queued records to the sink (without mutex_)
  pc_sample_resolvers resolvers();
  void drain_loop();
  bool configure(context_state& c, const pc_sampler_settings& sized);
  const pc_sampler_settings& sized_settings();  // settings_ sized for the GPU, once
  void deliver_at_disable(context_state& c);    // with mutex_ held
  // With cubin_mutex_ held.
  bool source_locked(uint64_t code_object_id, const char* function, uint64_t offset,
                     std::string& file, uint32_t& line);
  // The source of a PC, resolved once per PC; the file name lives as long as the sampler.
  std::pair<const char*, uint32_t> cached_source(uint64_t code_object_id, const char* function,
                                                 uint64_t offset);

  pc_sampling_api& api_;
  pc_sample_sink& sink_;
  pc_sampler_settings settings_;
  std::function<pc_sampling_gpu()> gpu_lookup_ = largest_sampled_gpu;
  std::once_flag sized_once_;
  pc_sampler_settings sized_;
  mutable std::mutex mutex_;  // contexts_, losses_, function_names_; held across GetData
  std::unordered_set<char*> function_names_;  // CUPTI's, freed once in finish()
  std::vector<rocprofiler_pc_sampling_record_aggregated_v0_t> queued_;  // decoded, not emitted
  std::vector<std::unique_ptr<context_state>> contexts_;
  // Apart from mutex_: a module loads inside CUPTI's callback (driver locks held) while the
  // drain thread may be inside GetData holding mutex_; this one is never held across CUPTI.
  mutable std::mutex cubin_mutex_;  // code_object_of_crc_, cubins_
  std::map<uint64_t, uint64_t> code_object_of_crc_;
  std::map<uint64_t, std::vector<char>> cubins_;  // code object id -> cubin copy (source lines)
  // By (code object, function, offset): offsets are relative to their function. Its keys are
  // every PC sampled so far.
  using pc_key = std::tuple<uint64_t, std::string, uint64_t>;
  std::map<pc_key, std::pair<const char*, uint32_t>, std::less<>> sources_;
  std::map<uint64_t, sass_listing> listings_;  // code object -> its SASS (empty: none)
  std::string disassembler_;
  bool disassembler_set_ = false;
  std::set<std::string> files_;  // node-based: the c_str() handed out stay valid
  std::map<uint64_t, rocprofiler_pc_sampling_loss_t> losses_;  // by agent
  std::thread drainer_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool finished_ = false;
};

}  // namespace rocprof::cuda
