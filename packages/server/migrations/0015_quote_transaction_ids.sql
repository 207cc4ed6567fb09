-- Every quote has its transactionId from creation (issue 15). Quotes created before never executed have
-- none: reserve one. The last hex digit is forced to 'f' so a drawn id never ends in 00 plus a digit
-- (conventions §1.3: such suffixes are sandbox magic values).
UPDATE "quotes" SET "transaction_id" = 'Transaction:' || left(gen_random_uuid()::text, 35) || 'f' WHERE "transaction_id" IS NULL;--> statement-breakpoint
ALTER TABLE "quotes" ALTER COLUMN "transaction_id" SET NOT NULL;
