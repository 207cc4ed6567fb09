-- Secrets sealed at rest (issue 16 item 4). An OTP code is now checked by HMAC-SHA256 under a random key
-- of its own, sealed under the master key (src/core/secrets); the unkeyed SHA-256 digests are dropped,
-- since any 6-digit code is found from one in under a second. Outstanding codes cannot be checked without
-- their digest, so they are voided: a client asks for a new code. Values still stored in clear (wallet
-- seeds, OTP target keys, bundle-signing keys, webhook private keys) are sealed when the service starts:
-- SQL cannot encrypt (src/core/secrets/reseal.ts).
UPDATE "otp_challenges" SET "state" = 'VOID' WHERE "state" = 'OPEN';--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD COLUMN "code_key" text;--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD COLUMN "code_hmac" text;--> statement-breakpoint
ALTER TABLE "otp_challenges" DROP COLUMN "code_sha256";
