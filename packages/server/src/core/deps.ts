import type { FastifyBaseLogger } from "fastify";
import { type Clock, offsetClock } from "./clock.js";
import type { Db } from "./db/db.js";
import type { OtpSender } from "./otp-sender.js";
import type { OutboundSettings } from "./outbound/targets.js";
import type { SecretBox } from "./secrets/secret-box.js";

export type Mode = "sandbox" | "production";

/** Webhook sender timeouts (conventions §7.1): 5 s to connect, 15 s in total. Tests shorten them. */
export interface WebhookTimeouts {
  connectTimeoutMs: number;
  totalTimeoutMs: number;
}

/**
 * Everything the app and the domain functions need, built once in main.ts and passed explicitly. A field
 * whose type an area owns is added there by declaration merging, so core names no area:
 * `signedRetryPerformers` (wallet-auth/signed-retry.ts).
 */
export interface Deps {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  mode: Mode;
  /**
   * How far back a card clearing may date its balance change. A balance-changes window is available
   * only once its end is older than this, and from then on its answer never changes.
   */
  settlementLagMs: number;
  /** Webhook sender timeouts; defaults to 5 s connect / 15 s total (conventions §7.1). Tests shorten them. */
  webhookTimeouts?: WebhookTimeouts;
  /** Where webhooks may be sent (PAYSVC_ALLOW_PRIVATE_TARGETS; core/outbound); absent: private allowed in the sandbox. */
  outbound?: OutboundSettings;
  /** Delivers production OTP codes; defaults to a log line (docs/decisions.md "Embedded wallet authentication"). */
  otpSender?: OtpSender;
  /**
   * The regulatory threshold in USD cents: a payout above it to a wallet that is not ACTIVE is
   * `400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED` (conventions §4.1). Defaults to
   * DEFAULT_WALLET_VERIFICATION_THRESHOLD.
   */
  walletVerificationThreshold?: number;
  /**
   * The operator secret of an embedded data directory (`<data dir>/operator.json`): set, the server
   * answers the operator commands at `/_operator` (operator/routes.ts).
   */
  operatorSecret?: string;
  /**
   * The service's public base URL (PAYSVC_PUBLIC_URL), e.g. `https://pay.example.com`, for links it makes
   * (card reveal); absent: the listen address (core/http/public-origin.ts).
   */
  publicUrl?: string;
  /**
   * Limit failed authentications per source address for loopback too (auth/failed-attempts.ts); off by
   * default, since behind a same-host reverse proxy every client arrives from loopback.
   */
  limitLoopbackAuthFailures?: boolean;
  /**
   * Seals private keys and seeds at rest under the master key (core/secrets; docs/decisions.md "Security
   * (issue 16)"). main.ts always sets it from the configured key; deps built without it (npm run fuzz,
   * npm run bench) use the process's box (core/secrets/process-box.ts).
   */
  secrets?: SecretBox;
}

/** Default regulatory threshold for payouts to wallets that are not ACTIVE: USD 1,000.00, in cents. */
export const DEFAULT_WALLET_VERIFICATION_THRESHOLD = 100_000;

/** The configured regulatory threshold (USD cents) for payouts to wallets that are not ACTIVE. */
export function walletVerificationThreshold(deps: Pick<Deps, "walletVerificationThreshold">): number {
  return deps.walletVerificationThreshold ?? DEFAULT_WALLET_VERIFICATION_THRESHOLD;
}

/** Default settlement lag: 3 days. */
export const DEFAULT_SETTLEMENT_LAG_MS = 3 * 24 * 60 * 60 * 1000;

/** The clock of one platform: the service clock moved by the platform's sandbox clock offset. */
export function platformClock(deps: Pick<Deps, "clock">, caller: { clockOffsetMs: number }): Clock {
  return caller.clockOffsetMs === 0 ? deps.clock : offsetClock(deps.clock, caller.clockOffsetMs);
}

/** Now, for timestamps the service assigns on behalf of this platform. */
export function nowFor(deps: Pick<Deps, "clock">, caller: { clockOffsetMs: number }): Date {
  return platformClock(deps, caller).now();
}
