-- Created after the bulk load (cheaper than maintaining them row by row). Joins of the views go
-- through primary keys, except these.
CREATE INDEX IF NOT EXISTS "rocpd_pmc_event_event_id{{uuid}}" ON "rocpd_pmc_event{{uuid}}" ("event_id");
CREATE INDEX IF NOT EXISTS "rocpd_kernel_dispatch_event_id{{uuid}}" ON "rocpd_kernel_dispatch{{uuid}}" ("event_id");
CREATE INDEX IF NOT EXISTS "rocpd_arg_event_id{{uuid}}" ON "rocpd_arg{{uuid}}" ("event_id");
