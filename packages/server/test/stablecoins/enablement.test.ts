import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Stablecoin } from "../../src/stablecoins/schemas.js";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";
import { register } from "./helpers.js";

let server: TestServer;
let client: TestClient;
let other: Credentials;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
  other = await server.newPlatform();
});
afterAll(() => server.close());

const request = (id: string, c = client) => c.post<Stablecoin>(`/stablecoins/${id}/request-enablement`);
const operator = (id: string, status: string, c = client) =>
  c.post<Stablecoin>(`/sandbox/stablecoins/${id}/enablement`, { status });

/** A stablecoin driven to `status` through the request and the operator steps. */
async function coinIn(status: string): Promise<Stablecoin> {
  const coin = await register(client);
  const path: Record<string, string[]> = {
    NOT_ENABLED: [],
    PENDING_APPROVAL: [],
    ENABLING: ["ENABLING"],
    ENABLED: ["ENABLING", "ENABLED"],
    DISABLED: ["ENABLING", "DISABLED"],
  };
  if (status !== "NOT_ENABLED") expect((await request(coin.id)).status).toBe(200);
  for (const step of path[status] ?? []) expect((await operator(coin.id, step)).status).toBe(200);
  const read = await client.get<Stablecoin>(`/stablecoins/${coin.id}`);
  expect(read.body.enablementStatus).toBe(status);
  return read.body;
}

describe("stablecoin enablement (interface state table)", () => {
  test("NOT_ENABLED: requesting enablement -> 200 PENDING_APPROVAL", async () => {
    const coin = await coinIn("NOT_ENABLED");
    const res = await request(coin.id);
    expect(res.status).toBe(200);
    expect(res.body.enablementStatus).toBe("PENDING_APPROVAL");
    expect((await client.get<Stablecoin>(`/stablecoins/${coin.id}`)).body.enablementStatus).toBe(
      "PENDING_APPROVAL",
    );
  });

  test("PENDING_APPROVAL: a repeat request succeeds and stays PENDING_APPROVAL, unchanged", async () => {
    const coin = await coinIn("PENDING_APPROVAL");
    const res = await request(coin.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(coin);
  });

  test.each(["ENABLING", "ENABLED", "DISABLED"])(
    "%s: requesting enablement -> 409 STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE, unchanged",
    async (status) => {
      const coin = await coinIn(status);
      const res = await request(coin.id);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: "STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE" });
      expect((await client.get(`/stablecoins/${coin.id}`)).body).toEqual(coin);
    },
  );

  test("requesting enablement for an unknown or another platform's stablecoin -> 404 STABLECOIN_NOT_FOUND", async () => {
    const coin = await register(client);
    const res = await request(coin.id, client.as(other));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "STABLECOIN_NOT_FOUND" });
  });

  test("an unknown body field on the request -> 400 INVALID_INPUT", async () => {
    const coin = await register(client);
    const res = await client.post(`/stablecoins/${coin.id}/request-enablement`, { force: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
  });
});

describe("operator transitions (sandbox)", () => {
  test.each([
    ["PENDING_APPROVAL", "ENABLING"],
    ["PENDING_APPROVAL", "NOT_ENABLED"],
    ["ENABLING", "ENABLED"],
    ["ENABLING", "DISABLED"],
    ["ENABLED", "DISABLED"],
    ["DISABLED", "ENABLING"],
  ])("the operator moves %s -> %s", async (from, to) => {
    const coin = await coinIn(from);
    const res = await operator(coin.id, to);
    expect(res.status).toBe(200);
    expect(res.body.enablementStatus).toBe(to);
  });

  test.each([
    ["NOT_ENABLED", "ENABLING"],
    ["NOT_ENABLED", "ENABLED"],
    ["PENDING_APPROVAL", "ENABLED"],
    ["PENDING_APPROVAL", "PENDING_APPROVAL"],
    ["ENABLING", "PENDING_APPROVAL"],
    ["ENABLED", "ENABLED"],
    ["ENABLED", "NOT_ENABLED"],
    ["DISABLED", "ENABLED"],
  ])("any other operator move (%s -> %s) -> 409 INVALID_STATE_TRANSITION, unchanged", async (from, to) => {
    const coin = await coinIn(from);
    const res = await operator(coin.id, to);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect((await client.get(`/stablecoins/${coin.id}`)).body).toEqual(coin);
  });

  test("a rejected request (back to NOT_ENABLED) may be requested again", async () => {
    const coin = await coinIn("PENDING_APPROVAL");
    expect((await operator(coin.id, "NOT_ENABLED")).status).toBe(200);
    expect((await request(coin.id)).body.enablementStatus).toBe("PENDING_APPROVAL");
  });

  test("provisioning sets provisioned: true and repeating it changes nothing", async () => {
    const coin = await register(client);
    const first = await client.post<Stablecoin>(`/sandbox/stablecoins/${coin.id}/provision`);
    expect(first.status).toBe(200);
    expect(first.body.provisioned).toBe(true);
    const again = await client.post<Stablecoin>(`/sandbox/stablecoins/${coin.id}/provision`);
    expect(again.body).toEqual(first.body);
  });

  test("operator steps on another platform's stablecoin -> 404 STABLECOIN_NOT_FOUND", async () => {
    const coin = await coinIn("PENDING_APPROVAL");
    const foreign = client.as(other);
    expect((await operator(coin.id, "ENABLING", foreign)).status).toBe(404);
    expect((await foreign.post(`/sandbox/stablecoins/${coin.id}/provision`)).status).toBe(404);
  });

  test("operator steps called by a production platform -> 403 FORBIDDEN", async () => {
    const production = client.as(await server.newPlatform("PRODUCTION"));
    const coin = await register(production);
    expect((await request(coin.id, production)).status).toBe(200);
    const res = await operator(coin.id, "ENABLING", production);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "FORBIDDEN" });
    const provision = await production.post(`/sandbox/stablecoins/${coin.id}/provision`);
    expect(provision.status).toBe(403);
  });
});
