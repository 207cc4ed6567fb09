-- SCA OTP codes are checked by HMAC-SHA256 under a random key of their own, sealed under the master key
-- (src/core/secrets/code-mac.ts), like wallet OTPs since 0017: an unkeyed SHA-256 of a 6-digit code is
-- reversed in under a second. Outstanding OTP challenges cannot be checked without their digest, so they
-- are abandoned (the customer asks for a new code) and their digests dropped.
UPDATE "sca_challenges" SET "state" = 'ABANDONED' WHERE "state" = 'OPEN' AND "factor" = 'OTP';--> statement-breakpoint
UPDATE "sca_challenges" SET "code_hash" = NULL WHERE "factor" = 'OTP';--> statement-breakpoint
ALTER TABLE "sca_challenges" ADD COLUMN "code_key" text;
