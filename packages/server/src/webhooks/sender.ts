import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

/** Webhook sender timeouts (conventions §7.1): 5 s to connect, 15 s in total. Tests shorten them. */
export interface WebhookTimeouts {
  connectTimeoutMs: number;
  totalTimeoutMs: number;
}

export const DEFAULT_WEBHOOK_TIMEOUTS: WebhookTimeouts = { connectTimeoutMs: 5_000, totalTimeoutMs: 15_000 };

/** The response body kept for the sandbox test answer (conventions §7.3: cut at 4 KiB). */
export const RESPONSE_BODY_LIMIT = 4096;

export type SendResult =
  | { ok: true; status: number; body: string; latencyMs: number }
  | { ok: false; error: string; latencyMs: number };

/**
 * POSTs the exact body bytes once. Redirects are never followed (a 3xx is just a status), and a URL that
 * is not http(s) is refused before any connection is made.
 */
export function postWebhook(
  url: string,
  body: string,
  signature: string,
  timeouts: WebhookTimeouts,
): Promise<SendResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ ok: false, error: "invalid URL", latencyMs: 0 });
    }
    if (target.protocol !== "http:" && target.protocol !== "https:")
      return resolve({ ok: false, error: `refused scheme ${target.protocol}`, latencyMs: 0 });
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const fail = (error: string) => resolve({ ok: false, error, latencyMs: latency() });
    const req = send(target, {
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
      const timer = setTimeout(() => req.destroy(new Error("connect timeout")), timeouts.connectTimeoutMs);
      socket.once("connect", () => clearTimeout(timer));
      socket.once("close", () => clearTimeout(timer));
    });
    req.on("error", (error) => fail(error.name === "AbortError" ? "timeout" : error.message));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
      });
      res.on("error", (error) => fail(error.name === "AbortError" ? "timeout" : error.message));
      res.on("end", () => {
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString("utf8");
        resolve({ ok: true, status: res.statusCode ?? 0, body: text, latencyMs: latency() });
      });
    });
    req.end(body);
  });
}
