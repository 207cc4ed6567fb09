import type { Executor, Tx } from "../core/db/db.js";
import type { Environment } from "../core/http/context.js";
import type { CardTokenization2faConfig, RailFeeConfig } from "./schemas.js";

export interface PlatformRow {
  [column: string]: unknown;
  id: string;
  name: string;
  environment: Environment;
  supported_currencies: string[];
  /** Settings per supported code (currency-configs.ts); absent on rows built in code. */
  currency_configs?: Record<string, unknown>;
  sandbox_skip_verification_paperwork: boolean;
  clock_offset_ms: number;
  /** Platform fees per rail, as set by `PATCH /config` (validated there). */
  fee_configs: RailFeeConfig[];
  /** Where webhooks go; null: events are recorded as undeliverable. */
  webhook_endpoint: string | null;
  /** Second factors for adding a card to a digital wallet; null: cards cannot be tokenized. */
  card_tokenization_2fa_config: CardTokenization2faConfig | null;
  max_live_cards: number;
  max_live_cards_per_cardholder: number | null;
  /**
   * Embedded-wallet authentication settings (docs/decisions.md "Embedded wallet authentication"):
   * `sandboxProcessingDelayMs`, the passkey/OIDC settings, and `bundleSigningKey` (never shown).
   */
  wallet_auth_config: Record<string, unknown>;
  /** Where invitees claim invitations; null: invitations are not configured. Absent on rows built in code. */
  invitation_base_url?: string | null;
  /** Set by the database default ([]) at insert; see tables.ts. */
  card_reveal_origins?: string[];
  /** The UMA domain set by `PATCH /config`; null or absent: the default (uma-domain.ts). */
  uma_domain?: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertPlatform(tx: Tx, row: PlatformRow): Promise<void> {
  await tx.query(
    `INSERT INTO platforms (id, name, environment, supported_currencies, sandbox_skip_verification_paperwork,
       card_tokenization_2fa_config, max_live_cards, max_live_cards_per_cardholder, created_at, updated_at,
       wallet_auth_config)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11::jsonb)`,
    [
      row.id,
      row.name,
      row.environment,
      row.supported_currencies,
      row.sandbox_skip_verification_paperwork,
      row.card_tokenization_2fa_config === null ? null : JSON.stringify(row.card_tokenization_2fa_config),
      row.max_live_cards,
      row.max_live_cards_per_cardholder,
      row.created_at,
      row.updated_at,
      JSON.stringify(row.wallet_auth_config),
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

/** The unique constraint on platforms' UMA domains (PATCH /config answers 409 on it). */
export const umaDomainConstraint = "platforms_uma_domain_unique";

export interface ConfigChanges {
  supportedCurrencies?: string[];
  /** With supportedCurrencies: each code's settings (currency-configs.ts), replacing the stored ones. */
  currencyConfigs?: Record<string, unknown>;
  sandboxSkipVerificationPaperwork?: boolean;
  name?: string;
  feeConfigs?: RailFeeConfig[];
  /** `undefined` keeps the endpoint, `null` clears it. */
  webhookEndpoint?: string | null;
  /** `undefined` keeps it, `null` turns tokenization off. */
  cardTokenization2faConfig?: CardTokenization2faConfig | null;
  /** Merged into `wallet_auth_config` key by key; keys not given (the bundle-signing key…) are kept. */
  walletAuthConfig?: Record<string, unknown>;
  /** `undefined` keeps it, `null` turns invitations off. */
  invitationBaseUrl?: string | null;
  /** Replaces the whole list; `[]` returns to the default. */
  cardRevealOrigins?: string[];
  /** `undefined` keeps it, `null` returns to the default domain. */
  umaDomain?: string | null;
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
       webhook_endpoint = CASE WHEN $7::boolean THEN $8 ELSE webhook_endpoint END,
       card_tokenization_2fa_config = CASE WHEN $9::boolean THEN $10::jsonb ELSE card_tokenization_2fa_config END,
       wallet_auth_config = wallet_auth_config || COALESCE($11::jsonb, '{}'::jsonb),
       invitation_base_url = CASE WHEN $12::boolean THEN $13 ELSE invitation_base_url END,
       card_reveal_origins = COALESCE($14::jsonb, card_reveal_origins),
       uma_domain = CASE WHEN $15::boolean THEN $16 ELSE uma_domain END,
       currency_configs = COALESCE($17::jsonb, currency_configs)
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
      changes.cardTokenization2faConfig !== undefined,
      changes.cardTokenization2faConfig ? JSON.stringify(changes.cardTokenization2faConfig) : null,
      changes.walletAuthConfig ? JSON.stringify(changes.walletAuthConfig) : null,
      changes.invitationBaseUrl !== undefined,
      changes.invitationBaseUrl ?? null,
      changes.cardRevealOrigins ? JSON.stringify(changes.cardRevealOrigins) : null,
      changes.umaDomain !== undefined,
      changes.umaDomain ?? null,
      changes.currencyConfigs ? JSON.stringify(changes.currencyConfigs) : null,
    ],
  );
  if (!row) throw new Error(`platform ${id} vanished during update`);
  return row;
}

export async function setClockOffset(tx: Tx, id: string, offsetMs: number): Promise<void> {
  await tx.query("UPDATE platforms SET clock_offset_ms = $2 WHERE id = $1", [id, offsetMs]);
}

/** The platform whose UMA domain `PATCH /config` set to `domain`. */
export async function findPlatformByUmaDomain(
  db: Executor,
  domain: string,
): Promise<PlatformRow | undefined> {
  const [row] = await db.query<PlatformRow>("SELECT * FROM platforms WHERE uma_domain = $1", [domain]);
  return row;
}

/** The platform whose id ends with `label` (uma-domain.ts: a default domain's first label). */
export async function findPlatformByIdSuffix(db: Executor, label: string): Promise<PlatformRow | undefined> {
  const rows = await db.query<PlatformRow>(
    "SELECT * FROM platforms WHERE id LIKE $1 AND uma_domain IS NULL LIMIT 2",
    [`%${label}`],
  );
  return rows.length === 1 ? rows[0] : undefined;
}
