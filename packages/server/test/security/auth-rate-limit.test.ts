import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { AUTH_FAILURE_RULES } from "../../src/auth/failed-attempts.js";
import { ControlledClock } from "../../src/core/clock.js";
import { API_VERSION } from "../../src/core/http/version.js";
import { type RequestOptions, startServer, type TestResponse, type TestServer } from "../harness.js";

// Issue 16 item 8: failed API authentications (HTTP Basic, agent Bearer) are limited per client id and
// per source address; past the limit, `429 RATE_LIMITED` with Retry-After before credentials are checked.

const perClient = AUTH_FAILURE_RULES.clientId;
const perAddress = AUTH_FAILURE_RULES.address;
const WINDOW_MS = Math.max(perClient.windowMs, perAddress.windowMs);

let server: TestServer;
let clock: ControlledClock;
beforeAll(async () => {
  clock = new ControlledClock(new Date("2026-03-02T15:00:00.000Z"));
  // A clock of its own gives this file an app of its own: its lockouts of 127.0.0.1 never reach the
  // worker's shared app, and the limiter's windows pass when the test moves the clock, not in real time.
  server = await startServer({ clock, limitLoopbackAuthFailures: true });
});
afterAll(() => server.close());
// Each rule starts from no failures: every window of the test before has ended.
beforeEach(() => clock.advance(WINDOW_MS));

const newClientId = () => randomBytes(16).toString("hex");
const wrongSecret = (clientId: string) => ({ auth: { clientId, clientSecret: "wrong" } });
const basic = (c: { clientId: string; clientSecret: string }) =>
  `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString("base64")}`;
const bearer = (token: string) => ({ auth: null, headers: { authorization: `Bearer ${token}` } });

/** GET /customers from another loopback address than the TestClient's 127.0.0.1 (trustProxy is off). */
function getFrom(localAddress: string, authorization: string): Promise<{ status: number }> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: `/${API_VERSION}/customers`,
        localAddress,
        headers: { authorization },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function failTimes(times: number, options: () => RequestOptions, path = "/customers") {
  for (let i = 0; i < times; i++) {
    const res = await server.client.get(path, options());
    expect(res.status, res.text).toBe(401);
  }
}

function expectRateLimited(res: TestResponse, retryAfter: number): void {
  expect([res.status, res.body]).toEqual([429, { code: "RATE_LIMITED", reason: expect.any(String) }]);
  expect(res.headers.get("retry-after")).toBe(String(retryAfter));
  expect(res.headers.get("x-request-id")).toMatch(/\S/);
}

describe("failed authentications are limited per client id", () => {
  test(`after ${perClient.limit} wrong secrets for one client id: 429 RATE_LIMITED with Retry-After, the catalogue body and X-Request-Id`, async () => {
    await failTimes(perClient.limit, () => wrongSecret(server.platform.clientId));
    const res = await server.client.get("/customers", wrongSecret(server.platform.clientId));
    expectRateLimited(res, perClient.windowMs / 1000);
    expect(res.body).toMatchObject({ reason: expect.stringContaining("client id") });
  });

  test("during the lockout the right secret is 429 too, until the window passes", async () => {
    await failTimes(perClient.limit, () => wrongSecret(server.platform.clientId));
    expectRateLimited(await server.client.get("/customers"), perClient.windowMs / 1000);
    clock.advance(perClient.windowMs - 1000);
    expectRateLimited(await server.client.get("/customers"), 1);
    clock.advance(1000);
    expect((await server.client.get("/customers")).status).toBe(200);
  });

  test("one client id's lockout leaves another client id from the same address alone", async () => {
    const other = await server.newPlatform();
    await failTimes(perClient.limit, () => wrongSecret(server.platform.clientId));
    expect((await server.client.get("/customers")).status).toBe(429);
    expect((await server.client.as(other).get("/customers")).status).toBe(200);
  });

  test("a user name that cannot be a clientId is counted per address only", async () => {
    await failTimes(perClient.limit + 5, () => wrongSecret("not-a-client-id"));
    expect((await server.client.get("/customers", wrongSecret("not-a-client-id"))).status).toBe(401);
  });
});

