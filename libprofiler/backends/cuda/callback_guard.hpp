// The backend's own CUDA and CUPTI calls made inside a CUPTI callback (counter collection: the
// range profiler, graph queries) must not reach the backend's callbacks again: while a
// backend_call_scope lives on a thread, the callback entry ignores that thread's callbacks.
#pragma once

namespace rocprof::cuda {

inline thread_local bool t_in_backend = false;

class backend_call_scope {
 public:
  backend_call_scope() : previous_{t_in_backend} { t_in_backend = true; }
  ~backend_call_scope() { t_in_backend = previous_; }
  backend_call_scope(const backend_call_scope&) = delete;
  backend_call_scope& operator=(const backend_call_scope&) = delete;

 private:
  bool previous_;
};

}  // namespace rocprof::cuda
