-- Data views read by AMD's rocpd tooling (rocprofv3-facts §4.4). They use the plain-named views
-- and join on id and guid, so several databases can be unioned underneath them.

CREATE VIEW IF NOT EXISTS "code_objects" AS
SELECT CO.id, CO.guid, CO.nid, CO.pid, A.absolute_index AS agent_abs_index, CO.uri,
       CO.load_base, CO.load_size, CO.load_delta, CO.storage_type AS storage_type_str,
       JSON_EXTRACT(CO.extdata, '$.size') AS code_object_size,
       JSON_EXTRACT(CO.extdata, '$.storage_type') AS storage_type,
       JSON_EXTRACT(CO.extdata, '$.memory_base') AS memory_base,
       JSON_EXTRACT(CO.extdata, '$.memory_size') AS memory_size
FROM "rocpd_info_code_object" CO
LEFT JOIN "rocpd_info_agent" A ON A.id = CO.agent_id AND A.guid = CO.guid;

CREATE VIEW IF NOT EXISTS "kernel_symbols" AS
SELECT KS.id, KS.guid, KS.nid, KS.pid, KS.code_object_id, KS.kernel_name, KS.display_name,
       KS.kernel_object, KS.kernarg_segment_size, KS.kernarg_segment_alignment,
       KS.group_segment_size, KS.private_segment_size, KS.sgpr_count, KS.arch_vgpr_count,
       KS.accum_vgpr_count,
       JSON_EXTRACT(KS.extdata, '$.size') AS kernel_symbol_size,
       JSON_EXTRACT(KS.extdata, '$.kernel_id') AS kernel_id,
       JSON_EXTRACT(KS.extdata, '$.kernel_code_entry_byte_offset') AS kernel_code_entry_byte_offset,
       JSON_EXTRACT(KS.extdata, '$.formatted_kernel_name') AS formatted_kernel_name,
       JSON_EXTRACT(KS.extdata, '$.demangled_kernel_name') AS demangled_kernel_name,
       JSON_EXTRACT(KS.extdata, '$.truncated_kernel_name') AS truncated_kernel_name,
       JSON_EXTRACT(KS.extdata, '$.kernel_address.handle') AS kernel_address
FROM "rocpd_info_kernel_symbol" KS;

CREATE VIEW IF NOT EXISTS "processes" AS
SELECT N.id AS nid, N.machine_id, N.system_name, N.hostname, N.release AS system_release,
       N.version AS system_version, P.guid, P.ppid, P.pid, P.init, P.start, P.end, P.fini,
       P.command
FROM "rocpd_info_process" P
INNER JOIN "rocpd_info_node" N ON N.id = P.nid AND N.guid = P.guid;

CREATE VIEW IF NOT EXISTS "threads" AS
SELECT N.id AS nid, N.machine_id, N.system_name, N.hostname, N.release AS system_release,
       N.version AS system_version, T.guid, T.ppid, T.pid, T.tid, T.start, T.end, T.name
FROM "rocpd_info_thread" T
INNER JOIN "rocpd_info_node" N ON N.id = T.nid AND N.guid = T.guid;

CREATE VIEW IF NOT EXISTS "regions" AS
SELECT R.id, R.guid, C.string AS category, S.string AS name, R.nid, R.pid, R.tid, R.start,
       R.end, (R.end - R.start) AS duration, R.event_id, E.stack_id, E.parent_stack_id,
       E.correlation_id AS corr_id, E.extdata, E.call_stack, E.line_info
FROM "rocpd_region" R
INNER JOIN "rocpd_event" E ON E.id = R.event_id AND E.guid = R.guid
LEFT JOIN "rocpd_string" S ON S.id = R.name_id AND S.guid = R.guid
LEFT JOIN "rocpd_string" C ON C.id = E.category_id AND C.guid = E.guid;

CREATE VIEW IF NOT EXISTS "region_args" AS
SELECT R.id, R.guid, R.nid, R.pid, A.type, A.name, A.value
FROM "rocpd_region" R
INNER JOIN "rocpd_arg" A ON A.event_id = R.event_id AND A.guid = R.guid;

CREATE VIEW IF NOT EXISTS "samples" AS
SELECT R.id, R.guid, C.string AS category, S.string AS name, T.nid, T.pid, T.tid, R.timestamp,
       R.event_id, E.stack_id, E.parent_stack_id, E.correlation_id AS corr_id, E.extdata,
       E.call_stack, E.line_info
