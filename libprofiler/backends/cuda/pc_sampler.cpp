#include "pc_sampler.hpp"
#include "notices.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <unordered_set>

namespace rocprof::cuda {

struct pc_sampler::context_state {
  CUcontext ctx = nullptr;
  uint64_t agent = 0;
  bool sampling = false;
  stall_reason_table reasons;
  bool restarting = false;  // inside restart_after_overflow: a second overflow is only counted
  CUpti_PCSamplingData stop_buffer{};  // CUPTI fills it at Stop (SAMPLING_DATA_BUFFER)
  CUpti_PCSamplingData get_buffer{};   // GetData's
  std::vector<CUpti_PCSamplingPCData> stop_pcs, get_pcs;
  std::vector<CUpti_PCSamplingStallReason> stop_reasons, get_reasons;
};

namespace {

uint32_t log2_of(uint64_t v) {
  uint32_t n = 0;
  while (v > 1) {
    v >>= 1;
    ++n;
  }
  return n;
}

// Points a CUpti_PCSamplingData at preallocated PC and stall-reason arrays.
void prepare_buffer(CUpti_PCSamplingData& d, std::vector<CUpti_PCSamplingPCData>& pcs,
                    std::vector<CUpti_PCSamplingStallReason>& reasons, size_t max_pcs,
                    size_t num_reasons) {
  pcs.assign(max_pcs, CUpti_PCSamplingPCData{});
  reasons.assign(max_pcs * num_reasons, CUpti_PCSamplingStallReason{});
  for (size_t i = 0; i < max_pcs; ++i) {
    pcs[i].size = sizeof(CUpti_PCSamplingPCData);
    pcs[i].stallReason = reasons.data() + i * num_reasons;
  }
  d = CUpti_PCSamplingData{};
  d.size = sizeof(CUpti_PCSamplingData);
  d.collectNumPcs = max_pcs;
  d.pPcData = pcs.data();
}

// CUPTI allocates functionName with malloc, but one string may be shared by many records (and
// by activity records of the same function), so it is freed once, after sampling stopped
// (cupti_pcsampling.h). Freeing it per record was a double free on the H100.
void keep_names(const CUpti_PCSamplingData& d, std::unordered_set<char*>& names) {
  for (size_t i = 0; i < d.totalNumPcs && i < d.collectNumPcs; ++i)
    if (d.pPcData[i].functionName != nullptr) names.insert(d.pPcData[i].functionName);
}

// Before CUPTI fills `d` again: counts left from the previous fill would be counted twice.
void reset_counts(CUpti_PCSamplingData& d) {
  d.totalNumPcs = d.remainingNumPcs = 0;
  d.totalSamples = d.droppedSamples = d.nonUsrKernelsTotalSamples = 0;
  d.hardwareBufferFull = 0;
}

CUpti_PCSamplingConfigurationInfo attribute(CUpti_PCSamplingConfigurationAttributeType type) {
  CUpti_PCSamplingConfigurationInfo a{};
  a.attributeType = type;
  return a;
}

}  // namespace

pc_sampler::pc_sampler(pc_sampling_api& api, pc_sample_sink& sink,
                       const pc_sampler_settings& settings)
    : api_{api}, sink_{sink}, settings_{settings} {
  try {
    drainer_ = std::thread([this] { drain_loop(); });
  } catch (const std::system_error&) {
    // No thread to be had: samples are read at flushes and at the end only.
  }
}

pc_sampler::~pc_sampler() {
  finish();
}

bool pc_sampler::configure(context_state& c, const pc_sampler_settings& sized) {
  size_t n = 0;
  CUpti_PCSamplingGetNumStallReasonsParams np{};
  np.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
  np.ctx = c.ctx;
  np.numStallReasons = &n;
  if (api_.num_stall_reasons(&np) != CUPTI_SUCCESS || n == 0) return false;
  std::vector<uint32_t> indices(n, 0);
  std::vector<std::vector<char>> storage(n, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE, 0));
  std::vector<char*> names(n);
  for (size_t i = 0; i < n; ++i)
    names[i] = storage[i].data();
  CUpti_PCSamplingGetStallReasonsParams sp{};
  sp.size = CUpti_PCSamplingGetStallReasonsParamsSize;
  sp.ctx = c.ctx;
  sp.numStallReasons = n;
  sp.stallReasonIndex = indices.data();
  sp.stallReasons = names.data();
  if (api_.stall_reasons(&sp) != CUPTI_SUCCESS) return false;
  for (size_t i = 0; i < n; ++i)
    c.reasons.add(indices[i], names[i]);
  prepare_buffer(c.stop_buffer, c.stop_pcs, c.stop_reasons, settings_.max_pcs, n);
  prepare_buffer(c.get_buffer, c.get_pcs, c.get_reasons, settings_.max_pcs, n);

