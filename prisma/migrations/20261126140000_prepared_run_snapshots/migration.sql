-- Run snapshots become the engine's PreparedRun ("weft.run/1"): the workflow and resolved settings as
-- before, plus the input contents (until now read from the request) and the run's concurrency.
UPDATE "Run"
SET "snapshot" = jsonb_build_object(
  'format', 'weft.run/1',
  'workflow', "snapshot"->'workflow',
  'settings', "snapshot"->'settings',
  'inputs', CASE WHEN jsonb_typeof("request"->'inputs') = 'object' THEN "request"->'inputs' ELSE '{}'::jsonb END,
  'concurrency', "snapshot"->'options'->'concurrency'
)
WHERE "snapshot"->>'version' = '1' AND "snapshot" ? 'workflow' AND "snapshot" ? 'settings';