FROM "rocpd_sample" R
INNER JOIN "rocpd_track" T ON T.id = R.track_id AND T.guid = R.guid
INNER JOIN "rocpd_event" E ON E.id = R.event_id AND E.guid = R.guid
LEFT JOIN "rocpd_string" S ON S.id = T.name_id AND S.guid = T.guid
LEFT JOIN "rocpd_string" C ON C.id = E.category_id AND C.guid = E.guid;

CREATE VIEW IF NOT EXISTS "sample_regions" AS
SELECT id, guid, category, name, nid, pid, tid, timestamp AS start, timestamp AS end,
       0 AS duration, event_id, stack_id, parent_stack_id, corr_id, extdata, call_stack,
       line_info
FROM "samples";

CREATE VIEW IF NOT EXISTS "regions_and_samples" AS
SELECT * FROM "regions"
UNION ALL
SELECT * FROM "sample_regions";

CREATE VIEW IF NOT EXISTS "events_args" AS
SELECT E.id AS event_id, C.string AS category, E.stack_id, E.parent_stack_id, E.correlation_id,
       A.position AS arg_position, A.type AS arg_type, A.name AS arg_name, A.value AS arg_value,
       E.call_stack, E.line_info, E.extdata
FROM "rocpd_event" E
INNER JOIN "rocpd_arg" A ON A.event_id = E.id AND A.guid = E.guid
LEFT JOIN "rocpd_string" C ON C.id = E.category_id AND C.guid = E.guid;

CREATE VIEW IF NOT EXISTS "stream_args" AS
SELECT A.id AS argument_id, A.event_id, A.position AS arg_position, A.type AS arg_type,
       A.value AS arg_value, JSON_EXTRACT(A.extdata, '$.stream_id') AS stream_id, S.nid, S.pid,
       S.name AS stream_name, A.extdata
FROM "rocpd_arg" A
INNER JOIN "rocpd_info_stream" S
        ON S.id = JSON_EXTRACT(A.extdata, '$.stream_id') AND S.guid = A.guid
WHERE A.name = 'stream';

CREATE VIEW IF NOT EXISTS "kernels" AS
SELECT K.id, K.guid, K.tid, C.string AS category, RG.string AS region, KS.display_name AS name,
       K.nid, K.pid, A.absolute_index AS agent_abs_index, A.logical_index AS agent_log_index,
       A.type_index AS agent_type_index, A.type AS agent_type, KS.code_object_id, K.kernel_id,
       K.dispatch_id, K.stream_id, K.queue_id, Q.name AS queue, ST.name AS stream, K.start, K.end,
       (K.end - K.start) AS duration, K.grid_size_x AS grid_x, K.grid_size_y AS grid_y,
       K.grid_size_z AS grid_z, K.workgroup_size_x AS workgroup_x,
       K.workgroup_size_y AS workgroup_y, K.workgroup_size_z AS workgroup_z,
       K.group_segment_size AS lds_size, K.private_segment_size AS scratch_size,
       KS.arch_vgpr_count AS vgpr_count, KS.accum_vgpr_count, KS.sgpr_count,
       KS.group_segment_size AS static_lds_size, KS.private_segment_size AS static_scratch_size,
       E.stack_id, E.parent_stack_id, E.correlation_id AS corr_id
FROM "rocpd_kernel_dispatch" K
LEFT JOIN "rocpd_info_agent" A ON A.id = K.agent_id AND A.guid = K.guid
LEFT JOIN "rocpd_info_kernel_symbol" KS ON KS.id = K.kernel_id AND KS.guid = K.guid
LEFT JOIN "rocpd_event" E ON E.id = K.event_id AND E.guid = K.guid
LEFT JOIN "rocpd_string" C ON C.id = E.category_id AND C.guid = E.guid
LEFT JOIN "rocpd_string" RG ON RG.id = K.region_name_id AND RG.guid = K.guid
LEFT JOIN "rocpd_info_queue" Q ON Q.id = K.queue_id AND Q.guid = K.guid
LEFT JOIN "rocpd_info_stream" ST ON ST.id = K.stream_id AND ST.guid = K.guid;

CREATE VIEW IF NOT EXISTS "memory_copies" AS
SELECT M.id, M.guid, C.string AS category, M.nid, M.pid, M.tid, M.start, M.end,
       (M.end - M.start) AS duration, S.string AS name, RG.string AS region_name, M.stream_id,
       M.queue_id, ST.name AS stream_name, Q.name AS queue_name, M.size,
       DA.name AS dst_device, DA.absolute_index AS dst_agent_abs_index,
       DA.logical_index AS dst_agent_log_index, DA.type_index AS dst_agent_type_index,
       DA.type AS dst_agent_type, M.dst_address,
       SA.name AS src_device, SA.absolute_index AS src_agent_abs_index,
       SA.logical_index AS src_agent_log_index, SA.type_index AS src_agent_type_index,
       SA.type AS src_agent_type, M.src_address,
       E.stack_id, E.parent_stack_id, E.correlation_id AS corr_id
