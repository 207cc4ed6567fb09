import { AuthenticationError, PaysvcError, RateLimitError } from "../core/errors.js";
import type { ApiResult, RequestOptions, RequestSender } from "../core/request.js";
import { backoffMs } from "../core/retry.js";
import { type SigningKey, stamp } from "./crypto.js";
import type { SignedRetryChallenge, WalletOperationProcessing } from "./types.js";

/** A signed action: sent as is on the first call, and identically (plus the signature headers) on the retry. */
export interface SignedRequest {
  method: "POST" | "PATCH" | "DELETE";
  /** Relative to the client's base URL, ids URI-encoded, e.g. `/auth/credentials`. */
  path: string;
  /** The JSON body; omit for `DELETE`. */
  body?: unknown;
}

/** Knobs of `signedRetry` and of the `paysvc.wallet` flows built on it; every bound has a default. */
export interface SignedRetryOptions {
  /**
   * Operations to start in all when a challenge expires before its signed retry settles (checked against
   * `expiresAt` before signing, or answered `401 WALLET_SIGNATURE_INVALID` "expired"). Default 3.
   */
  maxOperations?: number;
  /** Identical re-sends of the signed request while the service answers PROCESSING. Default 20 (about 1.5 min). */
  maxProcessingResends?: number;
  /** `429` answers to wait out (their `Retry-After`) over the whole call. Default 2. */
  maxRateLimitWaits?: number;
  /** The longest `Retry-After` waited out; a longer one rejects with the `RateLimitError`. Default 15 minutes. */
  maxRetryAfterMs?: number;
  /** Cancels the call between requests, including a wait. */
  signal?: AbortSignal;
  /** The clock `expiresAt` is compared with (ms since the epoch). Default `Date.now`. */
  now?: () => number;
  /** How waits (backoff, `Retry-After`) happen. Default a timer; tests may advance a sandbox clock instead. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called with each `202` before it is signed; `operation` counts from 1. */
  onChallenge?: (challenge: SignedRetryChallenge, operation: number) => void | Promise<void>;
  /** Called with each PROCESSING answer before the identical signed request is re-sent; `resend` counts from 1. */
  onProcessing?: (processing: WalletOperationProcessing, resend: number) => void | Promise<void>;
  /** Per-request options for every call (timeouts, transport retries). No idempotency key is ever sent. */
  requestOptions?: Omit<RequestOptions, "idempotencyKey">;
}

const DEFAULT_MAX_OPERATIONS = 3;
const DEFAULT_MAX_PROCESSING_RESENDS = 20;
const DEFAULT_MAX_RATE_LIMIT_WAITS = 2;
const DEFAULT_MAX_RETRY_AFTER_MS = 15 * 60_000;

/** Waits `ms`, or less if `signal` aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
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

function count(value: number | undefined, fallback: number, name: string, min: number): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < min) throw new TypeError(`${name} must be an integer ≥ ${min}`);
  return n;
}

/** The `401 WALLET_SIGNATURE_INVALID` whose reason says the challenge expired: a fresh operation must start. */
export function isExpiredChallenge(error: unknown): error is AuthenticationError {
  return (
    error instanceof AuthenticationError &&
    error.code === "WALLET_SIGNATURE_INVALID" &&
    /\bexpired\b/i.test(error.reason)
  );
}

/** Endpoints whose success is `201`/`204`, so a `200` alone means PROCESSING (interface rule 2). */
const PROCESSING_BY_STATUS = [
  /^POST \/auth\/credentials$/,
  /^DELETE \/auth\/credentials\/[^/]+$/,
  /^POST \/auth\/sessions\/[^/]+\/refresh$/,
  /^DELETE \/auth\/sessions\/[^/]+$/,
];

/** Whether an answer means "still settling" (interface "Handling a still-processing response" 2). */
export function isProcessing(request: SignedRequest, result: ApiResult<object>): boolean {
  if (result.lastResponse.status !== 200) return false;
  if ((result as { status?: unknown }).status === "PROCESSING") return true;
  const route = `${request.method} ${request.path.split("?")[0]}`;
  return PROCESSING_BY_STATUS.some((pattern) => pattern.test(route));
}

/** Shared by the calls of one flow: `429` waits are counted across them. */
export class WaitBudget {
  #waits = 0;
  readonly #max: number;
  readonly #maxRetryAfterMs: number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #signal: AbortSignal | undefined;

  constructor(options: SignedRetryOptions) {
    this.#max = count(options.maxRateLimitWaits, DEFAULT_MAX_RATE_LIMIT_WAITS, "maxRateLimitWaits", 0);
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.#sleep = options.sleep ?? delay;
    this.#signal = options.signal;
  }

  async sleep(ms: number): Promise<void> {
    await this.#sleep(ms, this.#signal);
    this.#signal?.throwIfAborted();
  }

