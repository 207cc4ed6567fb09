import { outboundRequest, preflight } from "./request.js";
import type { TargetPolicy } from "./targets.js";

/** The shape of `fetch` that jose's `customFetch` calls (a GET with headers and an abort signal). */
export type SmallFetch = (
  url: string,
  init: { method?: string; headers?: Headers; signal?: AbortSignal; body?: string },
) => Promise<Response>;

/** Statuses whose Response may not carry a body. */
const bodiless = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for small documents (OIDC key sets, UMA messages) that goes through the outbound agents of the policy
 * read at call time: no redirect is followed, and a body longer than `maxBytes` is an error rather than
 * memory held. Failures reject with an error naming only its class.
 */
export function outboundFetch(policy: () => TargetPolicy, maxBytes: number): SmallFetch {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const current = policy();
      const checked = preflight(url, current);
      if ("error" in checked) return reject(new Error(checked.error));
      const headers: Record<string, string> = {};
      init.headers?.forEach((value, name) => {
        headers[name] = value;
      });
      const req = outboundRequest(checked.url, current, {
        method: init.method ?? "GET",
        headers,
        ...(init.signal ? { signal: init.signal } : {}),
      });
      req.on("error", reject);
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return req.destroy(new Error("RESPONSE_TOO_LARGE"));
          chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("end", () => {
          try {
            const status = res.statusCode ?? 0;
            resolve(new Response(bodiless.has(status) ? null : Buffer.concat(chunks), { status }));
          } catch (error) {
            reject(error);
          }
        });
      });
      req.end(init.body);
    });
}
