-- Summary views (rocprofv3-facts §4.4). Durations in microseconds.

CREATE VIEW IF NOT EXISTS "top_kernels" AS
SELECT name, COUNT(*) AS total_calls, SUM(duration) / 1000.0 AS total_duration,
       AVG(duration) / 1000.0 AS average,
       SUM(duration) * 100.0 / (SELECT SUM(duration) FROM "kernels") AS percentage
FROM "kernels"
GROUP BY name
ORDER BY total_duration DESC;

-- GPU busy time per agent: kernels plus copies (copies counted on the destination agent).
CREATE VIEW IF NOT EXISTS "busy" AS
SELECT W.agent_id, A.type, SUM(W.duration) AS GpuTime,
       (SELECT MAX(end) - MIN(start) FROM (
            SELECT start, end FROM "rocpd_kernel_dispatch"
            UNION ALL SELECT start, end FROM "rocpd_memory_copy")) AS WallTime,
       SUM(W.duration) * 1.0 / (SELECT MAX(end) - MIN(start) FROM (
            SELECT start, end FROM "rocpd_kernel_dispatch"
            UNION ALL SELECT start, end FROM "rocpd_memory_copy")) AS Busy
FROM (
    SELECT agent_id, guid, (end - start) AS duration FROM "rocpd_kernel_dispatch"
    UNION ALL
    SELECT dst_agent_id AS agent_id, guid, (end - start) AS duration FROM "rocpd_memory_copy"
) W
LEFT JOIN "rocpd_info_agent" A ON A.id = W.agent_id AND A.guid = W.guid
GROUP BY W.agent_id, W.guid;

CREATE VIEW IF NOT EXISTS "top" AS
SELECT name, COUNT(*) AS total_calls, SUM(duration) / 1000.0 AS total_duration,
       AVG(duration) / 1000.0 AS average,
       SUM(duration) * 100.0 / (SELECT SUM(duration) FROM (
            SELECT duration FROM "kernels"
            UNION ALL SELECT duration FROM "memory_copies"
            UNION ALL SELECT duration FROM "regions")) AS percentage
FROM (
    SELECT name, duration FROM "kernels"
    UNION ALL SELECT name, duration FROM "memory_copies"
    UNION ALL SELECT name, duration FROM "regions"
)
GROUP BY name
ORDER BY total_duration DESC;
