import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { eventually, produce } from "./helpers.js";
import { closedPortUrl, startReceiver, status } from "./receiver.js";
import {
  connectionCounter,
  type DeliveryView,
  deliveries,
  fakeDns,
  type OutboundApp,
  startOutboundApp,
} from "./ssrf-helpers.js";

// Issue 16 item 2, at connect time: a name is resolved once, inside the socket's own lookup, and the
// address it answers is checked and then connected to (no DNS rebinding); delivery records and the
// sandbox test answer carry an error class, never the socket's text.

type Failure = { code: string; reason: string };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** The only delivery of a platform that has just set its endpoint (its TEST event), once attempted. */
function attempted(page: { data: DeliveryView[] }): DeliveryView {
  const [delivery] = page.data;
  if (!delivery || delivery.attempts.length === 0) throw new Error("not attempted yet");
  return delivery;
}

describe("connect time: the resolved address is checked and is the one connected to (issue 16)", () => {
  let app: OutboundApp;
  const dns = fakeDns({
    "hooks.partner.test": ["127.0.0.1"],
    "mixed.partner.test": ["127.0.0.1", "93.184.215.14"],
    "hooks.dev.test": ["127.0.0.1"],
  });
  beforeAll(async () => {
    // Private targets allowed service-wide: production platforms are refused them all the same.
    app = await startOutboundApp(server, { allowPrivateTargets: true, lookup: dns.lookup });
  });
  afterAll(() => app.close());

  test("a production endpoint whose name resolves to loopback is refused at connect time: ADDRESS_NOT_ALLOWED, no socket opened, one lookup", async () => {
    const target = await connectionCounter();
    const { client } = await app.newPlatform("PRODUCTION");
    const url = `https://hooks.partner.test:${target.port}/hooks`;
    expect((await client.patch("/config", { webhookEndpoint: url })).status).toBe(200);
    dns.asked.length = 0;
    await app.runJobs();
    const delivery = attempted(await deliveries(client));
    expect(delivery.attempts.map((a) => [a.statusCode, a.error])).toEqual([[null, "ADDRESS_NOT_ALLOWED"]]);
    expect(dns.asked).toEqual(["hooks.partner.test"]);
    expect(target.connections()).toBe(0);
    await target.close();
  });

  test("a DNS answer that mixes a public and a loopback address is refused whole", async () => {
    const target = await connectionCounter();
    const { client } = await app.newPlatform("PRODUCTION");
    await client.patch("/config", { webhookEndpoint: `https://mixed.partner.test:${target.port}/hooks` });
    await app.runJobs();
    expect(attempted(await deliveries(client)).attempts[0]?.error).toBe("ADDRESS_NOT_ALLOWED");
    expect(target.connections()).toBe(0);
    await target.close();
  });

  test("the vetted address is the one connected to: the name is resolved once and the request reaches that address with the URL's Host", async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    const { client } = await app.newPlatform("SANDBOX");
    dns.asked.length = 0;
    await client.patch("/config", { webhookEndpoint: `http://hooks.dev.test:${port}/hooks` });
    await app.runJobs();
    expect(attempted(await deliveries(client)).state).toBe("DELIVERED");
    expect(receiver.received.map((r) => r.headers.host)).toEqual([`hooks.dev.test:${port}`]);
    expect(dns.asked).toEqual(["hooks.dev.test"]);
    await receiver.close();
  });

  test("a kept-alive connection a sandbox delivery opened is never reused for a production platform: its delivery to the same address is refused", async () => {
    const receiver = await startReceiver();
    const url = `http://hooks.dev.test:${new URL(receiver.url).port}/hooks`;
    const sandbox = await app.newPlatform("SANDBOX");
    expect((await sandbox.client.patch("/config", { webhookEndpoint: url })).status).toBe(200);
    await app.runJobs();
    expect(attempted(await deliveries(sandbox.client)).state).toBe("DELIVERED");
    // Stored directly: PATCH /config wants https outside the sandbox, and the reuse at stake is per scheme.
    const production = await app.newPlatform("PRODUCTION");
    await server.db.query("UPDATE platforms SET webhook_endpoint = $2 WHERE id = $1", [
      production.credentials.platformId,
      url,
    ]);
    await produce(server, production.credentials.platformId);
    await app.runJobs();
    expect(attempted(await deliveries(production.client)).attempts[0]?.error).toBe("ADDRESS_NOT_ALLOWED");
    expect([receiver.received.length, receiver.connections()]).toEqual([1, 1]);
    await receiver.close();
  });

  test("a production endpoint stored before the rule, at localhost, is refused when sent: ADDRESS_NOT_ALLOWED, no socket opened", async () => {
    const target = await connectionCounter();
    const platform = await server.newPlatform("PRODUCTION");
    const client = server.client.as(platform);
    await server.db.query("UPDATE platforms SET webhook_endpoint = $2 WHERE id = $1", [
      platform.platformId,
      `https://localhost:${target.port}/hooks`,
    ]);
    await produce(server, platform.platformId);
    await eventually(async () =>
      expect(attempted(await deliveries(client)).attempts[0]?.error).toBe("ADDRESS_NOT_ALLOWED"),
    );
    expect(target.connections()).toBe(0);
    await target.close();
  });
});

