-- Issue 21: a mint's hosted destination.accountId may be an external wallet that receives the minted tokens
-- (null: the provider account's treasury, as before).
ALTER TABLE "stablecoin_operations" ADD COLUMN "destination_account_id" text;
