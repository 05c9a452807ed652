// A ROCTx program built against the installed SDK. On the main thread, named "consumer":
// 3 x { push "outer"; push "inner"; pop; pop }, a process range "process" stopped at once,
// roctxProfilerPause, push/pop "paused", roctxProfilerResume, then mark "done".
#include <rocprofiler-sdk-roctx/roctx.h>

int main() {
  roctxNameOsThread("consumer");
  for (int i = 0; i < 3; ++i) {
    roctxRangePushA("outer");
    roctxRangePushA("inner");
    roctxRangePop();
    roctxRangePop();
  }
  const roctx_range_id_t id = roctxRangeStartA("process");
  roctxRangeStop(id);
  roctxProfilerPause(0);
  roctxRangePushA("paused");
  roctxRangePop();
  roctxProfilerResume(0);
  roctxMarkA("done");
  return 0;
}
