import type { FastifyInstance, FastifyRequest } from "fastify";
import { API_VERSION } from "../core/http/version.js";

/** One answered API request as `paysvc logs tail` shows it: never a query string, header or body. */
export interface RequestLogEntry {
  seq: number;
  at: string;
  method: string;
  /** The path after the version prefix, with credential-like path parameters (`:token`) masked. */
  path: string;
  status: number;
  latencyMs: number;
  requestId: string;
}

/** How many answered requests are kept per platform. */
export const REQUEST_LOG_SIZE = 1000;

// The log's own reads would fill it: they are not recorded.
const LOG_PATH = "/sandbox/request-log";
const prefix = `/${API_VERSION}`;

/** The request's path without its query, version prefix or any path parameter that is a credential. */
function shownPath(request: FastifyRequest): string {
  let path = (request.url.split("?")[0] ?? "").replace(/^\/+/, "/");
  if (path.startsWith(`${prefix}/`)) path = path.slice(prefix.length);
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params))
    if (/token|secret|code/i.test(name) && typeof value === "string" && value)
      path = path
        .split(`/${encodeURIComponent(value)}`)
        .join(`/:${name}`)
        .split(`/${value}`)
        .join(`/:${name}`);
  return path;
}

/**
 * The sandbox's request log: each platform's last REQUEST_LOG_SIZE answered requests, in this process's
 * memory (a restart empties it; on PostgreSQL each server process has its own). Only requests whose
 * caller is known are kept, under the caller's platform, so a platform reads its own requests only.
 */
export class RequestLog {
  readonly #entries = new Map<string, RequestLogEntry[]>();
  #seq = 0;

  /** Records every answered request of an authenticated caller (an `onResponse` hook on `app`). */
  attach(app: FastifyInstance): void {
    app.addHook("onResponse", (request, reply, done) => {
      const platformId = request.caller?.platformId;
      const path = platformId ? shownPath(request) : LOG_PATH;
      if (platformId && path !== LOG_PATH) {
        this.add(platformId, {
          at: new Date().toISOString(),
          method: request.method,
          path,
          status: reply.statusCode,
          latencyMs: Math.round(reply.elapsedTime * 10) / 10,
          requestId: String(request.id),
        });
      }
      done();
    });
  }

  add(platformId: string, entry: Omit<RequestLogEntry, "seq">): void {
    const entries = this.#entries.get(platformId) ?? [];
    this.#seq += 1;
    entries.push({ seq: this.#seq, ...entry });
    if (entries.length > REQUEST_LOG_SIZE) entries.splice(0, entries.length - REQUEST_LOG_SIZE);
    this.#entries.set(platformId, entries);
  }

  /** The platform's entries after `after` (oldest first, at most `limit`), and the cursor to ask next. */
  since(platformId: string, after: number, limit: number): { data: RequestLogEntry[]; next: number } {
    const data = (this.#entries.get(platformId) ?? []).filter((e) => e.seq > after).slice(0, limit);
    return { data, next: data.at(-1)?.seq ?? Math.max(after, 0) };
  }

  /** The cursor of the newest entry: `logs tail` starts there, showing only requests made from now on. */
  latest(): number {
    return this.#seq;
  }
}
