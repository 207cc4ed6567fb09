-- Issue 22: GET /events and GET /webhooks/deliveries filter by event type (one or several) within a platform,
-- newest first by (created_at, id); this index serves the filter and the order together.
CREATE INDEX IF NOT EXISTS "webhook_events_platform_type_idx" ON "webhook_events" USING btree ("platform_id","type","created_at","id");
