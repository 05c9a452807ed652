// A small SDK tool for the counter checks on the GPU machine, written only against the public
// counter API (as a rocprofiler-sdk tool would be): callback dispatch counting of the counters
// named in COUNTER_CHECK_COUNTERS (comma-separated), the kernel trace of the same run, and the
// kernel names (code-object callbacks). At exit it writes one JSON object per line to
// COUNTER_CHECK_OUTPUT: {"counter": ...} per value, {"kernel": ...} per dispatch of the trace,
// {"symbol": ...} per kernel name, {"config": ...} per agent config (with its passes).
// COUNTER_CHECK_SELECT=none asks for no counters at all (the cost of unselected dispatches).
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct counter_row {
  uint64_t dispatch_id, correlation, kernel_id, agent;
  std::string name;
  double value;
};
struct kernel_row {
  uint64_t dispatch_id, correlation, kernel_id, graph_id, start, end;
};

struct tool_state {
  std::mutex mutex;
  rocprofiler_context_id_t counting{}, tracing{};
  rocprofiler_buffer_id_t buffer{};
  std::vector<std::string> wanted;
  bool select_none = false;
  std::map<uint64_t, rocprofiler_counter_config_id_t> configs;  // per agent
  std::map<uint64_t, size_t> passes;
  std::map<uint64_t, std::string> missing;  // agent -> names not found
  std::vector<counter_row> counters;
  std::vector<kernel_row> kernels;
  std::map<uint64_t, std::string> symbols;
  uint64_t dispatch_callbacks = 0;
};

tool_state& state() {
  static auto* s = new tool_state();
  return *s;
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

rocprofiler_counter_config_id_t config_for(rocprofiler_agent_id_t agent) {
  tool_state& t = state();
  if (auto it = t.configs.find(agent.handle); it != t.configs.end()) return it->second;
  std::vector<rocprofiler_counter_id_t> ids;
  std::string missing;
  for (const std::string& name : t.wanted) {
    rocprofiler_counter_id_t id{0};
    if (rocprofiler_find_counter(agent, name.c_str(), &id) == ROCPROFILER_STATUS_SUCCESS)
      ids.push_back(id);
    else
      missing += name + " ";
  }
  rocprofiler_counter_config_id_t config{0};
  if (!ids.empty() && rocprofiler_create_counter_config(agent, ids.data(), ids.size(), &config) ==
                          ROCPROFILER_STATUS_SUCCESS) {
    size_t passes = 0;
    rocprofiler_query_counter_config_passes(config, &passes);
    t.passes[agent.handle] = passes;
  }
  t.missing[agent.handle] = missing;
  t.configs[agent.handle] = config;
  return config;
}

void dispatch_cb(rocprofiler_dispatch_counting_service_data_t data,
                 rocprofiler_counter_config_id_t* config, rocprofiler_user_data_t* user, void*) {
  tool_state& t = state();
  std::lock_guard<std::mutex> lock(t.mutex);
  ++t.dispatch_callbacks;
  user->value = data.dispatch_info.kernel_id;
  if (!t.select_none) *config = config_for(data.dispatch_info.agent_id);
}

void record_cb(rocprofiler_dispatch_counting_service_data_t data,
               rocprofiler_counter_record_t* records, size_t n, rocprofiler_user_data_t user,
               void*) {
  tool_state& t = state();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (size_t i = 0; i < n; ++i) {
    rocprofiler_counter_id_t id{0};
    rocprofiler_query_record_counter_id(records[i].id, &id);
    rocprofiler_counter_info_v0_t info{};
    rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info);
    t.counters.push_back(counter_row{records[i].dispatch_id, data.correlation_id.internal,
                                     user.value, records[i].agent_id.handle,
                                     info.name != nullptr ? info.name : "?",
                                     records[i].counter_value});
  }
}

