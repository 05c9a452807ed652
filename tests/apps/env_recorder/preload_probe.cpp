// An empty shared library: the CLI end-to-end tests put copies of it in LD_PRELOAD to check the
// order in which rocprofv3 assembles that variable.
extern "C" int rocprof_preload_probe() {
  return 0;
}
