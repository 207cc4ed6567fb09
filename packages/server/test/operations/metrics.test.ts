import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Deps } from "../../src/core/deps.js";
import { UNMATCHED_ROUTE } from "../../src/core/http/metrics.js";
import { API_VERSION } from "../../src/core/http/version.js";
import { JobRunner } from "../../src/core/jobs/jobs.js";
import { createMetrics } from "../../src/core/metrics/metrics.js";
import { BULK_IMPORT_JOB } from "../../src/customers/bulk/imports.js";
import { jobHandlers } from "../../src/jobs.js";
import { createPlatform } from "../../src/platform-config/platforms.js";
import { enqueueEvent } from "../../src/webhooks/outbox.js";
import { type Credentials, startServer, type TestServer } from "../harness.js";
import { startReceiver } from "../webhooks/receiver.js";
import { type ServedApp, serveApp } from "../worker-app.js";
import { labelValues, parseExposition, type Sample, sampleValue } from "./scrape.js";

// One app with metrics on over a database of this file's own, so the queue gauges count only this file's
// work; its deps are the harness's plus the metrics.
const TOKEN = randomBytes(24).toString("hex");
let server: TestServer;
let served: ServedApp;
let deps: Deps;

beforeAll(async () => {
  server = await startServer({ ownDatabase: true });
  deps = { ...server.deps, metrics: createMetrics(server.db, TOKEN) };
  served = await serveApp(deps);
});
afterAll(async () => {
  await served.app.close();
  await server.close();
});

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${served.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}

/**
 * A call to the metrics app as `platform`. Plain fetch, not the harness client: these tests count
 * requests, and the client's contract check fetches the OpenAPI document through the same app.
 */
