-- Extension (--kernel-host-callstack; docs/user-guide.md "Host call stacks of kernel launches"):
-- the host call stack of each kernel dispatch's launch, one row per frame, innermost first
-- (depth 0 is the CUDA call the application made). Created only in databases of runs that
-- recorded stacks. dispatch_id is rocpd_kernel_dispatch.id, correlation_id the launch call's
-- internal correlation id, callstack_id the same for every dispatch launched from one stack.
-- A frame without debug information has file_id of the empty string and line NULL; function_id
-- then names its ELF symbol.
CREATE TABLE IF NOT EXISTS "rocpd_kernel_callstack{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT DEFAULT "{{guid}}" NOT NULL,
    "nid" INTEGER NOT NULL,
    "pid" INTEGER NOT NULL,
    "dispatch_id" INTEGER NOT NULL,
    "correlation_id" INTEGER NOT NULL,
    "callstack_id" INTEGER NOT NULL,
    "depth" INTEGER NOT NULL,
    "address" INTEGER NOT NULL,
    "function_id" INTEGER NOT NULL,
    "file_id" INTEGER NOT NULL,
    "line" INTEGER,
    "module_id" INTEGER NOT NULL,
    FOREIGN KEY (nid) REFERENCES "rocpd_info_node{{uuid}}" (id) ON UPDATE CASCADE,
    FOREIGN KEY (pid) REFERENCES "rocpd_info_process{{uuid}}" (id) ON UPDATE CASCADE,
    FOREIGN KEY (function_id) REFERENCES "rocpd_string{{uuid}}" (id) ON UPDATE CASCADE,
    FOREIGN KEY (file_id) REFERENCES "rocpd_string{{uuid}}" (id) ON UPDATE CASCADE,
    FOREIGN KEY (module_id) REFERENCES "rocpd_string{{uuid}}" (id) ON UPDATE CASCADE
);

CREATE VIEW IF NOT EXISTS "rocpd_kernel_callstack" AS
SELECT * FROM "rocpd_kernel_callstack{{uuid}}";

-- Each frame with its strings and the dispatch's kernel name.
CREATE VIEW IF NOT EXISTS "kernel_callstacks" AS
SELECT C.id, C.guid, C.nid, C.pid, C.dispatch_id, C.correlation_id, C.callstack_id,
       KS.kernel_name, C.depth, C.address, F.string AS function, FL.string AS file, C.line,
       M.string AS module
FROM "rocpd_kernel_callstack" C
LEFT JOIN "rocpd_kernel_dispatch" K ON K.id = C.dispatch_id AND K.guid = C.guid
LEFT JOIN "rocpd_info_kernel_symbol" KS ON KS.id = K.kernel_id AND KS.guid = K.guid
LEFT JOIN "rocpd_string" F ON F.id = C.function_id AND F.guid = C.guid
LEFT JOIN "rocpd_string" FL ON FL.id = C.file_id AND FL.guid = C.guid
LEFT JOIN "rocpd_string" M ON M.id = C.module_id AND M.guid = C.guid;