FROM "rocpd_memory_copy" M
LEFT JOIN "rocpd_string" S ON S.id = M.name_id AND S.guid = M.guid
LEFT JOIN "rocpd_string" RG ON RG.id = M.region_name_id AND RG.guid = M.guid
LEFT JOIN "rocpd_event" E ON E.id = M.event_id AND E.guid = M.guid
LEFT JOIN "rocpd_string" C ON C.id = E.category_id AND C.guid = E.guid
LEFT JOIN "rocpd_info_agent" DA ON DA.id = M.dst_agent_id AND DA.guid = M.guid
LEFT JOIN "rocpd_info_agent" SA ON SA.id = M.src_agent_id AND SA.guid = M.guid
LEFT JOIN "rocpd_info_queue" Q ON Q.id = M.queue_id AND Q.guid = M.guid
LEFT JOIN "rocpd_info_stream" ST ON ST.id = M.stream_id AND ST.guid = M.guid;

-- Real and virtual allocations (scratch rows have their own view below).
CREATE VIEW IF NOT EXISTS "memory_allocations" AS
SELECT M.id, M.guid, C.string AS category, M.nid, M.pid, M.tid, M.start, M.end,
       (M.end - M.start) AS duration, M.type, M.level, A.name AS agent_name,
       A.absolute_index AS agent_abs_index, A.logical_index AS agent_log_index,
       A.type_index AS agent_type_index, A.type AS agent_type, M.address, M.size, M.queue_id,
       Q.name AS queue_name, M.stream_id, ST.name AS stream_name, E.stack_id,
       E.parent_stack_id, E.correlation_id AS corr_id
FROM "rocpd_memory_allocate" M
LEFT JOIN "rocpd_info_agent" A ON A.id = M.agent_id AND A.guid = M.guid
LEFT JOIN "rocpd_event" E ON E.id = M.event_id AND E.guid = M.guid
LEFT JOIN "rocpd_string" C ON C.id = E.category_id AND C.guid = E.guid
LEFT JOIN "rocpd_info_queue" Q ON Q.id = M.queue_id AND Q.guid = M.guid
LEFT JOIN "rocpd_info_stream" ST ON ST.id = M.stream_id AND ST.guid = M.guid
WHERE M.level != 'SCRATCH';

CREATE VIEW IF NOT EXISTS "scratch_memory" AS
SELECT M.id, M.guid, M.nid, M.pid, M.type AS operation, A.name AS agent_name,
       A.absolute_index AS agent_abs_index, A.logical_index AS agent_log_index,
       A.type_index AS agent_type_index, A.type AS agent_type, M.queue_id, M.tid,
       JSON_EXTRACT(M.extdata, '$.flags') AS alloc_flags, M.start, M.end,
       (M.end - M.start) AS duration, M.size, M.address, E.correlation_id, E.stack_id,
       E.parent_stack_id, E.correlation_id AS corr_id, C.string AS category,
       E.extdata AS event_extdata
FROM "rocpd_memory_allocate" M
LEFT JOIN "rocpd_info_agent" A ON A.id = M.agent_id AND A.guid = M.guid
LEFT JOIN "rocpd_event" E ON E.id = M.event_id AND E.guid = M.guid
LEFT JOIN "rocpd_string" C ON C.id = E.category_id AND C.guid = E.guid
WHERE M.level = 'SCRATCH'
ORDER BY M.start;

CREATE VIEW IF NOT EXISTS "pmc_info" AS
SELECT P.id, P.guid, P.nid, P.pid, A.absolute_index AS agent_abs_index, P.is_constant,
       P.is_derived, P.name, P.description, P.block, P.expression
FROM "rocpd_info_pmc" P
LEFT JOIN "rocpd_info_agent" A ON A.id = P.agent_id AND A.guid = P.guid;

CREATE VIEW IF NOT EXISTS "pmc_events" AS
SELECT PE.id, PE.guid, PE.pmc_id, PE.event_id, C.string AS category, KS.display_name AS name,
       K.nid, K.pid, K.dispatch_id, K.start, K.end, (K.end - K.start) AS duration,
       P.name AS counter_name, PE.value AS counter_value
