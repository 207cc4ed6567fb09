import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, startServer, type TestServer } from "../harness.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const basic = (value: string) => ({ auth: null, headers: { authorization: value } });

describe("HTTP Basic authentication (conventions §1.2)", () => {
  test.each([
    ["missing Authorization", { auth: null }],
    ["wrong secret", { auth: { clientId: "0".repeat(32), clientSecret: "wrong" } }],
    ["not Basic", basic("Bearer abc")],
    ["no colon in the credentials", basic(`Basic ${Buffer.from("justone").toString("base64")}`)],
    ["garbage base64", basic("Basic !!!")],
  ])("%s -> 401 UNAUTHORIZED with WWW-Authenticate", async (_name, options) => {
    const res = await server.client.get("/customers", options);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "UNAUTHORIZED" });
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="paysvc"');
  });

  test("the right clientId with a wrong secret -> 401 UNAUTHORIZED", async () => {
    const res = await server.client.get("/customers", {
      auth: { clientId: server.platform.clientId, clientSecret: `${server.platform.clientSecret}x` },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "UNAUTHORIZED", reason: "The API credentials are not valid." });
  });

  test("valid credentials -> 200", async () => {
    expect((await server.client.get("/customers")).status).toBe(200);
  });

  test("check order: 401 comes before an unknown route's 404", async () => {
    const res = await server.client.get("/no-such-route", { auth: null });
    expect(res.status).toBe(401);
  });
});

describe("API tokens", () => {
  test("POST /tokens -> 201 with clientId (32 hex) and clientSecret, shown only once", async () => {
    const created = await server.client.post<Record<string, unknown>>("/tokens", {
      name: "reporting",
      permissions: ["VIEW"],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "reporting", permissions: ["VIEW"] });
    expect(created.body.id).toMatch(/^Token:/);
    expect(created.body.clientId).toMatch(/^[0-9a-f]{32}$/);
    expect(typeof created.body.clientSecret).toBe("string");
    const read = await server.client.get<Record<string, unknown>>(`/tokens/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty("clientSecret");
    const list = await server.client.get<{ data: Record<string, unknown>[] }>("/tokens");
    expect(list.body.data.some((t) => "clientSecret" in t || "secretHash" in t)).toBe(false);
  });

  test("secrets are stored only as hashes", async () => {
    const created = await server.client.post<{ clientSecret: string }>("/tokens", {
      name: "x",
      permissions: ["VIEW"],
    });
    const rows = await server.db.query<Record<string, unknown>>("SELECT * FROM api_tokens");
    expect(JSON.stringify(rows)).not.toContain(created.body.clientSecret);
  });

  test("a new token authenticates; a deleted token -> 401 and its id -> 404 TOKEN_NOT_FOUND", async () => {
    const created = await server.client.post<Credentials & { id: string }>("/tokens", {
      name: "temp",
      permissions: ["VIEW"],
    });
    const auth = { clientId: created.body.clientId, clientSecret: created.body.clientSecret };
    expect((await server.client.get("/customers", { auth })).status).toBe(200);
    const deleted = await server.client.delete(`/tokens/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await server.client.get("/customers", { auth })).status).toBe(401);
    const again = await server.client.delete(`/tokens/${created.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: "TOKEN_NOT_FOUND" });
  });

  test("GET /tokens is paginated", async () => {
    const page = await server.client.get<{ data: unknown[]; hasMore: boolean; totalCount: number }>(
      "/tokens?limit=1",
    );
    expect(page.body.data).toHaveLength(1);
    expect(page.body.hasMore).toBe(true);
    expect(page.body.totalCount).toBeGreaterThan(1);
  });

  test("a token create with bad fields lists each in details.errors", async () => {
    const res = await server.client.post("/tokens", { name: "", permissions: ["ADMIN"], extra: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
    const fields = (res.body as { details: { errors: { field: string }[] } }).details.errors
      .map((e) => e.field)
      .sort();
    expect(fields).toEqual(["extra", "name", "permissions[0]"]);
  });
});

describe("permissions (conventions §1.2)", () => {
  async function tokenWith(permissions: string[]) {
    const created = await server.client.post<{ clientId: string; clientSecret: string }>("/tokens", {
      name: "p",
      permissions,
    });
    return { clientId: created.body.clientId, clientSecret: created.body.clientSecret };
  }

  test("every token may GET (VIEW)", async () => {
    const auth = await tokenWith(["TRANSACT"]);
    expect((await server.client.get("/customers", { auth })).status).toBe(200);
    expect((await server.client.get("/config", { auth })).status).toBe(200);
  });

  test("a write without MANAGE -> 403 FORBIDDEN", async () => {
    const auth = await tokenWith(["VIEW", "TRANSACT"]);
    const res = await server.client.post("/customers", { customerType: "INDIVIDUAL" }, { auth });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "FORBIDDEN", reason: "This operation needs the MANAGE permission." });
    expect((await server.client.patch("/config", { name: "x" }, { auth })).status).toBe(403);
    expect((await server.client.post("/tokens", { name: "x", permissions: ["VIEW"] }, { auth })).status).toBe(
      403,
    );
  });

  test("check order: 403 comes before body validation (400)", async () => {
    const auth = await tokenWith(["VIEW"]);
    const res = await server.client.post("/customers", { customerType: "NOPE" }, { auth });
    expect(res.status).toBe(403);
  });

  test("check order: an unknown route's 404 comes before 403", async () => {
    const auth = await tokenWith(["VIEW"]);
    const res = await server.client.post("/no-such-route", {}, { auth });
    expect(res.status).toBe(404);
  });

  test("a sandbox route called with a production platform's credentials -> 403 FORBIDDEN", async () => {
    const production = await server.newPlatform("PRODUCTION");
    const res = await server.client.post("/sandbox/webhooks/test", undefined, { auth: production });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: "FORBIDDEN",
      reason: "Sandbox routes are available to sandbox platforms only.",
    });
  });
});

describe("production mode", () => {
  test("/sandbox routes do not exist outside sandbox mode (404 NOT_FOUND)", async () => {
    const production = await startServer({ mode: "production" });
    try {
      const res = await production.client.post("/sandbox/webhooks/test");
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "NOT_FOUND" });
    } finally {
      await production.close();
    }
  });
});
