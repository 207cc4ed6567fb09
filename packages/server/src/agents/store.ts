import type { Executor, Tx } from "../core/db/db.js";
import { listPage, type PageRequest, type PageResult } from "../core/http/pagination.js";
import type { AgentPolicy } from "./schemas.js";

export interface AgentRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  customer_id: string;
  name: string;
  status: "ACTIVE" | "REVOKED";
  policy: AgentPolicy;
  is_paused: boolean;
  token_hash: string | null;
  token_issued_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertAgent(tx: Tx, row: AgentRow): Promise<void> {
  await tx.query(
    `INSERT INTO agents (id, platform_id, customer_id, name, status, policy, token_hash, token_issued_at,
       revoked_at, created_at, updated_at, is_paused) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      row.id,
      row.platform_id,
      row.customer_id,
      row.name,
      row.status,
      row.policy,
      row.token_hash,
      row.token_issued_at,
      row.revoked_at,
      row.created_at,
      row.updated_at,
      row.is_paused,
    ],
  );
}

/**
 * An agent of the platform. A deleted agent (status REVOKED: kept for its actions' history) is found only
 * with `includeDeleted`.
 */
export async function findAgent(
  db: Executor,
  platformId: string,
  id: string,
  lock = false,
  includeDeleted = false,
) {
  const [row] = await db.query<AgentRow>(
    `SELECT * FROM agents WHERE platform_id = $1 AND id = $2${includeDeleted ? "" : " AND status = 'ACTIVE'"}${lock ? " FOR UPDATE" : ""}`,
    [platformId, id],
  );
  return row;
}

/** The agent holding this access token (by its SHA-256), with its platform's environment and clock. */
export async function findAgentByTokenHash(db: Executor, tokenHash: string) {
  const [row] = await db.query<
    AgentRow & { environment: "SANDBOX" | "PRODUCTION"; clock_offset_ms: number; customer_deleted: boolean }
  >(
    `SELECT a.*, p.environment, p.clock_offset_ms, c.is_deleted AS customer_deleted FROM agents a
     JOIN platforms p ON p.id = a.platform_id JOIN customers c ON c.id = a.customer_id
     WHERE a.token_hash = $1`,
    [tokenHash],
  );
  return row;
}

export async function updateAgent(
  tx: Tx,
  id: string,
  change: Partial<
    Pick<
      AgentRow,
      "name" | "policy" | "is_paused" | "status" | "token_hash" | "token_issued_at" | "revoked_at"
    >
  > & {
    now: Date;
  },
): Promise<AgentRow> {
  const { now, ...fields } = change;
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  const sets = entries.map(([column], i) => `${column} = $${i + 3}`);
  const [row] = await tx.query<AgentRow>(
    `UPDATE agents SET ${[...sets, "updated_at = $2"].join(", ")} WHERE id = $1 RETURNING *`,
    [id, now, ...entries.map(([, value]) => value)],
  );
  if (!row) throw new Error(`agent ${id} vanished while locked`);
  return row;
}

export interface AgentFilters {
  customerId?: string | undefined;
  isPaused?: boolean | undefined;
  isConnected?: boolean | undefined;
  createdAfter?: Date | undefined;
  createdBefore?: Date | undefined;
  updatedAfter?: Date | undefined;
  updatedBefore?: Date | undefined;
}

/** The platform's agents (deleted ones excluded). */
export function listAgents(
  db: Executor,
  platformId: string,
  filters: AgentFilters,
  page: PageRequest,
): Promise<PageResult<AgentRow>> {
  const where = ["platform_id = $1", "status = 'ACTIVE'"];
  const params: unknown[] = [platformId];
  for (const [condition, value] of [
    ["customer_id =", filters.customerId],
    ["is_paused =", filters.isPaused],
    ["created_at >=", filters.createdAfter],
    ["created_at <=", filters.createdBefore],
    ["updated_at >=", filters.updatedAfter],
    ["updated_at <=", filters.updatedBefore],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${condition} $${params.length}`);
  }
  if (filters.isConnected !== undefined)
    where.push(filters.isConnected ? "token_hash IS NOT NULL" : "token_hash IS NULL");
  const scope = [
    filters.customerId,
    filters.isPaused,
    filters.isConnected,
    filters.createdAfter?.toISOString(),
    filters.createdBefore?.toISOString(),
    filters.updatedAfter?.toISOString(),
    filters.updatedBefore?.toISOString(),
  ].join("|");
  return listPage<AgentRow>({
    executor: db,
    table: "agents",
    where,
    params,
    scope: `agents|${platformId}|${scope}`,
    ...page,
  });
}

export async function insertDeviceCode(
  tx: Tx,
  row: { codeHash: string; agentId: string; expiresAt: Date; now: Date },
): Promise<void> {
  await tx.query(
    "INSERT INTO agent_device_codes (code_hash, agent_id, expires_at, created_at) VALUES ($1, $2, $3, $4)",
    [row.codeHash, row.agentId, row.expiresAt, row.now],
  );
}