  /**
   * Runs `call`; a `429` is waited out for its `Retry-After` (1 s when absent) and `call` runs again,
   * within the budget. The request sender already waits out short hints itself; what reaches here is
   * a hint it would not wait for (over 60 s) or one it already tried.
   */
  async run<T>(call: () => Promise<T>): Promise<T> {
    for (;;) {
      this.#signal?.throwIfAborted();
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof RateLimitError)) throw error;
        const waitMs = (error.retryAfterSeconds ?? 1) * 1000;
        if (this.#waits >= this.#max || waitMs > this.#maxRetryAfterMs) throw error;
        this.#waits++;
        await this.sleep(waitMs);
      }
    }
  }
}

/** Sends `request` once through the SDK's request sender: no Idempotency-Key, the given extra headers. */
export function sendWalletRequest<T extends object>(
  sender: RequestSender,
  request: SignedRequest,
  headers: Record<string, string> | undefined,
  options: SignedRetryOptions,
): Promise<ApiResult<T>> {
  return sender.send<T>(request.method, request.path, {
    body: request.body,
    walletAuth: true,
    ...(headers ? { headers } : {}),
    options: options.requestOptions,
  });
}

/**
 * Re-sends the identical request (same body and headers) while it answers PROCESSING, with jittered
 * backoff, up to `maxProcessingResends`; resolves with the terminal answer.
 */
export async function untilSettled<T extends object>(
  sender: RequestSender,
  request: SignedRequest,
  headers: Record<string, string> | undefined,
  first: ApiResult<object>,
  options: SignedRetryOptions,
  budget: WaitBudget,
): Promise<ApiResult<T>> {
  const maxResends = count(
    options.maxProcessingResends,
    DEFAULT_MAX_PROCESSING_RESENDS,
    "maxProcessingResends",
    0,
  );
  let result = first;
  for (let resend = 1; isProcessing(request, result); resend++) {
    if (resend > maxResends)
      throw new PaysvcError({
        code: "WALLET_OPERATION_STILL_PROCESSING",
        reason: `${request.method} ${request.path} was still PROCESSING after ${maxResends} re-sends; the service completes it on its own (see the list endpoints), or re-send the identical signed request later.`,
        status: result.lastResponse.status,
        requestId: result.lastResponse.requestId,
        details: { walletRequestId: headers?.["request-id"] },
      });
    await options.onProcessing?.(result as unknown as WalletOperationProcessing, resend);
    await budget.sleep(backoffMs(resend - 1));
    result = await budget.run(() => sendWalletRequest(sender, request, headers, options));
  }
  return result as ApiResult<T>;
}

/**
 * The signed-retry pattern for any signed endpoint (conventions §5.3, interface "Signed-retry operation"):
 * sends `request` without signature headers; on `202` stamps `payloadToSign` with `key` and sends the
 * identical request with `Service-Wallet-Signature` and `Request-Id`; while the answer is PROCESSING it
 * re-sends that identical signed request with backoff until terminal; a `429` is waited out for its
 * `Retry-After`; a challenge that expired (locally, or `401 WALLET_SIGNATURE_INVALID` "expired") starts a
 * fresh operation. A first answer other than `202` (e.g. a PATCH that needs no signature) is the result.
 * Never sends an Idempotency-Key (conventions §1.8). Errors reject as the SDK's typed `PaysvcError`s.
 */
export async function signedRetry<T extends object>(
  sender: RequestSender,
  request: SignedRequest,
  key: SigningKey,
  options: SignedRetryOptions = {},
  budget: WaitBudget = new WaitBudget(options),
): Promise<ApiResult<T>> {
  const maxOperations = count(options.maxOperations, DEFAULT_MAX_OPERATIONS, "maxOperations", 1);
  const now = options.now ?? Date.now;
  let lastExpiry: unknown;
  for (let operation = 1; operation <= maxOperations; operation++) {
    const first = await budget.run(() => sendWalletRequest<object>(sender, request, undefined, options));
    if (first.lastResponse.status !== 202)
      return untilSettled<T>(sender, request, undefined, first, options, budget);
    const challenge = first as ApiResult<SignedRetryChallenge>;
    await options.onChallenge?.(challenge, operation);
    options.signal?.throwIfAborted();
    if (now() >= Date.parse(challenge.expiresAt)) {
      lastExpiry = undefined;
      continue;
    }
    const headers = {
      "service-wallet-signature": stamp(challenge.payloadToSign, key.privateKey),
      "request-id": challenge.requestId,
    };
    try {
      const signed = await budget.run(() => sendWalletRequest<object>(sender, request, headers, options));
      return await untilSettled<T>(sender, request, headers, signed, options, budget);
    } catch (error) {
      if (!isExpiredChallenge(error)) throw error;
      lastExpiry = error;
    }
  }
  throw new PaysvcError({
    code: "WALLET_CHALLENGE_EXPIRED",
    reason: `Each of ${maxOperations} signed-retry challenges of ${request.method} ${request.path} expired before its signed retry settled.`,
    cause: lastExpiry,
  });
}
