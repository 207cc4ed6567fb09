import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { eventually, verified } from "./helpers.js";
import { closedPortUrl, startReceiver, status } from "./receiver.js";

type Config = { webhookEndpoint: string | null };
type ErrorBody = { code: string; details?: { errors: { field: string }[] } };
type TestResult = { url: string; response_status: number; response_body?: string };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function freshClient(environment: "SANDBOX" | "PRODUCTION" = "SANDBOX") {
  return server.client.as(await server.newPlatform(environment));
}

describe("webhook endpoint configuration (conventions §7.3)", () => {
  test("PATCH /config webhookEndpoint sets it, GET /config shows it, and one signed TEST event is sent", async () => {
    const receiver = await startReceiver();
    const client = await freshClient();
    const res = await client.patch<Config>("/config", { webhookEndpoint: receiver.url });
    expect(res.body.webhookEndpoint).toBe(receiver.url);
    expect((await client.get<Config>("/config")).body.webhookEndpoint).toBe(receiver.url);
    await eventually(() => expect(receiver.received).toHaveLength(1));
    const [received] = receiver.received;
    if (!received) throw new Error("no TEST");
    expect(await verified(server, client, received)).toMatchObject({ type: "TEST", data: {} });
    await receiver.close();
  });

  test("setting the same endpoint again sends nothing; changing it sends one TEST to the new one", async () => {
    const [a, b] = await Promise.all([startReceiver(), startReceiver()]);
    const client = await freshClient();
    await client.patch("/config", { webhookEndpoint: a.url });
    await eventually(() => expect(a.received).toHaveLength(1));
    await client.patch("/config", { webhookEndpoint: a.url });
    await client.patch("/config", { webhookEndpoint: b.url });
    await eventually(() => expect(b.received).toHaveLength(1));
    await server.jobs.runDue();
    expect(a.received).toHaveLength(1);
    await Promise.all([a.close(), b.close()]);
  });

  test("a TEST event is never retried", async () => {
    const receiver = await startReceiver(status(500));
    const client = await freshClient();
    await client.patch("/config", { webhookEndpoint: receiver.url });
    await eventually(async () => {
      const page = await client.get<{ data: { state: string }[] }>("/webhooks/deliveries");
      expect(page.body.data.map((d) => d.state)).toEqual(["FAILED"]);
    });
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });

  test("null clears the endpoint", async () => {
    const client = await freshClient();
    await client.patch("/config", { webhookEndpoint: "http://127.0.0.1:9/x" });
    const res = await client.patch<Config>("/config", { webhookEndpoint: null });
    expect(res.body.webhookEndpoint).toBeNull();
    expect((await client.get<Config>("/config")).body.webhookEndpoint).toBeNull();
  });

  test.each([
    ["not a URL", "example.com/hooks"],
    ["not http(s)", "ftp://example.com/hooks"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["longer than 2048 characters", `https://example.com/${"a".repeat(2030)}`],
    ["empty", ""],
  ])(
    "webhookEndpoint must be an absolute http(s) URL of at most 2048 characters: %s → 400",
    async (_name, url) => {
      const res = await (await freshClient()).patch<ErrorBody>("/config", { webhookEndpoint: url });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_INPUT");
    },
  );

  test("webhookEndpoint must be https outside the sandbox", async () => {
    const client = await freshClient("PRODUCTION");
    const res = await client.patch<ErrorBody>("/config", { webhookEndpoint: "http://example.com/hooks" });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors[0]?.field).toBe("webhookEndpoint");
    // A public name (RFC 6761 .test never resolves); loopback and private addresses: ssrf-config.test.ts.
    const ok = await client.patch<Config>("/config", { webhookEndpoint: "https://hooks.example.test/hooks" });
    expect(ok.body.webhookEndpoint).toBe("https://hooks.example.test/hooks");
  });
});

describe("POST /sandbox/webhooks/test (conventions §7.3)", () => {
  test("sends a TEST event now and answers 200 {url, response_status, response_body}", async () => {
    const receiver = await startReceiver();
    const client = await freshClient();
    await client.patch("/config", { webhookEndpoint: receiver.url });
    await eventually(() => expect(receiver.received).toHaveLength(1));
    const res = await client.post<TestResult>("/sandbox/webhooks/test");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: receiver.url, response_status: 200, response_body: "ok" });
    expect(receiver.received).toHaveLength(2);
    await receiver.close();
  });

  test("any HTTP answer is 200 with its status; the body is cut at 4 KiB", async () => {
    const receiver = await startReceiver(status(500, "x".repeat(10_000)));
    const client = await freshClient();
    await client.patch("/config", { webhookEndpoint: receiver.url });
    const res = await client.post<TestResult>("/sandbox/webhooks/test");
    expect(res.status).toBe(200);
    expect(res.body.response_status).toBe(500);
    expect(res.body.response_body).toHaveLength(4096);
    await receiver.close();
  });

  test("no endpoint set → 400 WEBHOOK_ENDPOINT_NOT_SET", async () => {
    const res = await (await freshClient()).post<ErrorBody>("/sandbox/webhooks/test");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("WEBHOOK_ENDPOINT_NOT_SET");
  });

  test("no HTTP response (closed port) → 400 WEBHOOK_DELIVERY_ERROR", async () => {
    const client = await freshClient();
    await client.patch("/config", { webhookEndpoint: await closedPortUrl() });
    const res = await client.post<ErrorBody>("/sandbox/webhooks/test");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("WEBHOOK_DELIVERY_ERROR");
  });
});
