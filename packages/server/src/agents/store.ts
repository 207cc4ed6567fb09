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
  token_hash: string | null;
  token_issued_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertAgent(tx: Tx, row: AgentRow): Promise<void> {
  await tx.query(
    `INSERT INTO agents (id, platform_id, customer_id, name, status, policy, token_hash, token_issued_at,
       revoked_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
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
    ],
  );
}

export async function findAgent(db: Executor, platformId: string, id: string, lock = false) {
  const [row] = await db.query<AgentRow>(
    `SELECT * FROM agents WHERE platform_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
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
    Pick<AgentRow, "name" | "policy" | "status" | "token_hash" | "token_issued_at" | "revoked_at">
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

export function listAgents(
  db: Executor,
  platformId: string,
  filters: { customerId?: string | undefined; status?: string | undefined },
  page: PageRequest,
): Promise<PageResult<AgentRow>> {
  const where = ["platform_id = $1"];
  const params: unknown[] = [platformId];
  for (const [column, value] of [
    ["customer_id", filters.customerId],
    ["status", filters.status],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${column} = $${params.length}`);
  }
  return listPage<AgentRow>({
    executor: db,
    table: "agents",
    where,
    params,
    scope: `agents|${platformId}|${filters.customerId}|${filters.status}`,
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
  clock_offset_ms: number;
}

/** Locks a device code (concurrent redeems of one code queue here, so exactly one succeeds). */
export async function lockDeviceCode(tx: Tx, codeHash: string): Promise<DeviceCodeRow | undefined> {
  const [row] = await tx.query<DeviceCodeRow>(
    `SELECT c.*, a.platform_id, a.customer_id, p.clock_offset_ms FROM agent_device_codes c
     JOIN agents a ON a.id = c.agent_id JOIN platforms p ON p.id = a.platform_id
     WHERE c.code_hash = $1 FOR UPDATE OF c`,
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