describe("failed authentications are limited per source address", () => {
  test(`after ${perAddress.limit} failures across many client ids from one address: 429 for a new client id from it`, async () => {
    await failTimes(perAddress.limit, () => wrongSecret(newClientId()));
    const res = await server.client.get("/customers", wrongSecret(newClientId()));
    expectRateLimited(res, perAddress.windowMs / 1000);
    expect(res.body).toMatchObject({ reason: expect.stringContaining("source address") });
    expect((await server.client.get("/customers")).status).toBe(429);
  });

  test("an address's lockout leaves another client id from another address alone", async () => {
    const other = await server.newPlatform();
    await failTimes(perAddress.limit, () => wrongSecret(newClientId()));
    expect((await server.client.as(other).get("/customers")).status).toBe(429);
    expect((await getFrom("127.0.0.2", basic(other))).status).toBe(200);
  });

  test("agent Bearer failures count toward the address's limit", async () => {
    await failTimes(
      perAddress.limit,
      () => bearer(`agt_${randomBytes(32).toString("base64url")}`),
      "/agents/me",
    );
    expectRateLimited(await server.client.get("/agents/me", bearer("agt_wrong")), perAddress.windowMs / 1000);
    expect((await server.client.get("/customers")).status).toBe(429);
    expect((await getFrom("127.0.0.2", basic(server.platform))).status).toBe(200);
  });
});

describe("what counts", () => {
  test("successful calls never count", async () => {
    await failTimes(perClient.limit - 1, () => wrongSecret(server.platform.clientId));
    for (let i = 0; i < perAddress.limit + 1; i++)
      expect((await server.client.get("/customers")).status).toBe(200);
    expect((await server.client.get("/customers", wrongSecret(server.platform.clientId))).status).toBe(401);
  });

  test("a success does not reset the client id's count", async () => {
    await failTimes(perClient.limit - 1, () => wrongSecret(server.platform.clientId));
    expect((await server.client.get("/customers")).status).toBe(200);
    await failTimes(1, () => wrongSecret(server.platform.clientId));
    expect((await server.client.get("/customers")).status).toBe(429);
  });

  test("missing or malformed credentials are 401 and never count", async () => {
    for (let i = 0; i < perAddress.limit + 1; i++) {
      const none = await server.client.get("/customers", { auth: null });
      const malformed = await server.client.get("/customers", bearer("abc"));
      expect([none.status, malformed.status]).toEqual([401, 401]);
    }
    expect((await server.client.get("/customers")).status).toBe(200);
  });

  test("once a client id has failed, wrong guesses sent at once count while in flight: only the rest of the limit get 401", async () => {
    const clientId = server.platform.clientId;
    expect((await server.client.get("/customers", wrongSecret(clientId))).status).toBe(401);
    const answers = await Promise.all(
      Array.from({ length: 2 * perClient.limit }, () =>
        server.client.get("/customers", wrongSecret(clientId)),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(perClient.limit - 1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(perClient.limit + 1);
  });

  test("a client id with no failures is never limited by its own concurrency: 50 valid requests at once all answer", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => server.client.get("/customers")));
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(200));
  });
});

describe("documentation", () => {
  test("the OpenAPI document declares 429 on routes that take credentials, and not on redeem", async () => {
    type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const doc = (await server.client.get<Doc>("/openapi.json", { auth: null })).body;
    expect(doc.paths["/customers"]?.get?.responses).toHaveProperty("429");
    expect(doc.paths["/agents/me"]?.get?.responses).toHaveProperty("429");
    expect(doc.paths["/agents/device-codes/{code}/redeem"]?.post?.responses).not.toHaveProperty("429");
  });
});

describe("loopback", () => {
  test("by default loopback is not limited per address (a same-host proxy): many client ids failing from it lock no one else out", async () => {
    const shared = await startServer({ clock: new ControlledClock(new Date("2026-03-02T15:00:00.000Z")) });
    try {
      for (let i = 0; i < perAddress.limit + 5; i++) {
        const clientId = i.toString(16).padStart(32, "0");
        expect((await shared.client.get("/customers", wrongSecret(clientId))).status).toBe(401);
      }
      expect((await shared.client.get("/customers")).status).toBe(200);
    } finally {
      await shared.close();
    }
  });
});
