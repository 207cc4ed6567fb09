import { createPublicKey, verify } from "node:crypto";
import { expect } from "vitest";
import { type EventType, enqueueEvent } from "../../src/webhooks/outbox.js";
import type { Credentials, TestClient, TestServer } from "../harness.js";
import { type Receiver, type Responder, startReceiver } from "./receiver.js";

/** Polls until `check` passes (or 5 s pass). */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** A fresh platform whose endpoint is a new loopback receiver; the TEST that setting it sends is consumed and recorded. */
export async function platformWithReceiver(
  server: TestServer,
  respond?: Responder,
): Promise<{ platform: Credentials; client: TestClient; receiver: Receiver }> {
  const platform = await server.newPlatform();
  const client = server.client.as(platform);
  let testAnswered = false;
  const receiver = await startReceiver((n, res, received) => {
    if (!testAnswered && received.body.includes('"type":"TEST"')) {
      testAnswered = true;
      return void res.end("ok");
    }
    if (respond) respond(n, res, received);
    else res.end("ok");
  });
  expect((await client.patch("/config", { webhookEndpoint: receiver.url })).status).toBe(200);
  await eventually(() => expect(receiver.received.length).toBe(1));
  // Recorded too: a runner on a clock ahead of the server's would take an unrecorded TEST for abandoned.
  await eventually(async () => {
    const page = await client.get<{ data: { state: string }[] }>("/webhooks/deliveries?state=PENDING");
    expect(page.body.data).toEqual([]);
  });
  receiver.received.length = 0;
  return { platform, client, receiver };
}

/** Writes one event through the outbox in its own (committed) producer transaction. */
export async function produce(
  server: TestServer,
  platformId: string,
  type: EventType = "CARD.STATUS_CHANGE",
) {
  const now = server.deps.clock.now();
  const data = { id: `Card:${crypto.randomUUID()}`, status: "ACTIVE", updatedAt: now.toISOString() };
  return server.db.transaction((tx) => enqueueEvent(tx, { platformId, type, data, now }));
}

export type Jwks = { keys: { kid: string; x: string; y: string; kty: string; crv: string }[] };

/**
 * Verifies a signature header the way conventions §7.2 tells a consumer to (the SDK's verifyWebhook is
 * tested against real deliveries in packages/sdk/test; the server package does not import the SDK).
 */
export function verifySignature(
  body: string,
  header: string,
  keys: Jwks,
  now: Date,
): { id: string; type: string } {
  const parts = Object.fromEntries(
    header.split(",").map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]),
  );
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(parts.t)) > 300) throw new Error("stale t");
  const jwk = keys.keys.find((k) => k.kid === parts.kid);
  if (!jwk) throw new Error(`unknown kid ${parts.kid}`);
  const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y }, format: "jwk" });
  const ok = verify(
    "sha256",
    Buffer.from(`${parts.t}.${body}`),
    { key, dsaEncoding: "der" },
    Buffer.from(String(parts.v1), "base64"),
  );
  if (!ok) throw new Error("bad signature");
  return JSON.parse(body) as { id: string; type: string };
}

/** The key set `client`'s platform reads: every platform has its own. */
export async function jwks(client: TestClient): Promise<Jwks> {
  return (await client.get<Jwks>("/webhooks/signing-keys")).body;
}

/** Verifies a delivery to `client`'s platform against that platform's JWKS at the server's now. */
export async function verified(
  server: TestServer,
  client: TestClient,
  received: { body: string; headers: Record<string, unknown> },
) {
  const header = received.headers["x-service-signature"];
  return verifySignature(received.body, String(header), await jwks(client), server.deps.clock.now());
}

export function signatureT(received: { headers: Record<string, unknown> }): number {
  return Number(/t=(\d+)/.exec(String(received.headers["x-service-signature"]))?.[1]);
}
