#include "pc_sampling_api.hpp"

#include <dlfcn.h>

#include "cupti_loader.hpp"

namespace rocprof::cuda {
namespace {

#define ROCPROF_CUPTI_PC_SAMPLING_FUNCTIONS(X) \
  X(cuptiPCSamplingEnable)                     \
  X(cuptiPCSamplingDisable)                    \
  X(cuptiPCSamplingStart)                      \
  X(cuptiPCSamplingStop)                       \
  X(cuptiPCSamplingGetData)                    \
  X(cuptiPCSamplingSetConfigurationAttribute)  \
  X(cuptiPCSamplingGetNumStallReasons)         \
  X(cuptiPCSamplingGetStallReasons)            \
  X(cuptiGetSassToSourceCorrelation)

struct pc_sampling_table {
#define ROCPROF_CUPTI_MEMBER(name) decltype(&::name) name = nullptr;
  ROCPROF_CUPTI_PC_SAMPLING_FUNCTIONS(ROCPROF_CUPTI_MEMBER)
#undef ROCPROF_CUPTI_MEMBER
};

class pc_sampling_dl_api final : public pc_sampling_api {
 public:
  pc_sampling_dl_api(const pc_sampling_table& fn, decltype(&::cuptiGetResultString) result)
      : fn_{fn}, result_{result} {}
  CUptiResult enable(CUpti_PCSamplingEnableParams* p) override {
    return fn_.cuptiPCSamplingEnable(p);
  }
  CUptiResult disable(CUpti_PCSamplingDisableParams* p) override {
    return fn_.cuptiPCSamplingDisable(p);
  }
  CUptiResult start(CUpti_PCSamplingStartParams* p) override { return fn_.cuptiPCSamplingStart(p); }
  CUptiResult stop(CUpti_PCSamplingStopParams* p) override { return fn_.cuptiPCSamplingStop(p); }
  CUptiResult get_data(CUpti_PCSamplingGetDataParams* p) override {
    return fn_.cuptiPCSamplingGetData(p);
  }
  CUptiResult set_configuration(CUpti_PCSamplingConfigurationInfoParams* p) override {
    return fn_.cuptiPCSamplingSetConfigurationAttribute(p);
  }
  CUptiResult num_stall_reasons(CUpti_PCSamplingGetNumStallReasonsParams* p) override {
    return fn_.cuptiPCSamplingGetNumStallReasons(p);
  }
  CUptiResult stall_reasons(CUpti_PCSamplingGetStallReasonsParams* p) override {
    return fn_.cuptiPCSamplingGetStallReasons(p);
  }
  CUptiResult sass_to_source(CUpti_GetSassToSourceCorrelationParams* p) override {
    return fn_.cuptiGetSassToSourceCorrelation(p);
  }
  const char* result_string(CUptiResult r) override {
    const char* s = nullptr;
    return result_ != nullptr && result_(r, &s) == CUPTI_SUCCESS && s != nullptr ? s : "unknown";
  }

 private:
  pc_sampling_table fn_;
  decltype(&::cuptiGetResultString) result_;
};

}  // namespace

std::unique_ptr<pc_sampling_api> open_pc_sampling_api(const cupti_library& lib, std::string* why) {
  if (lib.handle == nullptr) {
    if (why != nullptr) *why = "libcupti is not loaded";
    return nullptr;
  }
  pc_sampling_table t;
#define ROCPROF_CUPTI_RESOLVE(name)                                       \
  t.name = reinterpret_cast<decltype(&::name)>(dlsym(lib.handle, #name)); \
  if (t.name == nullptr) {                                                \
    if (why != nullptr) *why = "libcupti has no " #name;                  \
    return nullptr;                                                       \
  }
  ROCPROF_CUPTI_PC_SAMPLING_FUNCTIONS(ROCPROF_CUPTI_RESOLVE)
#undef ROCPROF_CUPTI_RESOLVE
  return std::make_unique<pc_sampling_dl_api>(t, lib.fn.cuptiGetResultString);
}

}  // namespace rocprof::cuda
