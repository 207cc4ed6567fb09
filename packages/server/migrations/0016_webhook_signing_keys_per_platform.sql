-- Signing keys belong to one platform (issue 16). The deployment-wide keys that have signed are copied to
-- every existing platform and retired now: receivers with a cached key set keep verifying what they
-- signed, the copies stay listed 8 days (conventions §7.2), and nothing signs with a shared key again.
-- Each existing platform gets its own first key, signing at once, on its next delivery or key listing
-- (src/webhooks/signing-keys.ts): SQL cannot make a P-256 key pair.
ALTER TABLE "webhook_signing_keys" ADD COLUMN "platform_id" text;--> statement-breakpoint
ALTER TABLE "webhook_signing_keys" DROP CONSTRAINT "webhook_signing_keys_pkey";--> statement-breakpoint
INSERT INTO "webhook_signing_keys" ("platform_id", "kid", "public_jwk", "private_jwk", "signs_from", "retires_at", "created_at")
SELECT p."id", k."kid", k."public_jwk", k."private_jwk", k."signs_from",
       CASE WHEN k."retires_at" IS NULL OR k."retires_at" > now() THEN now() ELSE k."retires_at" END, k."created_at"
FROM "webhook_signing_keys" k CROSS JOIN "platforms" p
WHERE k."platform_id" IS NULL AND k."signs_from" <= now()
  AND (k."retires_at" IS NULL OR k."retires_at" > now() - interval '8 days');--> statement-breakpoint
DELETE FROM "webhook_signing_keys" WHERE "platform_id" IS NULL;--> statement-breakpoint
ALTER TABLE "webhook_signing_keys" ALTER COLUMN "platform_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_signing_keys" ADD CONSTRAINT "webhook_signing_keys_platform_id_kid_pk" PRIMARY KEY("platform_id","kid");--> statement-breakpoint
ALTER TABLE "webhook_signing_keys" ADD CONSTRAINT "webhook_signing_keys_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;
