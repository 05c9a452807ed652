// OTF2 writer: one write() per record kind. Each record becomes one interval (region, category)
// on its location, kept in the interval store until finish(); counter values and device counter
// samples become metric samples. Marks and scratch memory are not written, as in rocprofv3.
#include <algorithm>

#include "common/number_format.hpp"
#include "otf2/otf2_writer_impl.hpp"

namespace rocprof::trace::otf2 {

void otf2_writer::write(record_span<api_record> records) {
  if (!began_) return;
  for (const api_record& r : records) {
    const bool marker = r.domain == api_domain::marker_core_range ||
                        r.domain == api_domain::marker_control ||
                        r.domain == api_domain::marker_name;
    // Marks (instants) have no Enter/Leave form; rocprofv3 skips them too (§7). Their thread
    // still gets its location: an archive of marks alone must have one to be readable.
    if (r.domain == api_domain::marker_core_range && r.start_ns == r.end_ns) {
      location_of({location_kind::thread, r.tid, 0, 0});
      continue;
    }
    const bool cuda = r.domain == api_domain::cuda_runtime || r.domain == api_domain::cuda_driver;
    const OTF2_Paradigm paradigm = marker || r.domain == api_domain::rocdecode
                                       ? OTF2_PARADIGM_USER
                                       : (cuda ? OTF2_PARADIGM_CUDA : OTF2_PARADIGM_HIP);
    const string_id name = marker && r.message != empty_string ? r.message : r.operation;
    const uint32_t reg = region(defs_->str(name), OTF2_REGION_ROLE_FUNCTION, paradigm);
    add({location_kind::thread, r.tid, 0, 0}, r.start_ns, r.end_ns, reg,
        domain_category_[static_cast<size_t>(r.domain)]);
  }
}

void otf2_writer::write(record_span<kernel_dispatch_record> records) {
  if (!began_) return;
  const uint32_t category = string_ref("kernel_dispatch");
  for (const kernel_dispatch_record& r : records) {
    // Kernel regions are rename-aware in OTF2 (§7): the enclosing range's message with
    // --kernel-rename, else the display name the -M/-T options produced.
    std::string_view name = kernel_names_->name(r);
    if (name.empty()) name = "<unknown kernel>";
    const uint32_t reg = region(name, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_HIP);
    add({location_kind::compute, r.tid, r.agent_id, r.queue_id}, r.start_ns, r.end_ns, reg,
        category);
    if (!defs_->counters.empty())
      dispatch_ends_[r.dispatch_id] = {std::max(r.start_ns, r.end_ns), r.agent_id};
  }
}

void otf2_writer::write(record_span<memory_copy_record> records) {
  if (!began_) return;
  const uint32_t category = string_ref("memory_copy");
  for (const memory_copy_record& r : records) {
    const uint32_t reg = region(formats::copy_direction_name(r.direction),
                                OTF2_REGION_ROLE_DATA_TRANSFER, OTF2_PARADIGM_HIP);
    add({location_kind::copy, r.tid, r.dst_agent_id, 0}, r.start_ns, r.end_ns, reg, category);
  }
}

void otf2_writer::write(record_span<memory_set_record> records) {
  if (!began_) return;
  const uint32_t category = string_ref("memory_copy");
  for (const memory_set_record& r : records) {
    const uint32_t reg = region("MEMORY_SET", OTF2_REGION_ROLE_DATA_TRANSFER, OTF2_PARADIGM_HIP);
    add({location_kind::memory_set, r.tid, r.agent_id, 0}, r.start_ns, r.end_ns, reg, category);
  }
}

void otf2_writer::write(record_span<memory_allocation_record> records) {
  if (!began_) return;
  const uint32_t category = string_ref("memory_allocation");
  for (const memory_allocation_record& r : records) {
    std::string_view name = "MEMORY_ALLOCATION_NONE";
    OTF2_RegionRole role = OTF2_REGION_ROLE_ALLOCATE;
    switch (r.operation) {
      case memory_allocation_operation::allocate:
        name = "MEMORY_ALLOCATION_ALLOCATE";
        break;
      case memory_allocation_operation::vmem_allocate:
        name = "MEMORY_ALLOCATION_VMEM_ALLOCATE";
        break;
      case memory_allocation_operation::free:
        name = "MEMORY_ALLOCATION_FREE";
        role = OTF2_REGION_ROLE_DEALLOCATE;
        break;
      case memory_allocation_operation::vmem_free:
        name = "MEMORY_ALLOCATION_VMEM_FREE";
        role = OTF2_REGION_ROLE_DEALLOCATE;
        break;
      case memory_allocation_operation::none:
        break;
    }
    const uint32_t reg = region(name, role, OTF2_PARADIGM_HIP);
    add({location_kind::allocation, r.tid, r.agent_id, 0}, r.start_ns, r.end_ns, reg, category);
  }
}

void otf2_writer::write(record_span<counter_value_record> records) {
  if (!began_) return;
  // Resolved in finish(): a value may arrive before its dispatch.
  counter_values_.insert(counter_values_.end(), records.begin(), records.end());
}

// Where a counted dispatch's values go in time, when the kernel itself is not traced (the kernel
// trace's record, when present, says the same).
void otf2_writer::write(record_span<counter_dispatch_record> records) {
  for (const counter_dispatch_record& r : records) {
    const auto& d = r.dispatch;
    dispatch_ends_.emplace(d.dispatch_id,
                           std::make_pair(std::max(d.start_ns, d.end_ns), d.agent_id));
  }
}

void otf2_writer::write(record_span<device_counter_sample_record> records) {
  if (!began_) return;
  for (const device_counter_sample_record& s : records) {
    samples_by_agent_[s.agent_id].push_back({s.timestamp_ns, metric_of(s.counter_id), s.value});
    min_ts_ = std::min(min_ts_, s.timestamp_ns);
    max_ts_ = std::max(max_ts_, s.timestamp_ns);
  }
}

}  // namespace rocprof::trace::otf2
