import { BadRequestError, PaysvcError, RateLimitError } from "../core/errors.js";
import type { ApiResult, RequestOptions } from "../core/request.js";
import type {
  ExternalAccount,
  VerifyOwnershipBody,
  WalletSignatureChallenge,
} from "../types/external-accounts.js";
import type { WebhookEvent } from "../webhooks/envelope.js";

/**
 * Signs the challenge's exact `messageToSign` with the wallet's key and returns the signature in the
 * network's format (EVM: EIP-191 `personal_sign`, `0x` + 130 hex; Solana: base58 ed25519; Bitcoin:
 * base64 BIP-137). Typically a wallet connector's `signMessage`, run in the user's wallet.
 */
export type MessageSigner = (
  messageToSign: string,
  challenge: WalletSignatureChallenge,
) => string | Promise<string>;

export interface VerifyOwnershipOptions {
  /** Bitcoin only: `bip137` (default) or `electrum`. */
  signatureScheme?: "bip137" | "electrum";
  /** Challenges to start when each expires before its signature is verified. Default 3. */
  maxAttempts?: number;
  /** 429 answers (challenge re-issue limit) to wait out before giving up. Default 2. */
  maxRateLimitWaits?: number;
  /**
   * The longest `Retry-After` waited out; a longer one rejects with the `RateLimitError`. Default 15
   * minutes, the server's re-issue window, so every answer it sends is honoured.
   */
  maxRetryAfterMs?: number;
  /** Cancels the flow, including a wait for `Retry-After`. */
  signal?: AbortSignal;
  /** Per-request options for each call (timeouts, retries). Each call gets a fresh idempotency key. */
  requestOptions?: Omit<RequestOptions, "idempotencyKey">;
  /** The clock `expiresAt` is compared with (ms since the epoch). Default `Date.now`. */
  now?: () => number;
  /** How a `Retry-After` is waited out. Default a timer; tests may advance a sandbox clock instead. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface WaitForLivenessOutcomeOptions {
  /** Give up after this long (`PaysvcError` `LIVENESS_OUTCOME_TIMEOUT`). Default 30 minutes, a LIVENESS challenge's lifetime. */
  timeoutMs?: number;
  /** Time between `GET`s of the account. Default 5 000 ms. */
  pollIntervalMs?: number;
  /**
   * Verified webhook events (e.g. from your webhook handler, after `verifyWebhook`), to resolve as soon
   * as `EXTERNAL_ACCOUNT.STATUS_UPDATED` reports the outcome instead of at the next poll. With an
   * EventEmitter: `on(emitter, "event")` from `node:events`, mapped to the event. The iterator is closed
   * (`return()`) when the wait ends.
   */
  webhookEvents?: AsyncIterable<WebhookEvent>;
  signal?: AbortSignal;
  requestOptions?: RequestOptions;
}

/** What verifyOwnership needs of the resource. */
export interface OwnershipCalls {
  challenge(
    id: string,
    method: "WALLET_SIGNATURE",
    options?: RequestOptions,
  ): Promise<ApiResult<WalletSignatureChallenge>>;
  verify(
    id: string,
    body: VerifyOwnershipBody,
    options?: RequestOptions,
  ): Promise<ApiResult<ExternalAccount>>;
  get(id: string, options?: RequestOptions): Promise<ApiResult<ExternalAccount>>;
}

const PENDING = "PENDING_OWNERSHIP_VERIFICATION";

/** Waits `ms`, or less if `signal` aborts. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** The server's `400 INVALID_INPUT` on `signature` for a challenge that expired before the verify arrived. */
function expiredOnServer(error: unknown): boolean {
  return (
    error instanceof BadRequestError &&
    error.fieldErrors.some((e) => e.field === "signature" && /\bexpired\b/i.test(e.message))
  );
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`${name} must be a positive number`);
  return value;
}

/**
 * WALLET_SIGNATURE end to end: start a challenge, have `signer` sign its exact message, submit. When the
 * challenge expires first (checked against `expiresAt` before submitting, so an expired signature is not
 * sent; or reported by the server), it starts over, up to `maxAttempts` challenges. A `429` (re-issue
 * limit) is waited out for its `Retry-After`. A wrong signature rejects with the server's `BadRequestError`
 * (the account is then UNVERIFIED; calling again starts over).
 */
