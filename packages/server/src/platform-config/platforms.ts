import type { Static } from "typebox";
import { insertNewToken } from "../auth/tokens.js";
import type { Tx } from "../core/db/db.js";
import { isUniqueViolation } from "../core/db/sqlstate.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, type FieldError, invalidInput } from "../core/errors/api-error.js";
import type { Caller, Environment } from "../core/http/context.js";
import { newId } from "../core/ids.js";
import { type TargetPolicy, targetPolicy, targetProblem } from "../core/outbound/targets.js";
import { secretsOf } from "../core/secrets/process-box.js";
import type { SecretBox } from "../core/secrets/secret-box.js";
import { openPlatformAccount } from "../customers/open-accounts.js";
import { revealOriginProblems } from "../platform/card-reveal-origins.js";
import {
  currencyConfigsOf,
  type PlatformCurrencyConfig,
  storedCurrencyConfigs,
} from "../platform/currency-configs.js";
import type {
  CardTokenization2faConfig,
  PlatformConfig as PlatformConfigSchema,
  RailFeeConfig,
  UpdateConfigBody,
  UpdateWalletAuthConfig,
} from "../platform/schemas.js";
import {
  findPlatform,
  insertPlatform,
  lockPlatform,
  type PlatformRow,
  umaDomainConstraint,
  updatePlatformConfig,
} from "../platform/store.js";
import { defaultDomainLabel, defaultDomainPlatformLabel, umaDomainOf } from "../platform/uma-domain.js";
import { SANDBOX_COUNTERPARTY_DOMAIN } from "../uma/sandbox-counterparty-domains.js";
import {
  readWalletAuthConfig,
  sandboxProcessingDelayMs,
  walletAuthConfigProblems,
} from "../wallet-auth/auth-config.js";
import {
  bundleSigningKey,
  newBundleSigningKey,
  storedBundleSigningPublicKey,
} from "../wallet-auth/bundle-signing.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import { createFirstSigningKey } from "../webhooks/signing-keys.js";

// Creating and configuring a platform (`GET`/`PATCH /config`, `paysvc create-platform`, the sandbox's
// first start): above the areas whose rows a platform starts with (its API token, webhook signing key,
// bundle-signing key and sandbox account) and whose settings PATCH /config checks. platform/ holds the
// platform row they all read, so it imports none of them.

export const SANDBOX_CURRENCIES = ["USD", "USDB"];
/** Default live-card cap per platform (docs/decisions.md "Cards"); no per-cardholder cap by default. */
export const DEFAULT_MAX_LIVE_CARDS = 1000;
export const DEFAULT_CARD_TOKENIZATION_2FA = {
  methods: ["EMAIL_OTP", "SMS_OTP"],
} as CardTokenization2faConfig;

export type PlatformConfig = Static<typeof PlatformConfigSchema>;