FROM "rocpd_pmc_event" PE
INNER JOIN "rocpd_info_pmc" P ON P.id = PE.pmc_id AND P.guid = PE.guid
LEFT JOIN "rocpd_event" E ON E.id = PE.event_id AND E.guid = PE.guid
LEFT JOIN "rocpd_string" C ON C.id = E.category_id AND C.guid = E.guid
LEFT JOIN "rocpd_kernel_dispatch" K ON K.event_id = PE.event_id AND K.guid = PE.guid
LEFT JOIN "rocpd_info_kernel_symbol" KS ON KS.id = K.kernel_id AND KS.guid = K.guid;

CREATE VIEW IF NOT EXISTS "counters_collection" AS
SELECT MIN(PE.id) AS id, PE.guid, K.dispatch_id, K.kernel_id, E.id AS event_id,
       E.correlation_id, E.stack_id, E.parent_stack_id, K.pid, K.tid, K.agent_id,
       A.absolute_index AS agent_abs_index, A.logical_index AS agent_log_index,
       A.type_index AS agent_type_index, A.type AS agent_type, K.queue_id, K.grid_size_x,
       K.grid_size_y, K.grid_size_z, (K.grid_size_x * K.grid_size_y * K.grid_size_z) AS grid_size,
       KS.display_name AS kernel_name, RG.string AS kernel_region, K.workgroup_size_x,
       K.workgroup_size_y, K.workgroup_size_z,
       (K.workgroup_size_x * K.workgroup_size_y * K.workgroup_size_z) AS workgroup_size,
       K.group_segment_size AS lds_block_size, K.private_segment_size AS scratch_size,
       KS.arch_vgpr_count AS vgpr_count, KS.accum_vgpr_count, KS.sgpr_count,
       P.name AS counter_name, P.symbol AS counter_symbol, P.component, P.description,
       P.block, P.expression, P.value_type, P.id AS counter_id, SUM(PE.value) AS value,
       K.start, K.end, P.is_constant, P.is_derived, (K.end - K.start) AS duration,
       C.string AS category, K.nid, E.extdata, KS.code_object_id
FROM "rocpd_pmc_event" PE
INNER JOIN "rocpd_info_pmc" P ON P.id = PE.pmc_id AND P.guid = PE.guid
INNER JOIN "rocpd_event" E ON E.id = PE.event_id AND E.guid = PE.guid
INNER JOIN "rocpd_kernel_dispatch" K ON K.event_id = PE.event_id AND K.guid = PE.guid
LEFT JOIN "rocpd_info_agent" A ON A.id = K.agent_id AND A.guid = K.guid
LEFT JOIN "rocpd_info_kernel_symbol" KS ON KS.id = K.kernel_id AND KS.guid = K.guid
LEFT JOIN "rocpd_string" RG ON RG.id = K.region_name_id AND RG.guid = K.guid
LEFT JOIN "rocpd_string" C ON C.id = E.category_id AND C.guid = E.guid
GROUP BY PE.guid, K.dispatch_id, P.name, K.agent_id;

-- Extension: PC samples with their strings, agent and kernel (rocpd_pc_sample). kernel_name is
-- the symbol's display name, as in the kernels view.
CREATE VIEW IF NOT EXISTS "pc_samples" AS
SELECT P.id, P.guid, P.nid, P.pid, P.method, A.name AS agent_name,
       A.absolute_index AS agent_abs_index, A.logical_index AS agent_log_index,
       A.type_index AS agent_type_index, P.dispatch_id, P.kernel_id,
       KS.display_name AS kernel_name, P.correlation_id, P.code_object_id, P.code_object_offset,
       P.timestamp, P.exec_mask, P.wave_count, P.wave_issued, P.sample_count, P.not_issued_count,
       IT.string AS instruction_type, SR.string AS stall_reason,
       VS.string AS vendor_stall_reason, INS.string AS instruction, CM.string AS comment,
       P.extdata
FROM "rocpd_pc_sample" P
LEFT JOIN "rocpd_info_agent" A ON A.id = P.agent_id AND A.guid = P.guid
LEFT JOIN "rocpd_info_kernel_symbol" KS ON KS.id = P.kernel_id AND KS.guid = P.guid
LEFT JOIN "rocpd_string" IT ON IT.id = P.instruction_type_id AND IT.guid = P.guid
LEFT JOIN "rocpd_string" SR ON SR.id = P.stall_reason_id AND SR.guid = P.guid
LEFT JOIN "rocpd_string" VS ON VS.id = P.vendor_stall_reason_id AND VS.guid = P.guid
LEFT JOIN "rocpd_string" INS ON INS.id = P.instruction_id AND INS.guid = P.guid
LEFT JOIN "rocpd_string" CM ON CM.id = P.comment_id AND CM.guid = P.guid;
