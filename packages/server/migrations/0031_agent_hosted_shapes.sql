-- Issue 21 §5: agents in the hosted API's shapes. `is_paused` (AgentUpdateRequest.isPaused); the amount and
-- currency each action counts against the policy's spending limits (AgentUsage), backfilled from its quote;
-- policies rewritten to the hosted AgentPolicy (permissions, defaultExecutionMode, spendingLimits). An old
-- policy's first maximum becomes spendingLimits (narrower, never wider); none → a limit of 0 (nothing sent).
ALTER TABLE "agents" ADD COLUMN "is_paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_actions" ADD COLUMN "amount" bigint;--> statement-breakpoint
ALTER TABLE "agent_actions" ADD COLUMN "currency" text;--> statement-breakpoint
UPDATE "agent_actions" a SET "amount" = q."total_sending_amount", "currency" = q."sending_currency"
  FROM "quotes" q WHERE q."id" = a."quote_id";--> statement-breakpoint
UPDATE "agents" SET "policy" = jsonb_build_object(
  'permissions', (
    SELECT COALESCE(jsonb_agg(DISTINCT p ORDER BY p), '[]'::jsonb)
    FROM jsonb_array_elements_text("policy"->'allowedOperations') AS op(name),
      LATERAL unnest(CASE op.name
        WHEN 'VIEW_TRANSACTIONS' THEN ARRAY['VIEW_TRANSACTIONS']
        WHEN 'CREATE_EXTERNAL_ACCOUNTS' THEN ARRAY['MANAGE_EXTERNAL_ACCOUNTS']
        WHEN 'SEND_PAYMENTS' THEN ARRAY['CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS']
        ELSE ARRAY[]::text[] END) AS p),
  'defaultExecutionMode',
    CASE WHEN ("policy"->>'requirePlatformApproval') = 'false' THEN 'AUTO' ELSE 'APPROVAL_REQUIRED' END,
  'spendingLimits', COALESCE(
    (SELECT jsonb_build_object('currency', m->>'currency', 'perTransactionLimit', (m->>'amount')::bigint)
       FROM jsonb_array_elements("policy"->'maxTransactionAmounts') AS m LIMIT 1),
    jsonb_build_object('currency', 'USD', 'perTransactionLimit', 0))
) WHERE "policy" ? 'allowedOperations';
