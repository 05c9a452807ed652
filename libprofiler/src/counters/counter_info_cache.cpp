#include "counters/counter_info_cache.hpp"

#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "counters/instance_id.hpp"

namespace rocprof::core::counters {

struct counter_description {
  const rc::counter_info* source = nullptr;  // what it was built from
  uint64_t id = 0;
  std::string name, description, block, expression;
  bool is_constant = false, is_derived = false;
  std::deque<std::string> dimension_names;  // deque: the c_str()s stay put
  std::vector<rocprofiler_counter_record_dimension_info_t> dims;
  std::vector<const rocprofiler_counter_record_dimension_info_t*> dim_pointers;
  std::vector<uint64_t> sizes, ids;
  // One entry per instance: its position in each dimension.
  std::vector<rocprofiler_counter_dimension_info_t> positions;
  std::vector<const rocprofiler_counter_dimension_info_t*> position_pointers;
  std::vector<rocprofiler_counter_record_dimension_instance_info_t> instances;
  std::vector<const rocprofiler_counter_record_dimension_instance_info_t*> instance_pointers;
};

std::vector<rc::dimension> reported_dimensions(const rc::counter_info& info) {
  if (!info.dimensions.empty()) return info.dimensions;
  return {rc::dimension{std::string(rc::scalar_dimension_name), 1}};
}

namespace {

void build(counter_description& d, const rc::counter_info& info) {
  d.source = &info;
  d.id = info.id;
  d.name = info.name;
  d.description = info.description;
  d.block = info.block;
  d.expression = info.expression;
  d.is_constant = info.is_constant;
  d.is_derived = info.is_derived;
  uint64_t instances = 1;
  for (const rc::dimension& dim : reported_dimensions(info)) {
    d.dimension_names.push_back(dim.name);
    d.sizes.push_back(dim.size);
    d.ids.push_back(counter_store::get().dimension_id(dim.name));
    instances *= dim.size;
  }
  for (size_t i = 0; i < d.sizes.size(); ++i)
    d.dims.push_back({d.dimension_names[i].c_str(), d.sizes[i], d.ids[i]});
  for (const auto& dim : d.dims)
    d.dim_pointers.push_back(&dim);
  // Every instance's positions first (the vectors must not move once pointed into).
  d.positions.reserve(instances * d.sizes.size());
  for (uint64_t flat = 0; flat < instances; ++flat)
    for (size_t i = 0; i < d.sizes.size(); ++i)
      d.positions.push_back({sizeof(rocprofiler_counter_dimension_info_t),
                             d.dimension_names[i].c_str(),
                             position_in_dimension(flat, d.sizes, i)});
  for (const auto& p : d.positions)
    d.position_pointers.push_back(&p);
  d.instances.reserve(instances);
  for (uint64_t flat = 0; flat < instances; ++flat)
    d.instances.push_back({sizeof(rocprofiler_counter_record_dimension_instance_info_t),
                           make_instance_id(d.id, flat), d.id, d.sizes.size(),
                           d.position_pointers.data() + flat * d.sizes.size()});
  for (const auto& inst : d.instances)
    d.instance_pointers.push_back(&inst);
}

struct description_cache {
  std::mutex mutex;
  std::unordered_map<uint64_t, counter_description*> latest;
  // Descriptions replaced by a newer definition: kept (tools may hold them), and reachable, so
  // that a leak checker tells them from real leaks.
  std::vector<counter_description*> replaced;
};

description_cache& cache() {
  static auto* c = new description_cache();  // never freed: tools keep its pointers
  return *c;
}

}  // namespace

const counter_description* describe(uint64_t counter_id) {
  counter_ref ref;
  if (!counter_store::get().find(counter_id, ref)) return nullptr;
  description_cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  counter_description*& slot = c.latest[counter_id];
  if (slot == nullptr || slot->source != ref.info) {
    auto* d = new counter_description();  // the previous one stays valid (tools may hold it)
    build(*d, *ref.info);
    if (slot != nullptr) c.replaced.push_back(slot);
    slot = d;
  }
  return slot;
}

namespace {

// The fields versions 0 and 1 share.
template <typename Info>
void fill_common(const counter_description& d, Info& out) {
  out.id.handle = d.id;
  out.name = d.name.c_str();
  out.description = d.description.c_str();
  out.block = d.block.c_str();
  out.expression = d.expression.c_str();
  out.is_constant = d.is_constant ? 1u : 0u;
  out.is_derived = d.is_derived ? 1u : 0u;
}

}  // namespace

void fill_v0(const counter_description& d, rocprofiler_counter_info_v0_t& out) {
  fill_common(d, out);
}

void fill_v1(const counter_description& d, rocprofiler_counter_info_v1_t& out) {
  out.size = sizeof(rocprofiler_counter_info_v1_t);
  fill_common(d, out);
  out.dimensions_count = d.dim_pointers.size();
  // The struct's pointer arrays are not const-qualified (rocprofiler-sdk's layout); the tool
  // only reads them.
  out.dimensions =
      const_cast<const rocprofiler_counter_record_dimension_info_t**>(d.dim_pointers.data());
  out.dimensions_instances_count = d.instance_pointers.size();
  out.dimensions_instances =
      const_cast<const rocprofiler_counter_record_dimension_instance_info_t**>(
          d.instance_pointers.data());
}

const rocprofiler_counter_record_dimension_info_t* dimensions_of(const counter_description& d,
                                                                 size_t& count) {
  count = d.dims.size();
  return d.dims.data();
}

const std::vector<uint64_t>& dimension_sizes(const counter_description& d) {
  return d.sizes;
}

const std::vector<uint64_t>& dimension_ids(const counter_description& d) {
  return d.ids;
}

}  // namespace rocprof::core::counters
