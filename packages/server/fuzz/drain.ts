import type { Server } from "node:http";
import { connect, parseAnswer } from "../test/foundation/raw-http.js";
import type { FuzzRequest, Violation } from "./fuzzer.js";
import { httpBytes } from "./http-bytes.js";

/** What the drain phase needs of the running service. */
export interface DrainTarget {
  origin: string;
  baseUrl: string;
  /** The Node server under the app: its `request` events say the in-flight requests have arrived. */
  server: Server;
  /** Starts the shutdown drain and resolves when the app is closed. */
  close: () => Promise<void>;
  /** Basic credentials of the primary platform. */
  authorization: string;
}

const requestIdPattern = /^req_[0-9a-f]{32}$/;

/**
 * Issue 15 item 9 as a fuzz phase, run last since it closes the app: each connection has a request in
 * flight (headers sent, body not yet) when the drain starts; then it sends that body and one generated
 * request. The in-flight one must complete (201), and the generated one, whatever it is, must be
 * `503 SERVICE_UNAVAILABLE` in the catalogue's body with Retry-After and X-Request-Id (Fastify answered
 * it in its own body, without them).
 */
export async function fuzzDrain(target: DrainTarget, generated: FuzzRequest[]): Promise<Violation[]> {
  // Whole requests only, with a URL well inside the header limit (else the parser's 400 answers first).
  const requests = generated.filter((r) => r.bytes === undefined && r.url.length < 8_000).slice(0, 8);
  const base = new URL(target.baseUrl).pathname;
  const body = JSON.stringify({ customerType: "INDIVIDUAL" });
  const inFlight = httpBytes({
    method: "POST",
    target: `${base}/customers`,
    headers: { authorization: target.authorization, "content-type": "application/json" },
    body,
  });
  const connections = await Promise.all(requests.map(() => connect(target.origin)));
  let arrived = 0;
  const allArrived = new Promise<void>((resolve) => {
    const onRequest = () => {
      if (++arrived < requests.length) return;
      target.server.off("request", onRequest);
      resolve();
    };
    target.server.on("request", onRequest);
  });
  for (const { socket } of connections) socket.write(inFlight[0] as string);
  await allArrived;
  const closing = target.close();
  while (target.server.listening) await new Promise((resolve) => setImmediate(resolve));
  const violations: Violation[] = [];
  await Promise.all(
    connections.map(async ({ socket, answers }, i) => {
      const request = requests[i] as FuzzRequest;
      // Only the request's credentials and content type: its other generated headers test other rules.
      const headers: Record<string, string> = {};
      for (const name of ["authorization", "content-type"])
        if (request.headers[name] !== undefined) headers[name] = request.headers[name] as string;
      const url = new URL(request.url);
      socket.write(body);
      for (const part of httpBytes({
        method: request.method,
        target: `${url.pathname}${url.search}`,
        headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      }))
        socket.write(part);
      const broken = await answers(2).then(
        (text) => checkDrained(text),
        (error: unknown) => [`connection failed during the drain: ${String(error)}`],
      );
      socket.destroy();
      if (broken.length)
        violations.push({ rule: broken.join("; "), request, status: 0, response: "(see rule)" });
    }),
  );
  await closing;
  return violations;
}

function checkDrained(text: string): string[] {
  const second = text.indexOf("HTTP/1.1", 1);
  if (!text.startsWith("HTTP/1.1") || second < 0) return [`expected two answers, got ${text.slice(0, 300)}`];
  const first = parseAnswer(text);
  const refused = parseAnswer(text.slice(second));
  const broken: string[] = [];
  if (first.status !== 201) broken.push(`the request in flight answered ${first.status}, not 201`);
  if (refused.status !== 503) broken.push(`a request during the drain answered ${refused.status}, not 503`);
  if (!/^\d+$/.test(refused.headers["retry-after"] ?? "")) broken.push("the 503 has no Retry-After");
  if (!requestIdPattern.test(refused.headers["x-request-id"] ?? ""))
    broken.push("the 503 has no X-Request-Id");
  try {
    const body = JSON.parse(refused.body) as Record<string, unknown>;
    const keys = Object.keys(body).sort().join(",");
    if (body.code !== "SERVICE_UNAVAILABLE" || keys !== "code,reason")
      broken.push(`the 503 body is not the catalogue's SERVICE_UNAVAILABLE: ${refused.body.slice(0, 200)}`);
  } catch {
    broken.push(`the 503 body is not JSON: ${refused.body.slice(0, 200)}`);
  }
  return broken;
}
