import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../src/core/clock.js";
import { canonicalJson } from "../../src/core/hash.js";
import { startServer, type TestServer } from "../harness.js";

let server: TestServer;
const clock = new ControlledClock();
beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(() => server.close());

const withKey = (key: string) => ({ headers: { "idempotency-key": key } });
const countCustomers = async () =>
  (await server.client.get<{ totalCount: number }>("/customers")).body.totalCount;

describe("Idempotency-Key on POST (conventions §1.8)", () => {
  test("the same key and request replays the first response with Idempotent-Replayed: true, and acts once", async () => {
    const before = await countCustomers();
    const body = { customerType: "INDIVIDUAL", fullName: "Once Only" };
    const first = await server.client.post<{ id: string }>("/customers", body, withKey("create-once"));
    const second = await server.client.post<{ id: string }>(
      "/customers",
      { fullName: "Once Only", customerType: "INDIVIDUAL" },
      withKey("create-once"),
    );
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.text).toBe(first.text);
    expect(await countCustomers()).toBe(before + 1);
  });

  test("stored records hold neither the key, a digest of the bare request, nor the response in clear", async () => {
    const key = `secret-bearing-${crypto.randomUUID()}`;
    const body = { name: "stored sealed", permissions: ["VIEW"] };
    const first = await server.client.post<{ clientSecret: string }>("/tokens", body, withKey(key));
    const replayed = await server.client.post<{ clientSecret: string }>("/tokens", body, withKey(key));
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body.clientSecret).toBe(first.body.clientSecret);
    const rows = await server.db.query<Record<string, unknown>>(
      "SELECT * FROM idempotency_keys WHERE platform_id = $1",
      [server.platform.platformId],
    );
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(first.body.clientSecret);
    const bare = createHash("sha256")
      .update(`POST /2025-10-13/tokens\n${canonicalJson(body)}`)
      .digest("hex");
    expect(dump).not.toContain(bare);
  });

  test("the same key with a different body -> 409 CONFLICT saying so", async () => {
    await server.client.post("/customers", { customerType: "INDIVIDUAL" }, withKey("k-diff"));
    const res = await server.client.post("/customers", { customerType: "BUSINESS" }, withKey("k-diff"));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: "CONFLICT",
      reason: "This Idempotency-Key was used with a different request (method, path or body).",
    });
  });

  test("the same key on another path -> 409 CONFLICT", async () => {
    await server.client.post("/tokens", { name: "a", permissions: ["VIEW"] }, withKey("k-path"));
    const res = await server.client.post("/customers", { customerType: "INDIVIDUAL" }, withKey("k-path"));
    expect(res.status).toBe(409);
  });

  test("keys are scoped to the platform", async () => {
    const other = await server.newPlatform();
    const body = { customerType: "INDIVIDUAL" };
    const mine = await server.client.post<{ id: string }>("/customers", body, withKey("k-scope"));
    const theirs = await server.client.post<{ id: string }>("/customers", body, {
      ...withKey("k-scope"),
      auth: other,
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  test("400 answers are never stored: the corrected request with the same key then succeeds", async () => {
    const bad = await server.client.post("/customers", { customerType: "NOPE" }, withKey("k-400"));
    expect(bad.status).toBe(400);
    const domainBad = await server.client.post(
      "/customers",
      { customerType: "INDIVIDUAL", umaAddress: "x" },
      withKey("k-400b"),
    );
    expect(domainBad.status).toBe(400);
    const good = await server.client.post(
      "/customers",
      { customerType: "INDIVIDUAL", umaAddress: "$fixed@example.com" },
      withKey("k-400b"),
    );
    expect(good.status).toBe(201);
    expect(good.headers.get("idempotent-replayed")).toBeNull();
  });

  test("other errors are stored and replayed (409 CONFLICT from the handler)", async () => {
    await server.client.post("/customers", { customerType: "INDIVIDUAL", platformCustomerId: "idem-dup" });
    const first = await server.client.post(
      "/customers",
      { customerType: "INDIVIDUAL", platformCustomerId: "idem-dup" },
      withKey("k-409"),
    );
    const again = await server.client.post(
      "/customers",
      { customerType: "INDIVIDUAL", platformCustomerId: "idem-dup" },
      withKey("k-409"),
    );
    expect(first.status).toBe(409);
    expect(again.status).toBe(409);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  test("keys are kept 24 hours: after that the key starts afresh", async () => {
    const body = { customerType: "INDIVIDUAL" };
    const first = await server.client.post<{ id: string }>("/customers", body, withKey("k-ttl"));
    clock.advance(24 * 60 * 60 * 1000 + 1);
    const later = await server.client.post<{ id: string }>("/customers", body, withKey("k-ttl"));
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
  });

  test("a key that is not 1-255 printable ASCII characters -> 400 INVALID_INPUT on Idempotency-Key", async () => {
    const res = await server.client.post<{ details: { errors: { field: string }[] } }>(
      "/customers",
      { customerType: "INDIVIDUAL" },
      withKey("x".repeat(256)),
    );
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0]?.field).toBe("Idempotency-Key");
  });

  test("concurrent requests with one key act once: one 201, the others replay it or get 409 CONFLICT", async () => {
    const before = await countCustomers();
    const body = { customerType: "INDIVIDUAL", fullName: "Racer" };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => server.client.post("/customers", body, withKey("k-race"))),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(
      results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null),
    ).toHaveLength(1);
    expect(await countCustomers()).toBe(before + 1);
  });
});
