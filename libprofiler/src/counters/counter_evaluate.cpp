#include "counters/counter_evaluate.hpp"

#include <string>
#include <unordered_map>

#include "backend_loader.hpp"
#include "counters/instance_id.hpp"

namespace rocprof::core::counters {
namespace {

uint64_t values_of(const counter_config& config, const std::string& name,
                   const rc::counter_info*& info) {
  info = config.counters->catalogue->find(name);
  uint64_t n = 1;
  if (info != nullptr)
    for (const rc::dimension& dim : info->dimensions)
      n *= dim.size;
  return n;
}

}  // namespace

uint64_t native_value_count(const counter_config& config) {
  uint64_t total = 0;
  const rc::counter_info* info = nullptr;
  for (const std::string& name : config.native)
    total += values_of(config, name, info);
  return total;
}

bool evaluate_config(const counter_config& config, const double* values, uint64_t count,
                     std::vector<rocprofiler_counter_record_t>& out) {
  // Each native counter's values, row-major over its dimensions, one after another.
  std::unordered_map<std::string, rc::counter_value> collected;
  uint64_t at = 0;
  for (const std::string& name : config.native) {
    const rc::counter_info* info = nullptr;
    const uint64_t n = values_of(config, name, info);
    if (at + n > count) {
      warn_once("counting-short", "a backend returned fewer counter values than its set has");
      return false;
    }
    if (info == nullptr || info->dimensions.empty()) {
      collected.emplace(name, rc::counter_value::scalar(values[at]));
    } else {
      rc::result<rc::counter_value> tensor = rc::counter_value::tensor(
          info->dimensions, std::vector<double>(values + at, values + at + n));
      if (!tensor) return false;
      collected.emplace(name, std::move(tensor.value()));
    }
    at += n;
  }
  const rc::base_value_lookup lookup = [&](std::string_view name) -> const rc::counter_value* {
    const auto it = collected.find(std::string(name));
    return it == collected.end() ? nullptr : &it->second;
  };
  rc::result<std::vector<rc::counter_value>> evaluated =
      config.counters->catalogue->evaluate(config.names, lookup);
  if (!evaluated) {
    const std::string message = "counters could not be evaluated: " + evaluated.failure().message;
    warn_once("counting-evaluate", message.c_str());
    return false;
  }
  for (size_t c = 0; c < evaluated->size(); ++c) {
    const std::vector<double>& v = (*evaluated)[c].values();
    for (size_t j = 0; j < v.size(); ++j) {
      rocprofiler_counter_record_t r{};
      r.id = make_instance_id(config.counter_ids[c], j);
      r.counter_value = v[j];
      out.push_back(r);
    }
  }
  return true;
}

}  // namespace rocprof::core::counters
