ALTER TABLE "idempotency_keys" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "claimed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "effect_at" timestamp (3) with time zone;