-- Run snapshots become the engine's PreparedRun ("weft.run/1"): the workflow and resolved settings as
-- before, plus the input contents (until now read from the request), the run's concurrency, no initial
-- state, and the invocation budget prepareRun gives a workflow without limits (1000, or its node count).
UPDATE "Run"
SET "snapshot" = jsonb_build_object(
  'format', 'weft.run/1',
  'workflow', "snapshot"->'workflow',
  'settings', "snapshot"->'settings',
  'inputs', CASE WHEN jsonb_typeof("request"->'inputs') = 'object' THEN "request"->'inputs' ELSE '{}'::jsonb END,
  'state', '{}'::jsonb,
  'concurrency', "snapshot"->'options'->'concurrency',
  'maxInvocations', GREATEST(1000, jsonb_array_length(COALESCE("snapshot"->'workflow'->'nodes', '[]'::jsonb)))
)
WHERE "snapshot"->>'version' = '1' AND "snapshot" ? 'workflow' AND "snapshot" ? 'settings';
