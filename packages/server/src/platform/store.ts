import type { Executor, Tx } from "../core/db/db.js";
import type { Environment } from "../core/http/context.js";
import type { RailFeeConfig } from "./schemas.js";

export interface PlatformRow {
  [column: string]: unknown;
  id: string;
  name: string;
  environment: Environment;
  supported_currencies: string[];
  sandbox_skip_verification_paperwork: boolean;
  clock_offset_ms: number;
  /** Platform fees per rail, as set by `PATCH /config` (validated there). */
  fee_configs: RailFeeConfig[];
  /** Where webhooks go; null: events are recorded as undeliverable. */
  webhook_endpoint: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertPlatform(tx: Tx, row: PlatformRow): Promise<void> {
  await tx.query(
    `INSERT INTO platforms (id, name, environment, supported_currencies, sandbox_skip_verification_paperwork, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.id,
      row.name,
      row.environment,
      row.supported_currencies,
      row.sandbox_skip_verification_paperwork,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function findPlatform(db: Executor, id: string): Promise<PlatformRow | undefined> {
  const [row] = await db.query<PlatformRow>("SELECT * FROM platforms WHERE id = $1", [id]);
  return row;
}

export async function lockPlatform(tx: Tx, id: string): Promise<PlatformRow | undefined> {
  const [row] = await tx.query<PlatformRow>("SELECT * FROM platforms WHERE id = $1 FOR UPDATE", [id]);
  return row;
}

export interface ConfigChanges {
  supportedCurrencies?: string[];
  sandboxSkipVerificationPaperwork?: boolean;
  name?: string;
  feeConfigs?: RailFeeConfig[];
  /** `undefined` keeps the endpoint, `null` clears it. */
  webhookEndpoint?: string | null;
}

export async function updatePlatformConfig(
  tx: Tx,
  id: string,
  changes: ConfigChanges,
  now: Date,
): Promise<PlatformRow> {
  // jsonb goes in as text: node-pg would send a JS array as a PostgreSQL array literal.
  const [row] = await tx.query<PlatformRow>(
    `UPDATE platforms SET
       supported_currencies = COALESCE($2, supported_currencies),
       sandbox_skip_verification_paperwork = COALESCE($3, sandbox_skip_verification_paperwork),
       name = COALESCE($4, name),
       fee_configs = COALESCE($5::jsonb, fee_configs),
       updated_at = $6,
       webhook_endpoint = CASE WHEN $7::boolean THEN $8 ELSE webhook_endpoint END
     WHERE id = $1 RETURNING *`,
    [
      id,
      changes.supportedCurrencies ?? null,
      changes.sandboxSkipVerificationPaperwork ?? null,
      changes.name ?? null,
      changes.feeConfigs ? JSON.stringify(changes.feeConfigs) : null,
      now,
      changes.webhookEndpoint !== undefined,
      changes.webhookEndpoint ?? null,
    ],
  );
  if (!row) throw new Error(`platform ${id} vanished during update`);
  return row;
}

export async function setClockOffset(tx: Tx, id: string, offsetMs: number): Promise<void> {
  await tx.query("UPDATE platforms SET clock_offset_ms = $2 WHERE id = $1", [id, offsetMs]);
}