export async function verifyOwnership(
  calls: OwnershipCalls,
  id: string,
  signer: MessageSigner,
  options: VerifyOwnershipOptions = {},
): Promise<ApiResult<ExternalAccount>> {
  const maxAttempts = positive(options.maxAttempts ?? 3, "maxAttempts");
  const maxWaits = options.maxRateLimitWaits ?? 2;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 15 * 60_000;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? delay;
  const request = options.requestOptions;
  let waits = 0;
  let lastExpiry: unknown;
  for (let attempt = 0; attempt < maxAttempts; ) {
    options.signal?.throwIfAborted();
    let challenge: WalletSignatureChallenge;
    try {
      challenge = await calls.challenge(id, "WALLET_SIGNATURE", request);
    } catch (error) {
      const waitMs = (error instanceof RateLimitError ? (error.retryAfterSeconds ?? 1) : Number.NaN) * 1000;
      if (!(waitMs <= maxRetryAfterMs) || waits >= maxWaits) throw error;
      waits++;
      await sleep(waitMs, options.signal);
      continue;
    }
    attempt++;
    const signature = await signer(challenge.messageToSign, challenge);
    if (typeof signature !== "string" || signature === "")
      throw new TypeError("The signer must return the signature as a non-empty string.");
    if (now() >= Date.parse(challenge.expiresAt)) {
      lastExpiry = undefined;
      continue;
    }
    const body: VerifyOwnershipBody = { signature };
    if (options.signatureScheme) body.signatureScheme = options.signatureScheme;
    try {
      return await calls.verify(id, body, request);
    } catch (error) {
      if (!expiredOnServer(error)) throw error;
      lastExpiry = error;
    }
  }
  throw new PaysvcError({
    code: "OWNERSHIP_CHALLENGE_EXPIRED",
    reason: `Each of ${maxAttempts} WALLET_SIGNATURE challenges expired before its signature was verified.`,
    cause: lastExpiry,
  });
}

/**
 * Resolves with the account once it leaves PENDING_OWNERSHIP_VERIFICATION (`ACTIVE` or `UNVERIFIED`):
 * by polling `GET`, or earlier when `webhookEvents` delivers the `EXTERNAL_ACCOUNT.STATUS_UPDATED` that
 * says so. Events older than the account as first read (by `data.updatedAt`) are ignored, since
 * webhooks may arrive out of order. Call it after starting the LIVENESS challenge.
 */
export async function waitForLivenessOutcome(
  calls: Pick<OwnershipCalls, "get">,
  id: string,
  options: WaitForLivenessOutcomeOptions = {},
): Promise<ExternalAccount> {
  const timeoutMs = positive(options.timeoutMs ?? 30 * 60_000, "timeoutMs");
  const pollIntervalMs = positive(options.pollIntervalMs ?? 5_000, "pollIntervalMs");
  options.signal?.throwIfAborted();
  const first = await calls.get(id, options.requestOptions);
  if (first.status !== PENDING) return first;
  const since = first.updatedAt;
  const stop = new AbortController();
  return new Promise<ExternalAccount>((resolve, reject) => {
    let iterator: AsyncIterator<WebhookEvent> | undefined;
    const finish = (settle: () => void) => {
      if (stop.signal.aborted) return;
      stop.abort();
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      iterator?.return?.()?.catch(() => undefined);
      settle();
    };
    const onAbort = () => finish(() => reject(options.signal?.reason));
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new PaysvcError({
              code: "LIVENESS_OUTCOME_TIMEOUT",
              reason: `External account ${id} was still ${PENDING} after ${timeoutMs} ms.`,
            }),
          ),
        ),
      timeoutMs,
    );
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const poll = async () => {
      while (!stop.signal.aborted) {
        await delay(pollIntervalMs, stop.signal);
        if (stop.signal.aborted) return;
        const account = await calls.get(id, options.requestOptions);
        if (account.status !== PENDING) return finish(() => resolve(account));
      }
    };
    poll().catch((error: unknown) => finish(() => reject(error)));

    const events = options.webhookEvents;
    if (events) {
      const listen = async () => {
        iterator = events[Symbol.asyncIterator]();
        while (!stop.signal.aborted) {
          const next = await iterator.next();
          if (next.done) return;
          const data = next.value.data as Partial<ExternalAccount> | undefined;
          if (
            next.value.type === "EXTERNAL_ACCOUNT.STATUS_UPDATED" &&
            data?.id === id &&
            typeof data.status === "string" &&
            data.status !== PENDING &&
            typeof data.updatedAt === "string" &&
            data.updatedAt >= since
          )
            return finish(() => resolve(data as ExternalAccount));
        }
      };
      listen().catch((error: unknown) => finish(() => reject(error)));
    }
  });
}
