import type { ClientRequest } from "node:http";
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

/** A kept-alive socket the peer closed just as it was reused fails at once, before any answer. */
const staleSocketCodes = new Set(["ECONNRESET", "EPIPE"]);

/**
 * POSTs the exact body bytes once, to an address `policy` allows (core/outbound: checked on the
 * resolved address the socket connects to). Redirects are never followed (a 3xx is just a status), and
 * a URL that is not http(s), carries credentials or names a refused IP is refused before any socket.
 * A failure is reported as its class only, never the socket's text. A request that failed on a reused
 * kept-alive socket before any answer is sent again, once, within the same total timeout (Node's
 * documented `reusedSocket` case: the peer closed the idle socket as it was picked).
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
  const checked = preflight(url, policy);
  if ("error" in checked) return Promise.resolve({ ok: false, error: checked.error, latencyMs: 0 });
  return new Promise((resolve) => {
    let current: ClientRequest | undefined;
    let timedOut = false;
    // One timer for the whole send, retry included (a timer is far cheaper per request than an AbortSignal).
    const total = setTimeout(() => {
      timedOut = true;
      current?.destroy(timeoutError());
    }, timeouts.totalTimeoutMs);
    const finish = (result: SendResult) => {
      clearTimeout(total);
      resolve(result);
    };
    const fail = (error: unknown) =>
      finish({ ok: false, error: timedOut ? "TIMEOUT" : classifyError(error), latencyMs: latency() });
    const attempt = (retriesLeft: number) => {
      const req = outboundRequest(checked.url, policy, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "x-service-signature": signature,
          "user-agent": "paysvc-webhooks/1",
        },
      });
      current = req;
      let answered = false;
      req.on("socket", (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(() => req.destroy(timeoutError()), timeouts.connectTimeoutMs);
        socket.once("connect", () => clearTimeout(timer));
        socket.once("close", () => clearTimeout(timer));
      });
      req.on("error", (error: NodeJS.ErrnoException) => {
        const stale = req.reusedSocket && !answered && staleSocketCodes.has(error.code ?? "");
        if (stale && retriesLeft > 0 && !timedOut) return attempt(retriesLeft - 1);
        fail(error);
      });
      req.on("response", (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
          size += chunk.length;
        });
        res.on("error", fail);
        res.on("end", () => {
          const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString("utf8");
          finish({ ok: true, status: res.statusCode ?? 0, body: text, latencyMs: latency() });
        });
      });
      req.end(body);
    };
    attempt(1);
  });
}
