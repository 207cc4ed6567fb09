-- Every embedded wallet starts with an EMAIL_OTP credential tied to its customer's e-mail (interface,
-- Authentication rule 3). Wallets opened before credentials existed get theirs now.
INSERT INTO "auth_methods" ("id", "platform_id", "account_id", "type", "nickname", "created_at", "updated_at")
SELECT 'AuthMethod:' || gen_random_uuid(), a."platform_id", a."id", 'EMAIL_OTP', c."profile"->>'email', a."created_at", a."created_at"
FROM "internal_accounts" a
JOIN "customers" c ON c."id" = a."customer_id"
WHERE a."type" = 'EMBEDDED_WALLET'
  AND c."profile"->>'email' IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM "auth_methods" m WHERE m."account_id" = a."id" AND m."type" = 'EMAIL_OTP' AND m."revoked_at" IS NULL
  );