  std::vector<CUpti_PCSamplingConfigurationInfo> a;
  a.push_back(attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD));
  a.back().attributeData.samplingPeriodData.samplingPeriod = log2_of(sized.interval);
  a.push_back(attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE));
  a.back().attributeData.collectionModeData.collectionMode =
      sized.serialized ? CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED
                       : CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
  a.push_back(attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL));
  a.back().attributeData.enableStartStopControlData.enableStartStopControl = 1;
  a.push_back(attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER));
  a.back().attributeData.samplingDataBufferData.samplingDataBuffer = &c.stop_buffer;
  a.push_back(attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT));
  a.back().attributeData.outputDataFormatData.outputDataFormat =
      CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
  // Sizes and CUPTI's decode period: pc_sampler_sizing.cpp. Last: without them (CUPTI's
  // defaults) if CUPTI refuses them.
  const size_t essential = a.size();
  a.push_back(
      attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_WORKER_THREAD_PERIODIC_SLEEP_SPAN));
  a.back().attributeData.workerThreadPeriodicSleepSpanData.workerThreadPeriodicSleepSpan =
      sized.worker_sleep_ms;
  a.push_back(attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE));
  a.back().attributeData.hardwareBufferSizeData.hardwareBufferSize = sized.hardware_buffer_bytes;
  a.push_back(attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE));
  a.back().attributeData.scratchBufferSizeData.scratchBufferSize = sized.scratch_buffer_bytes;
  CUpti_PCSamplingConfigurationInfoParams p{};
  p.size = CUpti_PCSamplingConfigurationInfoParamsSize;
  p.ctx = c.ctx;
  p.numAttributes = a.size();
  p.pPCSamplingConfigurationInfo = a.data();
  CUptiResult rc = api_.set_configuration(&p);
  if (rc != CUPTI_SUCCESS) {
    std::fprintf(stderr,
                 "rocprofv3 [cuda]: PC sampling buffer sizes refused (%s); CUPTI's defaults "
                 "are used\n",
                 api_.result_string(rc));
    p.numAttributes = essential;
    rc = api_.set_configuration(&p);
  }
  if (rc != CUPTI_SUCCESS) {
    std::fprintf(stderr, "rocprofv3 [cuda]: PC sampling configuration failed: %s\n",
                 api_.result_string(rc));
    for (const auto& attr : a)
      if (attr.attributeStatus != CUPTI_SUCCESS)
        std::fprintf(stderr, "rocprofv3 [cuda]:   attribute %d refused: %s\n",
                     static_cast<int>(attr.attributeType),
                     api_.result_string(attr.attributeStatus));
  }
  return rc == CUPTI_SUCCESS;
}

const pc_sampler_settings& pc_sampler::sized_settings() {
  // Once, in the first context-created callback: the driver is initialised there (the backend
  // lists its agents from the same callback) and the sizes serve every context.
  std::call_once(sized_once_, [this] {
    const pc_sampling_gpu gpu = gpu_lookup_ ? gpu_lookup_() : pc_sampling_gpu{};
    sized_ = pc_sampler_sized_for(settings_, gpu);
    if (verbose_diagnostics())
      std::fprintf(stderr, "rocprofv3 [cuda]: %s\n", describe_sizing(sized_, gpu).c_str());
  });
  return sized_;
}

