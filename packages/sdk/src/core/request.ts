import { ConnectionError, errorFromResponse, PaysvcError } from "./errors.js";
import { parseRetryAfter, retryDelayMs } from "./retry.js";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** Per-call overrides, accepted as the last argument of every resource method. */
export interface RequestOptions {
  /**
   * POST only. Defaults to a fresh UUID v4 per call, reused by that call's own retries. Pass your own to
   * make a retry after a crash of your process the same request (conventions §1.8).
   */
  idempotencyKey?: string;
  /** Overrides the client's `timeoutMs` for this call (each attempt gets the full time). */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
}

/** The response a result came from. */
export interface ResponseMeta {
  /** The response's `X-Request-Id`: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  readonly status: number;
}

/**
 * A result is the parsed response body plus a non-enumerable `lastResponse` (`{requestId, status}`), as in
 * the Stripe SDK. It is not enumerable so that the body prints, compares and serializes as sent, and not
 * named `requestId` because signed-retry bodies carry a `requestId` field of their own (conventions §5.3).
 * `lastResponse` does not survive a spread (`{...customer}`); read it from the result itself.
 */
export type ApiResult<T> = T & { readonly lastResponse: ResponseMeta };

/** The result of a `204` answer (deletes): no body, only `lastResponse`. */
export type EmptyResult = ApiResult<Record<string, never>>;

export interface SenderConfig {
  /** Including the version segment, without a trailing slash. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Sent instead of the Basic credentials (an agent's `Bearer` access token). */
  authorization?: string;
  maxRetries: number;
  timeoutMs: number;
  fetch: typeof fetch;
}

/**
 * `encodeURIComponent`s every interpolated value: ids contain `:` (`Customer:<uuid>`). An empty id is
 * refused, since `/customers/` would silently read the list route.
 */
export function path(strings: TemplateStringsArray, ...segments: string[]): string {
  return strings.reduce((out, text, i) => {
    if (i >= segments.length) return out + text;
    const segment = segments[i];
    if (typeof segment !== "string" || segment === "")
      throw new TypeError("An id must be a non-empty string.");
    return out + text + encodeURIComponent(segment);
  }, "");
}

function basicAuthorization(clientId: string, clientSecret: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(`${clientId}:${clientSecret}`))
    binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

function queryString(query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [key, given] of Object.entries(query ?? {})) {
    // An array is sent form-exploded, one `key=value` per element (`destinationCurrency` of exchange rates).
    for (const value of Array.isArray(given) ? given : [given]) {
      if (value === undefined) continue;
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
        throw new TypeError(`Query parameter ${key} must be a string, number, boolean or an array of them.`);
      }
      params.append(key, String(value));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The caller's key, checked against conventions §1.8 (1–255 printable ASCII), or a fresh UUID v4. */
function idempotencyKey(given: string | undefined): string {
  if (given === undefined) return crypto.randomUUID();
  if (!/^[\x20-\x7e]{1,255}$/.test(given)) {
    throw new TypeError("idempotencyKey must be 1 to 255 printable ASCII characters.");
  }
  return given;
}

/** Extra headers by lowercase name, so they cannot shadow the sender's own (`authorization`, …) by case. */
function lowercaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function parseBody(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** What `send` sends besides the method and path. */
export interface SendInput {
  query?: object;
  body?: unknown;
  /** A multipart/form-data body (a file upload), sent instead of a JSON `body`; fetch sets its boundary. */
  form?: FormData;
  options?: RequestOptions | undefined;
  /** Extra request headers (a signed retry's `Service-Wallet-Signature` and `Request-Id`). */
  headers?: Record<string, string>;
  /**
   * An embedded-wallet authentication call (conventions §1.8, §5.3): no `Idempotency-Key` is sent, since
   * signed-retry endpoints take none, and the call counts as safe to repeat, since the service correlates an
   * identical request with the same operation.
   */
  walletAuth?: boolean;
  /**
   * The route takes no `Idempotency-Key` (an agent's own routes, docs/decisions/agents.md): none is sent,
   * so a POST is not repeated after a 5xx.
   */
  noIdempotencyKey?: boolean;
}

interface Attempt {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  payload: string | FormData | undefined;
  timeoutMs: number;
}

/** The only code that speaks HTTP: auth, JSON, idempotency keys, timeouts, retries and error mapping. */
export class RequestSender {
  readonly #config: SenderConfig;
  readonly #authorization: string;

  constructor(config: SenderConfig) {
    this.#config = config;
    this.#authorization = config.authorization ?? basicAuthorization(config.clientId, config.clientSecret);
  }

  /** Retries after the first attempt that the client allows (the `maxRetries` option). */
  get maxRetries(): number {
    return this.#config.maxRetries;
  }

  /** Sends one API call, retrying as `retryDelayMs` allows; resolves with the body or rejects with a PaysvcError. */
  async send<T extends object>(
    method: HttpMethod,
    resourcePath: string,
    input: SendInput = {},
  ): Promise<ApiResult<T>> {
    const options = input.options ?? {};
    const headers: Record<string, string> = {
      ...lowercaseKeys(input.headers),
      accept: "application/json",
      authorization: this.#authorization,
    };
    if (input.body !== undefined) headers["content-type"] = "application/json";
    // One key per call, shared by its retries, so the server can recognise a repeat (conventions §1.8).
    if (method === "POST" && !input.walletAuth && !input.noIdempotencyKey)
      headers["idempotency-key"] = idempotencyKey(options.idempotencyKey);
    const attempt: Attempt = {
      method,
      url: `${this.#config.baseUrl}${resourcePath}${queryString(input.query)}`,
      headers,
      payload: input.form ?? (input.body === undefined ? undefined : JSON.stringify(input.body)),
      timeoutMs: options.timeoutMs ?? this.#config.timeoutMs,
    };
    const safeToRepeat =
      method === "GET" ||
      method === "DELETE" ||
      input.walletAuth === true ||
      headers["idempotency-key"] !== undefined;
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    for (let retries = 0; ; retries++) {
      const outcome = await this.#attempt<T>(attempt);
      if (!(outcome instanceof PaysvcError)) return outcome;
      const delay = retries < maxRetries ? retryDelayMs(outcome, safeToRepeat, retries) : undefined;
      if (delay === undefined) throw outcome;
      await sleep(delay);
    }
  }

  async #attempt<T extends object>(attempt: Attempt): Promise<ApiResult<T> | PaysvcError> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), attempt.timeoutMs);
    const noResponse = (cause: unknown, requestId?: string) =>
      controller.signal.aborted
        ? new ConnectionError({
            code: "TIMEOUT",
            reason: `No response within ${attempt.timeoutMs} ms.`,
            cause,
            requestId,
          })
        : new ConnectionError({
            code: "CONNECTION_ERROR",
            reason: `Could not reach ${attempt.url}.`,
            cause,
            requestId,
          });
    try {
      let response: Response;
      try {
        response = await this.#config.fetch(attempt.url, {
          method: attempt.method,
          headers: attempt.headers,
          signal: controller.signal,
          ...(attempt.payload === undefined ? {} : { body: attempt.payload }),
        });
      } catch (cause) {
        return noResponse(cause);
      }
      const requestId = response.headers.get("x-request-id") ?? undefined;
      let text: string;
      try {
        text = await response.text();
      } catch (cause) {
        return noResponse(cause, requestId);
      }
      const body = parseBody(text);
      const meta: ResponseMeta = { requestId, status: response.status };
      if (!response.ok) {
        return errorFromResponse(response.status, body.ok ? body.value : undefined, {
          requestId,
          retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")),
          statusText: response.statusText,
        });
      }
      const value = body.ok ? (body.value ?? {}) : undefined;
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return new PaysvcError({
          code: "INVALID_RESPONSE",
          reason: `The ${response.status} response body is not a JSON object.`,
          status: response.status,
          requestId,
        });
      }
      Object.defineProperty(value, "lastResponse", { value: meta, enumerable: false });
      return value as ApiResult<T>;
    } finally {
      clearTimeout(timer);
    }
  }
}
