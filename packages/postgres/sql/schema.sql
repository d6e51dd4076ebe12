-- The table of @ringhook/postgres: one row per delivery key.
-- migrate(pool, { table }) runs this file with `ringhook_dedup` replaced by the table's name;
-- run it yourself (psql -f, or your migration tool) if you prefer. Safe to run again.

CREATE TABLE IF NOT EXISTS ringhook_dedup (
  -- The receiver's delivery key (at most 256 characters), or a job's idempotency key; a key with a
  -- NUL or over 2 KiB is written as its SHA-256 (sha256:<hex>).
  key text PRIMARY KEY,
  -- The claim's owner: complete and release act only with it.
  token text NOT NULL,
  -- The reply the delivery got, once completed; NULL while it is in flight.
  status smallint,
  body text,
  -- When the claim lapses (in flight) or the delivery is forgotten (completed).
  expires_at timestamptz NOT NULL,
  -- Set while an inbox handler's commit waits for the receiver's reply: until then copies get 409.
  reply_due timestamptz
);

-- Finds expired rows for the stores' opportunistic sweep.
CREATE INDEX IF NOT EXISTS ringhook_dedup_expires_at ON ringhook_dedup (expires_at);

-- Captured deliveries, when a receiver records them with postgresCaptureSink (createCapture from
-- @ringhook/core/capture): one row per delivery, the whole record in `record`, the columns to find
-- it by beside it. Always this name (the sink's `table` option names another you create yourself).
CREATE TABLE IF NOT EXISTS ringhook_captures (
  id text PRIMARY KEY,
  received_at timestamptz NOT NULL,
  event text,
  outcome text NOT NULL,
  code text,
  record jsonb NOT NULL
);

CREATE INDEX IF NOT EXISTS ringhook_captures_received_at ON ringhook_captures (received_at);
