/**
 * A small fetch client for the paysvc API, as any integration would call it: HTTP Basic with the
 * platform's credentials, JSON in and out, errors in the service's error body. `credentials: "omit"`
 * keeps the browser from adding or prompting for its own credentials.
 */
import { PaysvcError } from "../../sdk/src/core/errors.js";
import type { Credentials } from "./session.js";

/** The API's base path, written into the page by the server (its version segment). */
export function apiBase(): string {
  const meta = document.querySelector('meta[name="paysvc-api-base"]')?.getAttribute("content");
  return meta ?? "";
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount?: number;
}

type Query = Record<string, string | number | undefined>;

export class Api {
  readonly #authorization: string;

  constructor(
    credentials: Credentials,
    readonly base = apiBase(),
  ) {
    const pair = new TextEncoder().encode(`${credentials.clientId}:${credentials.clientSecret}`);
    this.#authorization = `Basic ${btoa(String.fromCharCode(...pair))}`;
  }

  async request<T>(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown } = {},
  ): Promise<T> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) search.set(key, String(value));
    }
    const qs = search.size > 0 ? `?${search}` : "";
    const headers: Record<string, string> = {
      accept: "application/json",
      authorization: this.#authorization,
    };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${this.base}${path}${qs}`, {
      method,
      headers,
      credentials: "omit",
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    const body: unknown = text ? JSON.parse(text) : {};
    if (!response.ok) {
      const error = body as { code?: string; reason?: string; details?: Record<string, unknown> };
      const header = response.headers.get("retry-after");
      const retryAfter = header === null ? Number.NaN : Number(header);
      throw new PaysvcError({
        code: error.code ?? `HTTP_${response.status}`,
        reason: error.reason ?? response.statusText,
        details: error.details,
        status: response.status,
        requestId: response.headers.get("x-request-id") ?? undefined,
        retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
      });
    }
    // The SDK's result shape: the body plus a non-enumerable `lastResponse`.
    if (body && typeof body === "object") {
      Object.defineProperty(body, "lastResponse", {
        value: { requestId: response.headers.get("x-request-id") ?? undefined, status: response.status },
        enumerable: false,
      });
    }
    return body as T;
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>("GET", path, query ? { query } : {});
  }

  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.request<T>("POST", path, { body });
  }
}

/** A path segment, encoded. */
export const seg = (value: string) => encodeURIComponent(value);