/** The wire PlatformConfig; the row must already hold its bundle-signing key (see withBundleSigningKey). */
export function toPlatformConfig(row: PlatformRow, publicUrl: string | undefined): PlatformConfig {
  const bundleSigningPublicKey = storedBundleSigningPublicKey(row.wallet_auth_config);
  if (!bundleSigningPublicKey) throw new Error(`platform ${row.id} has no bundle-signing key yet`);
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    webhookEndpoint: row.webhook_endpoint,
    supportedCurrencies: currencyConfigsOf(row),
    feeConfigs: row.fee_configs,
    sandboxSkipVerificationPaperwork: row.sandbox_skip_verification_paperwork,
    cardTokenization2faConfig: row.card_tokenization_2fa_config,
    cardLimits: {
      maxLiveCards: row.max_live_cards,
      maxLiveCardsPerCardholder: row.max_live_cards_per_cardholder,
    },
    bundleSigningPublicKey,
    walletAuthConfig: {
      ...readWalletAuthConfig(row.wallet_auth_config),
      sandboxProcessingDelayMs: sandboxProcessingDelayMs(row),
    },
    invitationBaseUrl: row.invitation_base_url ?? null,
    cardRevealOrigins: row.card_reveal_origins ?? [],
    umaDomain: umaDomainOf(row, publicUrl),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export interface NewPlatform {
  platform: PlatformConfig;
  token: { id: string; clientId: string; clientSecret: string };
}

/**
 * Creates a platform with an all-permission API token, its own webhook signing key and, for sandbox
 * platforms, the platform-owned USD account the sandbox starts with (conventions §2.2); one transaction.
 */
export async function createPlatform(
  deps: Pick<Deps, "db" | "clock" | "secrets" | "publicUrl">,
  input: { name: string; environment: Environment; supportedCurrencies?: string[] },
): Promise<NewPlatform> {
  const now = deps.clock.now();
  const secrets = secretsOf(deps);
  const id = newId("Platform");
  const bundleSigningKey = await newBundleSigningKey(secrets, id);
  return deps.db.transaction(async (tx) => {
    const row: PlatformRow = {
      id,
      name: input.name,
      environment: input.environment,
      supported_currencies: input.supportedCurrencies ?? SANDBOX_CURRENCIES,
      sandbox_skip_verification_paperwork: false,
      clock_offset_ms: 0,
      fee_configs: [],
      webhook_endpoint: null,
      card_tokenization_2fa_config: DEFAULT_CARD_TOKENIZATION_2FA,
      max_live_cards: DEFAULT_MAX_LIVE_CARDS,
      max_live_cards_per_cardholder: null,
      wallet_auth_config: { bundleSigningKey },
      created_at: now,
      updated_at: now,
    };
    await insertPlatform(tx, row);
    await createFirstSigningKey(tx, row.id, now, secrets);
    if (input.environment === "SANDBOX") await openPlatformAccount(tx, row.id, "USD", now);
    const token = await insertNewToken(
      tx,
      row.id,
      { name: "default", permissions: ["VIEW", "TRANSACT", "MANAGE"] },
      now,
    );
    return {
      platform: toPlatformConfig(row, deps.publicUrl),
      token: { id: token.id, clientId: token.clientId, clientSecret: token.clientSecret },
    };
  });
}

/** The row with its bundle-signing key: platforms made before the key existed get theirs now. */
async function withBundleSigningKey(tx: Tx, secrets: SecretBox, row: PlatformRow): Promise<PlatformRow> {
  if (storedBundleSigningPublicKey(row.wallet_auth_config)) return row;
  await bundleSigningKey(tx, secrets, row.id);
  const reread = await findPlatform(tx, row.id);
  if (!reread) throw new ApiError("PLATFORM_NOT_FOUND");
  return reread;
}

export async function getConfig(deps: Deps, caller: Caller): Promise<PlatformConfig> {
  const row = await findPlatform(deps.db, caller.platformId);
  if (!row) throw new ApiError("PLATFORM_NOT_FOUND");
  if (storedBundleSigningPublicKey(row.wallet_auth_config)) return toPlatformConfig(row, deps.publicUrl);
  const keyed = await deps.db.transaction((tx) => withBundleSigningKey(tx, secretsOf(deps), row));
  return toPlatformConfig(keyed, deps.publicUrl);
}

/** Each rail at most once, and each entry sets a rate, a fixed amount or both. */
function checkFeeConfigs(feeConfigs: RailFeeConfig[]): void {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  feeConfigs.forEach((config, i) => {
    if (seen.has(config.rail))
      errors.push({ field: `feeConfigs[${i}].rail`, message: `${config.rail} is configured more than once` });
    seen.add(config.rail);
    if (config.variableRateBps === undefined && config.fixedAmount === undefined)
      errors.push({ field: `feeConfigs[${i}]`, message: "needs variableRateBps, fixedAmount or both" });
  });
  if (errors.length > 0) throw invalidInput(errors);
}

/** Each currency once, amounts in order, each counterparty field named once per currency. */
function checkCurrencyConfigs(configs: readonly PlatformCurrencyConfig[]): void {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  configs.forEach((config, i) => {
    const at = `supportedCurrencies[${i}]`;
    if (seen.has(config.currencyCode))
      errors.push({
        field: `${at}.currencyCode`,
        message: `${config.currencyCode} is listed more than once`,
      });
    seen.add(config.currencyCode);
    if (config.minAmount > config.maxAmount)
      errors.push({ field: `${at}.minAmount`, message: "must not be above maxAmount" });
    const names = new Set<string>();
    config.requiredCounterpartyFields.forEach((field, j) => {
      if (names.has(field.name))
        errors.push({
          field: `${at}.requiredCounterpartyFields[${j}].name`,
          message: `${field.name} is listed more than once`,
        });
      names.add(field.name);
    });
  });
  if (errors.length > 0) throw invalidInput(errors);
}

/** An absolute http(s) URL, and https outside the sandbox (conventions §7.3; also invitationBaseUrl). */
function checkWebhookEndpoint(endpoint: string, environment: Environment, field = "webhookEndpoint"): void {
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
    throw invalidInput([{ field, message: "must be an absolute http(s) URL" }]);
  if (environment !== "SANDBOX" && url.protocol !== "https:")
    throw invalidInput([{ field, message: "must be an https URL outside the sandbox" }]);
}

/**
 * The endpoint is where the service connects: no credentials in it, and no address the platform's
 * policy refuses (loopback, private, link-local…; core/outbound). Names are checked again at connect time.
 */
function checkWebhookTarget(endpoint: string, policy: TargetPolicy): void {
  const problem = targetProblem(new URL(endpoint), policy);
  if (problem) throw invalidInput([{ field: "webhookEndpoint", message: problem }]);
}

/** Passkey origins and OIDC providers (wallet-auth/auth-config.ts); the PROCESSING delay is a sandbox testing aid. */
function checkWalletAuthConfig(
  changes: UpdateWalletAuthConfig,
  environment: Environment,
  policy: TargetPolicy,
): void {
  const { sandboxProcessingDelayMs: delay, ...providers } = changes;
  const errors = walletAuthConfigProblems(providers, policy);
  if (delay !== undefined && environment !== "SANDBOX")
    errors.push({
      field: "walletAuthConfig.sandboxProcessingDelayMs",
      message: "can be set on sandbox platforms only",
    });
  if (errors.length > 0) throw invalidInput(errors);
}

/**
 * `PATCH /config`; `feeConfigs` replaces the whole list; a new webhook endpoint gets one TEST event;
 * `walletAuthConfig` is merged key by key into the stored settings.
 */
export async function updateConfig(
  deps: Deps,
  caller: Caller,
  changes: UpdateConfigBody,
): Promise<PlatformConfig> {
  if (changes.feeConfigs) checkFeeConfigs(changes.feeConfigs);
  if (changes.supportedCurrencies) checkCurrencyConfigs(changes.supportedCurrencies);
  return deps.db
    .transaction(async (tx) => {
      const row = await lockPlatform(tx, caller.platformId);
      if (!row) throw new ApiError("PLATFORM_NOT_FOUND");
      const policy = targetPolicy(deps.outbound, row.environment);
      if (changes.webhookEndpoint) {
        checkWebhookEndpoint(changes.webhookEndpoint, row.environment);
        checkWebhookTarget(changes.webhookEndpoint, policy);
      }
      if (changes.walletAuthConfig) checkWalletAuthConfig(changes.walletAuthConfig, row.environment, policy);
      if (changes.umaDomain) checkUmaDomain(changes.umaDomain, row.id, deps.publicUrl);
      if (changes.invitationBaseUrl)
        checkWebhookEndpoint(changes.invitationBaseUrl, row.environment, "invitationBaseUrl");
      if (changes.cardRevealOrigins) {
        const problems = revealOriginProblems(changes.cardRevealOrigins, row.environment);
        if (problems.length > 0) throw invalidInput(problems);
      }
      const { supportedCurrencies, ...rest } = changes;
      const currencies = supportedCurrencies && storedCurrencyConfigs(supportedCurrencies);
      const now = nowFor(deps, caller);
      const updated = await updatePlatformConfig(
        tx,
        row.id,
        {
          ...rest,
          ...(currencies
            ? { supportedCurrencies: currencies.codes, currencyConfigs: currencies.settings }
            : {}),
        },
        now,
      );
      if (updated.webhook_endpoint && updated.webhook_endpoint !== row.webhook_endpoint)
        await enqueueEvent(tx, { platformId: row.id, type: "TEST", data: {}, now });
      return toPlatformConfig(await withBundleSigningKey(tx, secretsOf(deps), updated), deps.publicUrl);
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, umaDomainConstraint))
        throw new ApiError("CONFLICT", {
          reason: `UMA domain ${changes.umaDomain} belongs to another platform.`,
        });
      throw error;
    });
}

/** A DNS name of two labels or more, lowercase, without port: what a UMA address's domain can be. */
const dnsName = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A UMA domain a platform may take: a DNS name, neither the sandbox counterparty's nor shaped like another
 * platform's default domain (which would answer for that platform's customers).
 */
function checkUmaDomain(domain: string, platformId: string, publicUrl: string | undefined): void {
  const label = defaultDomainPlatformLabel(domain, publicUrl);
  const problem = !dnsName.test(domain)
    ? "must be a lowercase DNS name of two labels or more, without scheme, port or path"
    : domain.endsWith(SANDBOX_COUNTERPARTY_DOMAIN)
      ? "is the sandbox counterparty's"
      : label !== undefined && label !== defaultDomainLabel(platformId)
        ? "has the form of another platform's default domain"
        : undefined;
  if (problem) throw invalidInput([{ field: "umaDomain", message: problem }]);
}
