import type { WebhookTimeouts } from "../core/deps.js";
import {
  classifyError,
  type OutboundErrorClass,
  outboundRequest,
  preflight,
  timeoutError,
} from "../core/outbound/request.js";
import type { TargetPolicy } from "../core/outbound/targets.js";

/** The conventions §7.1 timeouts: 5 s to connect, 15 s in total. */
export const DEFAULT_WEBHOOK_TIMEOUTS: WebhookTimeouts = { connectTimeoutMs: 5_000, totalTimeoutMs: 15_000 };

/** The response body kept for the sandbox test answer (conventions §7.3: cut at 4 KiB). */
export const RESPONSE_BODY_LIMIT = 4096;

export type SendResult =
  | { ok: true; status: number; body: string; latencyMs: number }
  | { ok: false; error: OutboundErrorClass; latencyMs: number };

/**
 * POSTs the exact body bytes once, to an address `policy` allows (core/outbound: checked on the
 * resolved address the socket connects to). Redirects are never followed (a 3xx is just a status), and
 * a URL that is not http(s), carries credentials or names a refused IP is refused before any socket.
 * A failure is reported as its class only, never the socket's text.
 */
export function postWebhook(
  url: string,
  body: string,
  signature: string,
  timeouts: WebhookTimeouts,
  policy: TargetPolicy,
): Promise<SendResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const checked = preflight(url, policy);
    if ("error" in checked) return resolve({ ok: false, error: checked.error, latencyMs: 0 });
    const fail = (error: unknown) =>
      resolve({ ok: false, error: classifyError(error), latencyMs: latency() });
    const req = outboundRequest(checked.url, policy, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "x-service-signature": signature,
        "user-agent": "paysvc-webhooks/1",
      },
      signal: AbortSignal.timeout(timeouts.totalTimeoutMs),
    });
    req.on("socket", (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => req.destroy(timeoutError()), timeouts.connectTimeoutMs);
      socket.once("connect", () => clearTimeout(timer));
      socket.once("close", () => clearTimeout(timer));
    });
    req.on("error", fail);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
      });
      res.on("error", fail);
      res.on("end", () => {
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString("utf8");
        resolve({ ok: true, status: res.statusCode ?? 0, body: text, latencyMs: latency() });
      });
    });
    req.end(body);
  });
}
