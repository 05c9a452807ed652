// The thin, replaceable wrapper over CUPTI's PC sampling calls (cupti_pcsampling.h). Optional
// entry points, resolved apart from the tracing table (a libcupti without them, or a test
// stand-in, still traces): open_pc_sampling_api returns nullptr then.
#pragma once

#include <cupti_pcsampling.h>

#include <memory>
#include <string>

namespace rocprof::cuda {

struct cupti_library;

class pc_sampling_api {
 public:
  virtual ~pc_sampling_api() = default;
  virtual CUptiResult enable(CUpti_PCSamplingEnableParams* p) = 0;
  virtual CUptiResult disable(CUpti_PCSamplingDisableParams* p) = 0;
  virtual CUptiResult start(CUpti_PCSamplingStartParams* p) = 0;
  virtual CUptiResult stop(CUpti_PCSamplingStopParams* p) = 0;
  virtual CUptiResult get_data(CUpti_PCSamplingGetDataParams* p) = 0;
  virtual CUptiResult set_configuration(CUpti_PCSamplingConfigurationInfoParams* p) = 0;
  virtual CUptiResult num_stall_reasons(CUpti_PCSamplingGetNumStallReasonsParams* p) = 0;
  virtual CUptiResult stall_reasons(CUpti_PCSamplingGetStallReasonsParams* p) = 0;
  virtual CUptiResult sass_to_source(CUpti_GetSassToSourceCorrelationParams* p) = 0;
  virtual const char* result_string(CUptiResult r) = 0;
};

// Resolves the PC sampling entry points from the opened libcupti; nullptr (and *why) when one
// is missing.
std::unique_ptr<pc_sampling_api> open_pc_sampling_api(const cupti_library& lib, std::string* why);

}  // namespace rocprof::cuda
