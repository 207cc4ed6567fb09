-- Issue 21: the hosted StablecoinMintRequest/StablecoinBurnRequest `description`, echoed on the operation.
ALTER TABLE "stablecoin_operations" ADD COLUMN "description" text;
--> statement-breakpoint
-- Issue 21 §2: a customer's TOTP factor (RFC 6238). `secret` is sealed (purpose sca-totp-secret);
-- `last_step` refuses a code's reuse; `recovery_codes` are SHA-256 digests of the unused codes.
CREATE TABLE "sca_totp_factors" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL REFERENCES "platforms"("id"),
	"customer_id" text NOT NULL REFERENCES "customers"("id"),
	"secret" text NOT NULL,
	"status" text NOT NULL,
	"last_step" bigint,
	"recovery_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"confirmed_at" timestamp (3) with time zone,
	"deleted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sca_totp_factors_one_active_key" ON "sca_totp_factors" USING btree ("customer_id") WHERE "status" = 'ACTIVE' AND "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "sca_totp_factors_customer_idx" ON "sca_totp_factors" USING btree ("customer_id", "created_at");
--> statement-breakpoint
-- Issue 21 §2: two-factor resets; identity is proven on the hosted verification page (token digest kept).
CREATE TABLE "sca_factor_resets" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL REFERENCES "platforms"("id"),
	"customer_id" text NOT NULL REFERENCES "customers"("id"),
	"factor" text NOT NULL,
	"status" text NOT NULL,
	"token_hash" text NOT NULL,
	"enrollment_status" text,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"liveness_at" timestamp (3) with time zone,
	"completed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sca_factor_resets_customer_idx" ON "sca_factor_resets" USING btree ("customer_id", "created_at");
