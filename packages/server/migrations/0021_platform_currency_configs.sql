-- The hosted API's PlatformCurrencyConfig per supported currency (issue 19/21): amounts, required counterparty
-- fields and enabled transaction types, keyed by currency code; codes not present take the defaults.
ALTER TABLE "platforms" ADD COLUMN "currency_configs" jsonb DEFAULT '{}'::jsonb NOT NULL;