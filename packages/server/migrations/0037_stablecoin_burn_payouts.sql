-- Issue 21: a burn to the hosted EXTERNAL_ACCOUNT destination pays the redeemed money out over this rail
-- (our PaymentRail; null: the burn's money stays in its internal account, as before).
ALTER TABLE "stablecoin_operations" ADD COLUMN "destination_rail" text;