void pc_sampler::on_context_created(CUcontext ctx) {
  auto c = std::make_unique<context_state>();
  c->ctx = ctx;
  c->agent = sink_.agent_of(ctx);
  CUpti_PCSamplingEnableParams ep{};
  ep.size = CUpti_PCSamplingEnableParamsSize;
  ep.ctx = ctx;
  const CUptiResult rc = api_.enable(&ep);
  if (rc != CUPTI_SUCCESS) {
    std::fprintf(stderr, "rocprofv3 [cuda]: PC sampling cannot be enabled: %s\n",
                 api_.result_string(rc));
    return;
  }
  if (configure(*c, sized_settings())) {
    CUpti_PCSamplingStartParams sp{};
    sp.size = CUpti_PCSamplingStartParamsSize;
    sp.ctx = ctx;
    c->sampling = api_.start(&sp) == CUPTI_SUCCESS;
  }
  if (!c->sampling) {
    CUpti_PCSamplingDisableParams dp{};
    dp.size = CUpti_PCSamplingDisableParamsSize;
    dp.ctx = ctx;
    api_.disable(&dp);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  contexts_.push_back(std::move(c));
}

void pc_sampler::on_module_loaded(const void* cubin, size_t size, uint64_t crc,
                                  uint64_t code_object_id) {
  std::lock_guard<std::mutex> lock(cubin_mutex_);
  code_object_of_crc_[crc] = code_object_id;
  // Kept for SASS-to-source (the cubin is valid during the callback only).
  if (cubin != nullptr && size > 0) {
    const char* bytes = static_cast<const char*>(cubin);
    cubins_[code_object_id].assign(bytes, bytes + size);
  }
}

pc_sample_resolvers pc_sampler::resolvers() {
  pc_sample_resolvers resolve;
  resolve.code_object_of = [this](uint64_t crc) -> uint64_t {
    std::lock_guard<std::mutex> lock(cubin_mutex_);
    const auto it = code_object_of_crc_.find(crc);
    return it != code_object_of_crc_.end() ? it->second : 0;
  };
  resolve.kernel_of = [this](const char* f) { return sink_.kernel_of(f); };
  resolve.launch_of = [this](uint32_t id) { return sink_.launch_of(id); };
  resolve.source_of = [this](uint64_t co, const char* function, uint64_t offset) {
    return cached_source(co, function, offset);
  };
  return resolve;
}

void pc_sampler::deliver(context_state& c, CUpti_PCSamplingData& d) {
  rocprofiler_pc_sampling_loss_t& loss = losses_[c.agent];
  loss.size = sizeof(loss);
  const pc_sample_totals t =
      decode_pc_samples(d, c.reasons, resolvers(), c.agent, settings_.serialized, queued_);
  keep_names(d, function_names_);
  loss.total_samples += t.total;
  loss.dropped_samples += t.dropped;
  loss.unattributed_samples += t.non_user;
}

void pc_sampler::publish() {
  std::vector<rocprofiler_pc_sampling_record_aggregated_v0_t> ready;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ready.swap(queued_);
  }
  for (const auto& r : ready)
    sink_.emit(r);
}

void pc_sampler::drain_context(context_state& c) {
  // GetData returns at most collectNumPcs PCs per call; call until nothing remains.
  for (int call = 0; call < 1000; ++call) {
    CUpti_PCSamplingData& d = c.get_buffer;
    reset_counts(d);
    CUpti_PCSamplingGetDataParams gp{};
    gp.size = CUpti_PCSamplingGetDataParamsSize;
    gp.ctx = c.ctx;
    gp.pcSamplingData = &d;
    const CUptiResult rc = api_.get_data(&gp);
    if (rc != CUPTI_SUCCESS) {
      if (d.hardwareBufferFull != 0 || rc == CUPTI_ERROR_OUT_OF_MEMORY) {
        // How many samples were lost is unknown: the event is counted and reported.
        rocprofiler_pc_sampling_loss_t& loss = losses_[c.agent];
        loss.size = sizeof(loss);
        loss.hardware_buffer_full_events += 1;
        if (settings_.restart_after_overflow && !c.restarting) restart_after_overflow(c);
      }
      break;
    }
    deliver(c, d);
    if (d.totalNumPcs == 0 && d.remainingNumPcs == 0) break;
  }
}

void pc_sampler::read_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& c : contexts_)
    if (c->sampling) drain_context(*c);
}

void pc_sampler::drain() {
  read_all();
  publish();
}

void pc_sampler::drain_loop() {
  std::unique_lock<std::mutex> lock(wake_mutex_);
  for (;;) {
    if (!stopping_) wake_.wait_for(lock, std::chrono::milliseconds(settings_.drain_ms));
    const bool last = stopping_;
    lock.unlock();
    // At the end finish() has read everything already: only the queue is left to hand over.
    if (!last) read_all();
    publish();
    lock.lock();
    if (last) break;
  }
}

void pc_sampler::stop_context(context_state& c) {
  CUpti_PCSamplingStopParams sp{};
  sp.size = CUpti_PCSamplingStopParamsSize;
  sp.ctx = c.ctx;
  // Stop hands the data CUPTI still holds to the configured buffer; GetData the rest.
  reset_counts(c.stop_buffer);
  if (api_.stop(&sp) == CUPTI_SUCCESS && c.stop_buffer.totalNumPcs > 0) deliver(c, c.stop_buffer);
  drain_context(c);
}