export interface DeviceCodeRow {
  [column: string]: unknown;
  code_hash: string;
  agent_id: string;
  expires_at: Date;
  redeemed_at: Date | null;
  /** Of the agent and its platform, for the redeem's checks and clock. */
  platform_id: string;
  customer_id: string;
  agent_name: string;
  policy: AgentPolicy;
  clock_offset_ms: number;
}

/** Locks a device code (concurrent redeems of one code queue here, so exactly one succeeds). */
export async function lockDeviceCode(tx: Tx, codeHash: string): Promise<DeviceCodeRow | undefined> {
  const [row] = await tx.query<DeviceCodeRow>(
    `SELECT c.*, a.platform_id, a.customer_id, a.name AS agent_name, a.policy, p.clock_offset_ms
     FROM agent_device_codes c
     JOIN agents a ON a.id = c.agent_id JOIN platforms p ON p.id = a.platform_id
     WHERE c.code_hash = $1 FOR UPDATE OF c`,
    [codeHash],
  );
  return row;
}

/** A device code with its agent's platform (no lock: a read of its state). */
export async function findDeviceCode(db: Executor, codeHash: string): Promise<DeviceCodeRow | undefined> {
  const [row] = await db.query<DeviceCodeRow>(
    `SELECT c.*, a.platform_id, a.customer_id, a.name AS agent_name, a.policy, p.clock_offset_ms
     FROM agent_device_codes c
     JOIN agents a ON a.id = c.agent_id JOIN platforms p ON p.id = a.platform_id
     WHERE c.code_hash = $1`,
    [codeHash],
  );
  return row;
}

export async function markRedeemed(tx: Tx, codeHash: string, now: Date): Promise<void> {
  await tx.query("UPDATE agent_device_codes SET redeemed_at = $2 WHERE code_hash = $1", [codeHash, now]);
}

/** Voids an agent's unredeemed codes (revocation): they can no longer be redeemed. */
export async function voidDeviceCodes(tx: Tx, agentId: string, now: Date): Promise<void> {
  await tx.query(
    "UPDATE agent_device_codes SET expires_at = LEAST(expires_at, $2) WHERE agent_id = $1 AND redeemed_at IS NULL",
    [agentId, now],
  );
}

export async function insertAgentQuote(tx: Tx, quoteId: string, agentId: string, now: Date): Promise<void> {
  await tx.query("INSERT INTO agent_quotes (quote_id, agent_id, created_at) VALUES ($1, $2, $3)", [
    quoteId,
    agentId,
    now,
  ]);
}

export async function findAgentQuote(db: Executor, quoteId: string) {
  const [row] = await db.query<{ quote_id: string; agent_id: string }>(
    "SELECT * FROM agent_quotes WHERE quote_id = $1",
    [quoteId],
  );
  return row;
}

export type AgentActionStatus = "PENDING_APPROVAL" | "APPROVED" | "REJECTED" | "FAILED";
export type AgentActionType = "EXECUTE_QUOTE" | "TRANSFER_OUT" | "TRANSFER_IN";

export interface AgentActionRow {
  [column: string]: unknown;
  id: string;
  platform_id: string;
  agent_id: string;
  customer_id: string;
  type: AgentActionType;
  status: AgentActionStatus;
  quote_id: string | null;
  transaction_id: string | null;
  transfer_details: {
    amount: number;
    currency: string;
    sourceAccountId: string;
    destinationAccountId: string;
  } | null;
  rejection_reason: string | null;
  /** What the action counts against the policy's spending limits. */
  amount: number | null;
  currency: string | null;
  created_at: Date;
  updated_at: Date;
}

/** An action with its customer's platformCustomerId (the wire's `platformCustomerId`). */
export type AgentActionView = AgentActionRow & { platform_customer_id: string | null };