async function call(
  path: string,
  init: { method?: string; body?: unknown } = {},
  platform = server.platform,
) {
  const basic = Buffer.from(`${platform.clientId}:${platform.clientSecret}`).toString("base64");
  const response = await fetch(`${served.baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  await response.arrayBuffer();
  return response.status;
}

const COUNT = "http_request_duration_seconds_count";
const route = (template: string) => `/${API_VERSION}${template}`;

/** A platform whose jobs no runner of this file takes (the harness's runs only server.platformIds). */
async function platformOfItsOwn(): Promise<Credentials> {
  const created = await createPlatform(deps, { name: "metrics test", environment: "SANDBOX" });
  return { platformId: created.platform.id, ...created.token, tokenId: created.token.id };
}

describe("GET /metrics (issue 22 §5)", () => {
  test("requests are counted and timed by method, route template and status code", async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i += 1) expect(await call(`/customers/Customer:${randomUUID()}`)).toBe(404);
    expect(await call("/customers?limit=1")).toBe(200);
    expect(await call("/customers?limit=2")).toBe(200);
    const after = await scrape();
    const missing = { method: "GET", route: route("/customers/:customerId"), status_code: "404" };
    const listed = { method: "GET", route: route("/customers"), status_code: "200" };
    expect(sampleValue(after, COUNT, missing) - sampleValue(before, COUNT, missing)).toBe(3);
    expect(sampleValue(after, COUNT, listed) - sampleValue(before, COUNT, listed)).toBe(2);
    // A histogram: every request falls in the +Inf bucket, and the ids never appear in a label.
    const inf = { ...missing, le: "+Inf" };
    expect(sampleValue(after, "http_request_duration_seconds_bucket", inf)).toBe(
      sampleValue(after, COUNT, missing),
    );
    expect(labelValues(after, COUNT, "route")).not.toContain(expect.stringContaining("Customer:"));
  });

  test("requests no route matched share one route label, whatever their path", async () => {
    const marker = randomUUID();
    const before = await scrape();
    expect(await call(`/no-such-thing-${marker}`)).toBe(404);
    expect(await call(`/customers/${marker}/nothing-here`)).toBe(404);
    await fetch(`${served.origin}/${marker}`, { headers: { authorization: "Basic eDp5" } });
    const after = await scrape();
    const known = labelValues(before, COUNT, "route");
    // Besides the unmatched label, only routes this test's own calls reached may be new.
    for (const reached of [UNMATCHED_ROUTE, "/metrics"]) known.add(reached);
    expect([...labelValues(after, COUNT, "route")].filter((r) => !known.has(r))).toEqual([]);
    const unmatched = { method: "GET", route: UNMATCHED_ROUTE, status_code: "404" };
    expect(sampleValue(after, COUNT, unmatched) - sampleValue(before, COUNT, unmatched)).toBe(2);
  });

  test("a scrape needs the metrics token as a Bearer token; API credentials do not open it", async () => {
    const url = `${served.origin}/metrics`;
    const basic = `Basic ${Buffer.from(`${server.platform.clientId}:${server.platform.clientSecret}`).toString("base64")}`;
    for (const authorization of [undefined, basic, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`]) {
      const response = await fetch(url, authorization ? { headers: { authorization } } : {});
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="paysvc metrics"');
      expect(await response.json()).toMatchObject({ code: "UNAUTHORIZED" });
    }
    const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  test("without a metrics token the service has no /metrics", async () => {
    const basic = Buffer.from(`${server.platform.clientId}:${server.platform.clientSecret}`).toString(
      "base64",
    );
    const response = await fetch(`${server.origin}/metrics`, {
      headers: { authorization: `Basic ${basic}` },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  test("job queue depth counts work not done yet by job kind", async () => {
    const idle = await platformOfItsOwn();
    const before = sampleValue(await scrape(), "paysvc_job_queue_depth", { queue: BULK_IMPORT_JOB });
    const form = new FormData();
    form.append("file", new Blob(["customerType,platformCustomerId\nINDIVIDUAL,metrics-1\n"]), "c.csv");
    const basic = Buffer.from(`${idle.clientId}:${idle.clientSecret}`).toString("base64");
    const upload = await fetch(`${served.baseUrl}/customers/bulk/csv`, {
      method: "POST",
      headers: { authorization: `Basic ${basic}` },
      body: form,
    });
    expect(upload.status).toBe(202);
    const after = await scrape();
    expect(sampleValue(after, "paysvc_job_queue_depth", { queue: BULK_IMPORT_JOB })).toBe(before + 1);
    expect(labelValues(after, "paysvc_job_queue_depth", "queue")).toContain("webhook_delivery");
    expect(JSON.stringify(after)).not.toContain(idle.platformId);
  });

  test("webhook delivery attempts are counted by outcome and error class", async () => {
    const platform = await platformOfItsOwn();
    const runner = new JobRunner(deps, jobHandlers(), { platformIds: new Set([platform.platformId]) });
    const receiver = await startReceiver((_n, res, received) => {
      res.statusCode = received.body.includes('"type":"TEST"') ? 200 : 500;
      res.end();
    });
    try {
      const delivered = { outcome: "delivered", error: "none" };
      const retrying = { outcome: "retrying", error: "HTTP_STATUS" };
      const name = "paysvc_webhook_delivery_attempts_total";
      const before = await scrape();
      const body = { webhookEndpoint: receiver.url };
      expect(await call("/config", { method: "PATCH", body }, platform)).toBe(200);
      await runner.runDue();
      const now = deps.clock.now();
      const data = { id: `Card:${randomUUID()}`, status: "ACTIVE", updatedAt: now.toISOString() };
      const { platformId } = platform;
      await deps.db.transaction((tx) =>
        enqueueEvent(tx, { platformId, type: "CARD.STATUS_CHANGE", data, now }),
      );
      await runner.runDue();
      const after = await scrape();
      expect(receiver.received).toHaveLength(2);
      expect(sampleValue(after, name, delivered) - sampleValue(before, name, delivered)).toBe(1);
      expect(sampleValue(after, name, retrying) - sampleValue(before, name, retrying)).toBe(1);
      expect(JSON.stringify(after)).not.toContain(platformId);
    } finally {
      await runner.stop();
      await receiver.close();
    }
  });

  test("database pool use: connections in use and idle within the pool's size, and calls waiting", async () => {
    const samples = await scrape();
    const size = sampleValue(samples, "paysvc_db_pool_size");
    expect(size).toBe(server.db.kind === "pglite" ? 1 : server.db.poolStats?.().size);
    const inUse = sampleValue(samples, "paysvc_db_pool_connections", { state: "in_use" });
    const idle = sampleValue(samples, "paysvc_db_pool_connections", { state: "idle" });
    expect(inUse + idle).toBeLessThanOrEqual(size);
    expect(samples.some((s) => s.name === "paysvc_db_pool_waiting")).toBe(true);
    if (server.db.kind === "pglite") expect(inUse + idle).toBe(1);
  });
});