void pc_sampler::restart_after_overflow(context_state& c) {
  // The hardware buffer overflowed: CUPTI returns nothing more for the range. Ending the range
  // and starting a new one resets it (opt-in: not yet measured on the H100).
  c.restarting = true;
  stop_context(c);
  c.restarting = false;
  CUpti_PCSamplingStartParams st{};
  st.size = CUpti_PCSamplingStartParamsSize;
  st.ctx = c.ctx;
  c.sampling = api_.start(&st) == CUPTI_SUCCESS;
}

void pc_sampler::deliver_at_disable(context_state& c) {
  // cuptiPCSamplingDisable joins CUPTI's decode threads and copies the PC records it still
  // holds into the configured buffer (cupti_pcsampling.h): what the hardware buffer held when
  // Stop and the last GetData ran (neither waits for the decode) comes out only here. Reading
  // the buffer after Stop alone lost the end of the last kernel's samples in some runs.
  reset_counts(c.stop_buffer);
  CUpti_PCSamplingDisableParams dp{};
  dp.size = CUpti_PCSamplingDisableParamsSize;
  dp.ctx = c.ctx;
  if (api_.disable(&dp) != CUPTI_SUCCESS || c.stop_buffer.totalNumPcs == 0) return;
  deliver(c, c.stop_buffer);
  if (verbose_diagnostics())
    std::fprintf(stderr, "rocprofv3 [cuda]: PC sampling: %zu PCs released at disable\n",
                 c.stop_buffer.totalNumPcs);
}

void pc_sampler::on_context_destroying(CUcontext ctx) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& c : contexts_) {
    if (c->ctx != ctx || !c->sampling) continue;
    stop_context(*c);
    deliver_at_disable(*c);
    c->sampling = false;
  }
}

void pc_sampler::finish() {
  {
    std::lock_guard<std::mutex> lock(wake_mutex_);
    if (finished_) return;
    finished_ = true;
  }
  // The last samples first (into the queue), while the drain thread still runs.
  std::vector<CUcontext> live;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& c : contexts_)
      if (c->sampling) live.push_back(c->ctx);
  }
  for (CUcontext ctx : live)
    on_context_destroying(ctx);
  {
    std::lock_guard<std::mutex> lock(wake_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  // The drain thread hands the queue over before it ends; without one, this thread does.
  if (drainer_.joinable())
    drainer_.join();
  else
    publish();
  std::lock_guard<std::mutex> lock(mutex_);
  for (char* name : function_names_)
    std::free(name);
  function_names_.clear();
}

bool pc_sampler::source_of(uint64_t code_object_id, const char* function, uint64_t offset,
                           std::string& file, uint32_t& line) {
  std::lock_guard<std::mutex> lock(cubin_mutex_);
  return source_locked(code_object_id, function, offset, file, line);
}

bool pc_sampler::source_locked(uint64_t code_object_id, const char* function, uint64_t offset,
                               std::string& file, uint32_t& line) {
  const auto it = cubins_.find(code_object_id);
  if (it == cubins_.end() || function == nullptr) return false;
  CUpti_GetSassToSourceCorrelationParams p{};
  p.size = CUpti_GetSassToSourceCorrelationParamsSize;
  p.cubin = it->second.data();
  p.cubinSize = it->second.size();
  p.functionName = function;
  p.pcOffset = offset;
  if (api_.sass_to_source(&p) != CUPTI_SUCCESS || p.fileName == nullptr) return false;
  file = p.dirName != nullptr && p.dirName[0] != '\0' ? std::string(p.dirName) + "/" + p.fileName
                                                      : std::string(p.fileName);
  line = p.lineNumber;
  std::free(p.fileName);  // CUPTI allocates both strings; the caller frees them
  std::free(p.dirName);
  return true;
}

std::pair<const char*, uint32_t> pc_sampler::cached_source(uint64_t code_object_id,
                                                           const char* function, uint64_t offset) {
  std::lock_guard<std::mutex> lock(cubin_mutex_);
  const auto known =
      sources_.find(std::make_tuple(code_object_id, std::string_view(function), offset));
  if (known != sources_.end()) return known->second;
  std::string file;
  uint32_t line = 0;
  std::pair<const char*, uint32_t> found{nullptr, 0};
  if (source_locked(code_object_id, function, offset, file, line))
    found = {files_.insert(file).first->c_str(), line};
  sources_.emplace(pc_key{code_object_id, function, offset}, found);
  return found;
}

rocprofiler_pc_sampling_loss_t pc_sampler::losses(uint64_t agent_id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = losses_.find(agent_id);
  rocprofiler_pc_sampling_loss_t none{};
  none.size = sizeof(none);
  return it != losses_.end() ? it->second : none;
}

}  // namespace rocprof::cuda