export async function insertAction(tx: Tx, row: AgentActionRow): Promise<void> {
  await tx.query(
    `INSERT INTO agent_actions (id, platform_id, agent_id, customer_id, type, status, quote_id, transaction_id,
       transfer_details, rejection_reason, created_at, updated_at, amount, currency)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      row.id,
      row.platform_id,
      row.agent_id,
      row.customer_id,
      row.type,
      row.status,
      row.quote_id,
      row.transaction_id,
      row.transfer_details,
      row.rejection_reason,
      row.created_at,
      row.updated_at,
      row.amount,
      row.currency,
    ],
  );
}

/**
 * Actions as they read: an action still PENDING_APPROVAL whose payment left the approval wait by another
 * path (`POST /transactions/{id}/cancel` in payments/, which knows nothing of agents) reads APPROVED once
 * its payment executes and FAILED otherwise.
 */
const actionView = `(SELECT a.id, a.platform_id, a.agent_id, a.customer_id, a.type, a.quote_id, a.transaction_id,
    a.transfer_details, a.rejection_reason, a.amount, a.currency, a.created_at, a.updated_at,
    c.platform_customer_id,
    CASE WHEN a.status = 'PENDING_APPROVAL' AND t.id IS NOT NULL
          AND NOT (t.status = 'PENDING' AND t.pending_reason = 'PLATFORM_APPROVAL_REQUIRED')
      THEN CASE WHEN t.status IN ('PROCESSING', 'COMPLETED') THEN 'APPROVED' ELSE 'FAILED' END
      ELSE a.status END AS status
  FROM agent_actions a
  LEFT JOIN customers c ON c.id = a.customer_id
  LEFT JOIN transactions t ON t.id = a.transaction_id) AS agent_action_view`;

/** A platform's action by id (any agent), optionally locked. */
export async function findAction(
  db: Executor,
  platformId: string,
  id: string,
  lock = false,
): Promise<AgentActionView | undefined> {
  const [row] = lock
    ? await db.query<AgentActionView>(
        `SELECT a.*, NULL AS platform_customer_id FROM agent_actions a
         WHERE a.platform_id = $1 AND a.id = $2 FOR UPDATE`,
        [platformId, id],
      )
    : await db.query<AgentActionView>(`SELECT * FROM ${actionView} WHERE platform_id = $1 AND id = $2`, [
        platformId,
        id,
      ]);
  return row;
}

/** The action that started this transaction, if an agent did. */
export async function findActionByTransaction(tx: Tx, transactionId: string) {
  const [row] = await tx.query<AgentActionRow>(
    "SELECT * FROM agent_actions WHERE transaction_id = $1 FOR UPDATE",
    [transactionId],
  );
  return row;
}

export async function updateAction(
  tx: Tx,
  id: string,
  change: {
    status: AgentActionStatus;
    rejection_reason?: string | null;
    transaction_id?: string | null;
    now: Date;
  },
): Promise<void> {
  await tx.query(
    `UPDATE agent_actions SET status = $2, rejection_reason = COALESCE($3, rejection_reason), updated_at = $4,
       transaction_id = COALESCE($5, transaction_id)
     WHERE id = $1`,
    [id, change.status, change.rejection_reason ?? null, change.now, change.transaction_id ?? null],
  );
}

/** Locks one action by id (the transfer-in approval path: its action has no transaction yet). */
export async function lockAction(tx: Tx, platformId: string, id: string) {
  const [row] = await tx.query<AgentActionRow>(
    "SELECT * FROM agent_actions WHERE platform_id = $1 AND id = $2 FOR UPDATE",
    [platformId, id],
  );
  return row;
}

/**
 * An agent's actions since the month started that are waiting or went through: how many since the day
 * started, and what those in `currency` add up to for the day and the month.
 */
export async function usageSince(
  db: Executor,
  agentId: string,
  currency: string,
  since: { dayStart: Date; monthStart: Date },
) {
  const [row] = await db.query<{
    daily_count: string | number;
    daily_spend: string | number;
    monthly_spend: string | number;
  }>(
    `SELECT COUNT(*) FILTER (WHERE created_at >= $2) AS daily_count,
       COALESCE(SUM(amount) FILTER (WHERE created_at >= $2 AND currency = $4), 0) AS daily_spend,
       COALESCE(SUM(amount) FILTER (WHERE currency = $4), 0) AS monthly_spend
     FROM ${actionView} WHERE agent_id = $1 AND created_at >= $3 AND status IN ('PENDING_APPROVAL', 'APPROVED')`,
    [agentId, since.dayStart, since.monthStart, currency],
  );
  return {
    dailyTransactionCount: Number(row?.daily_count ?? 0),
    dailySpend: Number(row?.daily_spend ?? 0),
    monthlySpend: Number(row?.monthly_spend ?? 0),
  };
}

export interface ActionFilters {
  agentId?: string | undefined;
  customerId?: string | undefined;
  status?: AgentActionStatus | undefined;
  startDate?: Date | undefined;
  endDate?: Date | undefined;
}

export function listActions(
  db: Executor,
  platformId: string,
  filters: ActionFilters,
  page: PageRequest,
): Promise<PageResult<AgentActionView>> {
  const where = ["platform_id = $1"];
  const params: unknown[] = [platformId];
  for (const [condition, value] of [
    ["agent_id =", filters.agentId],
    ["customer_id =", filters.customerId],
    ["status =", filters.status],
    ["created_at >=", filters.startDate],
    ["created_at <=", filters.endDate],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${condition} $${params.length}`);
  }
  return listPage<AgentActionView>({
    executor: db,
    table: actionView,
    where,
    params,
    scope: `agent-actions|${platformId}|${filters.agentId}|${filters.customerId}|${filters.status}|${filters.startDate?.toISOString()}|${filters.endDate?.toISOString()}`,
    ...page,
  });
}