describe("sandbox read-back only while private targets are allowed (issue 16)", () => {
  let privateOff: OutboundApp;
  beforeAll(async () => {
    privateOff = await startOutboundApp(server, { allowPrivateTargets: false });
  });
  afterAll(() => privateOff.close());

  test("with private targets off, POST /sandbox/webhooks/test to a stored loopback endpoint -> 400 WEBHOOK_DELIVERY_ERROR and nothing is read back", async () => {
    const target = await connectionCounter();
    const { credentials, client } = await privateOff.newPlatform("SANDBOX");
    await server.db.query("UPDATE platforms SET webhook_endpoint = $2 WHERE id = $1", [
      credentials.platformId,
      `http://127.0.0.1:${target.port}/hooks`,
    ]);
    const res = await client.post<Failure>("/sandbox/webhooks/test");
    expect([res.status, res.body.code]).toEqual([400, "WEBHOOK_DELIVERY_ERROR"]);
    expect(res.body.reason).toMatch(/ADDRESS_NOT_ALLOWED/);
    expect(target.connections()).toBe(0);
    await target.close();
  });
});

describe("delivery errors are classes, never the socket's text (issue 16)", () => {
  async function sandboxWithEndpoint(url: string) {
    const client = server.client.as(await server.newPlatform("SANDBOX"));
    expect((await client.patch("/config", { webhookEndpoint: url })).status).toBe(200);
    return client;
  }

  test("a refused connection is recorded as CONNECTION_REFUSED, and GET /webhooks/deliveries shows no socket text", async () => {
    const client = await sandboxWithEndpoint(await closedPortUrl());
    await eventually(async () =>
      expect(attempted(await deliveries(client)).attempts[0]?.error).toBe("CONNECTION_REFUSED"),
    );
    const page = await deliveries(client);
    expect(page.text).not.toMatch(/ECONNREFUSED|connect /);
    const one = await client.get(`/webhooks/deliveries/${attempted(page).id}`);
    expect(one.text).not.toMatch(/ECONNREFUSED|connect /);
  });

  test("a TLS failure is recorded as TLS_ERROR (https to a plain-HTTP listener)", async () => {
    const receiver = await startReceiver();
    const client = await sandboxWithEndpoint(receiver.url.replace("http:", "https:"));
    await eventually(async () =>
      expect(attempted(await deliveries(client)).attempts[0]?.error).toBe("TLS_ERROR"),
    );
    await receiver.close();
  });

  test("an answer other than 2xx or 409 is recorded as HTTP_STATUS with its status code", async () => {
    const receiver = await startReceiver(status(503, "upstream says no"));
    const client = await sandboxWithEndpoint(receiver.url);
    await eventually(async () =>
      expect(attempted(await deliveries(client)).attempts).toEqual([
        expect.objectContaining({ statusCode: 503, error: "HTTP_STATUS" }),
      ]),
    );
    await receiver.close();
  });

  test("an attempt recorded with socket text before this rule is shown as a class, not its text", async () => {
    const client = await sandboxWithEndpoint(await closedPortUrl());
    await eventually(async () => {
      attempted(await deliveries(client));
    });
    const first = attempted(await deliveries(client));
    await server.db.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt, url, status_code, error, latency_ms, attempted_at)
       VALUES ($1, 2, 'http://10.0.0.5:5432/', NULL, 'connect ECONNREFUSED 10.0.0.5:5432', 3, now())`,
      [first.id],
    );
    const page = await deliveries(client);
    expect(attempted(page).attempts.map((a) => a.error)).toEqual(["CONNECTION_REFUSED", "CONNECTION_ERROR"]);
    expect(page.text).not.toContain("ECONNREFUSED");
  });

  test("POST /sandbox/webhooks/test with no answer names the class only", async () => {
    const client = await sandboxWithEndpoint(await closedPortUrl());
    const res = await client.post<Failure>("/sandbox/webhooks/test");
    expect([res.status, res.body.code]).toEqual([400, "WEBHOOK_DELIVERY_ERROR"]);
    expect(res.body.reason).toBe("The webhook endpoint gave no HTTP response (CONNECTION_REFUSED).");
  });
});
