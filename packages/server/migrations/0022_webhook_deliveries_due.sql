-- Issue 20: the dispatcher claims due deliveries per platform in bulk (webhooks/claim.ts); deliveries are their own
-- jobs, due at next_attempt_at while PENDING.
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("platform_id","next_attempt_at") WHERE "webhook_deliveries"."state" = 'PENDING';