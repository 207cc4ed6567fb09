import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { Db } from "../../src/core/db/db.js";
import { openPostgres } from "../../src/core/db/postgres.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { type Credentials, startServer, TestClient, type TestServer } from "../harness.js";
import { databaseUrlFor } from "../test-db.js";
import { eventually } from "../webhooks/helpers.js";
import { type ServedApp, serveApp } from "../worker-app.js";

// Resolved API credentials are cached for a few seconds (core/http/caller-cache.ts, issue 20); what a
// caller holds must still change at once when its token is deleted or its platform's clock moves.

let server: TestServer;
/** A second app on the same database: another process on PostgreSQL (its own pool and LISTEN connection). */
let other: { app: ServedApp; db: Db } | undefined;
beforeAll(async () => {
  server = await startServer();
  const template = inject("dbTemplate");
  if (template.kind === "postgres") {
    const [row] = await server.db.query<{ name: string }>("SELECT current_database() AS name");
    const db = openPostgres(databaseUrlFor(template.adminUrl, row?.name as string), 2);
    other = { db, app: await serveApp({ ...server.deps, db }) };
  }
});
afterAll(async () => {
  await other?.app.app.close();
  await other?.db.close();
  await server.close();
});

async function newToken(client: TestClient): Promise<{ id: string; auth: Credentials }> {
  const created = await client.post<{ id: string; clientId: string; clientSecret: string }>("/tokens", {
    name: "cached",
    permissions: ["VIEW", "MANAGE"],
  });
  expect(created.status).toBe(201);
  const { id, clientId, clientSecret } = created.body;
  return { id, auth: { ...server.platform, clientId, clientSecret, tokenId: id } };
}

describe("the caller cache", () => {
  test("a deleted token is refused by the next request, though it was resolved a moment before", async () => {
    const { id, auth } = await newToken(server.client);
    expect((await server.client.get("/config", { auth })).status).toBe(200);
    expect((await server.client.get("/config", { auth })).status).toBe(200);
    expect((await server.client.delete(`/tokens/${id}`)).status).toBe(204);
    expect((await server.client.get("/config", { auth })).status).toBe(401);
  });

  test("a wrong secret for a cached client id is refused", async () => {
    const { auth } = await newToken(server.client);
    expect((await server.client.get("/config", { auth })).status).toBe(200);
    expect((await server.client.get("/config", { auth: { ...auth, clientSecret: "wrong" } })).status).toBe(
      401,
    );
  });

  test("after a clock advance the next request is stamped with the platform's new time", async () => {
    const platform = await server.newPlatform();
    const client = server.client.as(platform);
    expect((await client.get("/config")).status).toBe(200);
    const to = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    expect((await client.post("/sandbox/clock/advance", { to: to.toISOString() })).status).toBe(200);
    const customer = await client.post<{ createdAt: string }>("/customers", {
      customerType: "INDIVIDUAL",
      ...withEndUserTerms,
    });
    expect(Date.parse(customer.body.createdAt)).toBeGreaterThanOrEqual(to.getTime());
  });

  test("another process on the same database refuses a token deleted here, well within the cache's lifetime", async () => {
    // On PGlite the database is private to this process: the other app is this one.
    const elsewhere = other ? new TestClient(other.app.baseUrl, server.platform) : server.client;
    const { id, auth } = await newToken(server.client);
    await eventually(async () => expect((await elsewhere.get("/config", { auth })).status).toBe(200));
    const deletedAt = Date.now();
    expect((await server.client.delete(`/tokens/${id}`)).status).toBe(204);
    await eventually(async () => expect((await elsewhere.get("/config", { auth })).status).toBe(401), 3_000);
    // The cache keeps a caller 5 s: the refusal came from the notification, not from expiry.
    expect(Date.now() - deletedAt).toBeLessThan(3_500);
  });
});