void trace_cb(rocprofiler_context_id_t, rocprofiler_buffer_id_t, rocprofiler_record_header_t** h,
              size_t n, void*, uint64_t) {
  tool_state& t = state();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (size_t i = 0; i < n; ++i) {
    if (h[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING ||
        h[i]->kind != ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
      continue;
    const auto* k =
        static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(h[i]->payload);
    t.kernels.push_back(kernel_row{k->dispatch_info.dispatch_id, k->correlation_id.internal,
                                   k->dispatch_info.kernel_id, k->graph_id, k->start_timestamp,
                                   k->end_timestamp});
  }
}

void code_object_cb(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*) {
  if (record.operation != ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER ||
      record.phase != ROCPROFILER_CALLBACK_PHASE_LOAD)
    return;
  const auto* s =
      static_cast<const rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
          record.payload);
  tool_state& t = state();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.symbols[s->kernel_id] = s->kernel_name != nullptr ? s->kernel_name : "";
}

int tool_init(rocprofiler_client_finalize_t, void*) {
  tool_state& t = state();
  rocprofiler_create_context(&t.counting);
  rocprofiler_create_context(&t.tracing);
  int rc = rocprofiler_configure_callback_dispatch_counting_service(t.counting, dispatch_cb,
                                                                    nullptr, record_cb, nullptr);
  if (rc != ROCPROFILER_STATUS_SUCCESS)
    std::fprintf(stderr, "counter_check_tool: counting service: %s\n",
                 rocprofiler_get_status_string(static_cast<rocprofiler_status_t>(rc)));
  rocprofiler_create_buffer(t.tracing, 1 << 20, 1 << 19, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                            trace_cb, nullptr, &t.buffer);
  rocprofiler_configure_buffer_tracing_service(
      t.tracing, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, t.buffer);
  rocprofiler_configure_callback_tracing_service(
      t.tracing, ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, nullptr, 0, code_object_cb, nullptr);
  rocprofiler_start_context(t.tracing);
  rocprofiler_start_context(t.counting);
  return 0;
}

void tool_fini(void*) {
  tool_state& t = state();
  rocprofiler_flush_buffer(t.buffer);
  const char* path = std::getenv("COUNTER_CHECK_OUTPUT");
  FILE* out = path != nullptr ? std::fopen(path, "w") : stdout;
  if (out == nullptr) return;
  std::lock_guard<std::mutex> lock(t.mutex);
  for (const counter_row& r : t.counters)
    std::fprintf(
        out,
        "{\"counter\": \"%s\", \"value\": %.17g, \"dispatch_id\": %llu, "
        "\"correlation_id\": %llu, \"kernel_id\": %llu, \"agent\": %llu}\n",
        json_escape(r.name).c_str(), r.value, static_cast<unsigned long long>(r.dispatch_id),
        static_cast<unsigned long long>(r.correlation),
        static_cast<unsigned long long>(r.kernel_id), static_cast<unsigned long long>(r.agent));
  for (const kernel_row& k : t.kernels)
    std::fprintf(out,
                 "{\"kernel\": %llu, \"dispatch_id\": %llu, \"correlation_id\": %llu, "
                 "\"graph_id\": %llu, \"start\": %llu, \"end\": %llu}\n",
                 static_cast<unsigned long long>(k.kernel_id),
                 static_cast<unsigned long long>(k.dispatch_id),
                 static_cast<unsigned long long>(k.correlation),
                 static_cast<unsigned long long>(k.graph_id),
                 static_cast<unsigned long long>(k.start), static_cast<unsigned long long>(k.end));
  for (const auto& [id, name] : t.symbols)
    std::fprintf(out, "{\"symbol\": %llu, \"name\": \"%s\"}\n", static_cast<unsigned long long>(id),
                 json_escape(name).c_str());
  for (const auto& [agent, passes] : t.passes)
    std::fprintf(out, "{\"config\": %llu, \"passes\": %zu, \"missing\": \"%s\"}\n",
                 static_cast<unsigned long long>(agent), passes, t.missing[agent].c_str());
  std::fprintf(out, "{\"dispatch_callbacks\": %llu}\n",
               static_cast<unsigned long long>(t.dispatch_callbacks));
  if (out != stdout) std::fclose(out);
}

}  // namespace

extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(uint32_t, const char*,
                                                                      uint32_t,
                                                                      rocprofiler_client_id_t* id) {
  id->name = "counter_check_tool";
  tool_state& t = state();
  const char* wanted = std::getenv("COUNTER_CHECK_COUNTERS");
  std::stringstream names(wanted != nullptr ? wanted : "SQ_WAVES");
  for (std::string name; std::getline(names, name, ',');)
    if (!name.empty()) t.wanted.push_back(name);
  const char* select = std::getenv("COUNTER_CHECK_SELECT");
  t.select_none = select != nullptr && std::string(select) == "none";
  static rocprofiler_tool_configure_result_t result{sizeof(result), tool_init, tool_fini, nullptr};
  return &result;
}
