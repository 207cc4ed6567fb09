import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Invitation } from "../../src/invitations/schemas.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";

type ErrorBody = { code: string; reason: string; details?: { errors?: { field: string }[]; field?: string } };

const BASE = "https://invite.example.com/i";

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
  expect((await client.patch("/config", { invitationBaseUrl: BASE })).status).toBe(200);
});
afterAll(() => server.close());

/** A customer holding a fresh UMA address on the client's platform. */
async function inviter(c: TestClient = client): Promise<string> {
  const uma = `$inv${randomUUID().slice(0, 8)}@example.com`;
  const res = await c.post("/customers", { customerType: "INDIVIDUAL", umaAddress: uma });
  expect(res.status).toBe(201);
  return uma;
}

async function invite(body: Record<string, unknown> = {}, c: TestClient = client) {
  const res = await c.post<Invitation>("/invitations", { inviterUma: await inviter(c), ...body });
  expect(res.status).toBe(201);
  return res.body;
}

const claim = (code: string, inviteeUma = "$bob@other.example", c: TestClient = client) =>
  c.post<Invitation & ErrorBody>(`/invitations/${code}/claim`, { inviteeUma });
const cancel = (code: string, c: TestClient = client) =>
  c.post<Invitation & ErrorBody>(`/invitations/${code}/cancel`);

async function claimedEvents(code: string): Promise<unknown[]> {
  const rows = await server.db.query<{ body: string }>(
    "SELECT body FROM webhook_events WHERE type = 'INVITATION.CLAIMED' AND body LIKE $1",
    [`%${code}%`],
  );
  return rows.map((row) => JSON.parse(row.body).data);
}

describe("configuration", () => {
  test("POST /invitations on a platform without invitationBaseUrl -> 400 INVITATIONS_NOT_CONFIGURED", async () => {
    const other = client.as(await server.newPlatform());
    const res = await other.post<ErrorBody>("/invitations", { inviterUma: await inviter(other) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVITATIONS_NOT_CONFIGURED");
  });

  test("invitationBaseUrl is set with PATCH /config, shown by GET /config, and null turns invitations off", async () => {
    const other = client.as(await server.newPlatform());
    expect((await other.get("/config")).body.invitationBaseUrl).toBeNull();
    expect((await other.patch("/config", { invitationBaseUrl: BASE })).body.invitationBaseUrl).toBe(BASE);
    const uma = await inviter(other);
    expect((await other.post("/invitations", { inviterUma: uma })).status).toBe(201);
    expect((await other.patch("/config", { invitationBaseUrl: null })).body.invitationBaseUrl).toBeNull();
    expect((await other.post<ErrorBody>("/invitations", { inviterUma: uma })).body.code).toBe(
      "INVITATIONS_NOT_CONFIGURED",
    );
  });

  test("outside the sandbox invitationBaseUrl must be https -> 400 INVALID_INPUT", async () => {
    const production = client.as(await server.newPlatform("PRODUCTION"));
    const res = await production.patch<ErrorBody>("/config", {
      invitationBaseUrl: "http://invite.example.com",
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors?.map((e) => e.field)).toEqual(["invitationBaseUrl"]);
  });

  test("invitationBaseUrl must be an absolute http(s) URL -> 400 INVALID_INPUT", async () => {
    const res = await client.patch<ErrorBody>("/config", { invitationBaseUrl: "invite.example.com" });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors?.map((e) => e.field)).toEqual(["invitationBaseUrl"]);
  });
});

describe("POST /invitations", () => {
  test("creates a PENDING invitation: 12-character code, url = invitationBaseUrl/code, amountToSend in USD", async () => {
    const uma = await inviter();
    const res = await client.post<Invitation>("/invitations", {
      inviterUma: uma,
      amountToSend: 2_500,
      expiresAt: "2099-01-01T00:00:00Z",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{12}$/),
      url: `${BASE}/${res.body.code}`,
      inviterUma: uma,
      amountToSend: {
        amount: 2_500,
        currency: { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 },
      },
      status: "PENDING",
      expiresAt: "2099-01-01T00:00:00.000Z",
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    });
  });

  test("an inviterUma no customer of the platform holds -> 404 CUSTOMER_NOT_FOUND", async () => {
    const res = await client.post<ErrorBody>("/invitations", { inviterUma: "$nobody@example.com" });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("CUSTOMER_NOT_FOUND");
  });

  test("another platform's customer UMA -> 404 CUSTOMER_NOT_FOUND", async () => {
    const other = client.as(await server.newPlatform());
    const res = await client.post<ErrorBody>("/invitations", { inviterUma: await inviter(other) });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("CUSTOMER_NOT_FOUND");
  });

  test("an inviter that is a deleted customer -> 409 CONFLICT", async () => {
    const uma = `$gone${randomUUID().slice(0, 8)}@example.com`;
    const customer = await client.post<{ id: string }>("/customers", {
      customerType: "INDIVIDUAL",
      umaAddress: uma,
    });
    expect((await client.delete(`/customers/${customer.body.id}`)).status).toBe(200);
    const res = await client.post<ErrorBody>("/invitations", { inviterUma: uma });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });

  test("a malformed inviterUma -> 400 INVALID_UMA_ADDRESS", async () => {
    const res = await client.post<ErrorBody>("/invitations", { inviterUma: "alice@example.com" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_UMA_ADDRESS");
  });

  test("expiresAt not in the future -> 400 INVALID_INPUT on expiresAt", async () => {
    const res = await client.post<ErrorBody>("/invitations", {
      inviterUma: await inviter(),
      expiresAt: "2020-01-01T00:00:00Z",
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors?.map((e) => e.field)).toEqual(["expiresAt"]);
  });

  test("amountToSend must be a positive integer -> 400 INVALID_INPUT", async () => {
    const res = await client.post<ErrorBody>("/invitations", {
      inviterUma: await inviter(),
      amountToSend: 0,
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors?.map((e) => e.field)).toEqual(["amountToSend"]);
  });
});

describe("GET /invitations/{code}", () => {
  test("reads the invitation by its code", async () => {
    const created = await invite();
    expect((await client.get<Invitation>(`/invitations/${created.code}`)).body).toEqual(created);
  });

  test("an unknown code, or another platform's, -> 404 INVITATION_NOT_FOUND", async () => {
    const created = await invite();
    const other = client.as(await server.newPlatform());
    for (const [c, code] of [
      [client, "UUUUUUUUUUUU"],
      [other, created.code],
    ] as const) {
      const res = await c.get<ErrorBody>(`/invitations/${code}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("INVITATION_NOT_FOUND");
    }
  });

  test("a PENDING invitation past expiresAt (platform clock) reads EXPIRED, and claiming it -> 409 CONFLICT", async () => {
    const other = client.as(await server.newPlatform());
    await other.patch("/config", { invitationBaseUrl: BASE });
    const now = (await other.get<{ now: string }>("/sandbox/clock")).body.now;
    const expiresAt = new Date(Date.parse(now) + 60 * 60_000).toISOString();
    const created = await invite({ expiresAt }, other);
    await other.post("/sandbox/clock/advance", { to: new Date(Date.parse(expiresAt) + 1).toISOString() });
    expect((await other.get<Invitation>(`/invitations/${created.code}`)).body.status).toBe("EXPIRED");
    const res = await claim(created.code, "$bob@other.example", other);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });
});

describe("POST /invitations/{code}/claim", () => {
  test("claim -> 200 CLAIMED with inviteeUma and claimedAt, and INVITATION.CLAIMED carries the invitation", async () => {
    const created = await invite({ amountToSend: 100 });
    const res = await claim(created.code);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: created.code,
      status: "CLAIMED",
      inviteeUma: "$bob@other.example",
      claimedAt: res.body.updatedAt,
    });
    expect(await claimedEvents(created.code)).toEqual([res.body]);
    expect((await client.get(`/invitations/${created.code}`)).body).toEqual(res.body);
  });

  test("claiming a claimed invitation -> 400 INVITATION_ALREADY_CLAIMED", async () => {
    const created = await invite();
    expect((await claim(created.code)).status).toBe(200);
    const again = await claim(created.code, "$carol@other.example");
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("INVITATION_ALREADY_CLAIMED");
    expect(await claimedEvents(created.code)).toHaveLength(1);
  });

  test("claiming a cancelled invitation -> 400 INVITATION_CANCELLED", async () => {
    const created = await invite();
    expect((await cancel(created.code)).status).toBe(200);
    const res = await claim(created.code);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVITATION_CANCELLED");
  });

  test("an unknown code, or another platform's, -> 404 INVITATION_NOT_FOUND", async () => {
    const created = await invite();
    const other = client.as(await server.newPlatform());
    await other.patch("/config", { invitationBaseUrl: BASE });
    expect((await claim("UUUUUUUUUUUU")).body.code).toBe("INVITATION_NOT_FOUND");
    const foreign = await claim(created.code, "$bob@other.example", other);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("INVITATION_NOT_FOUND");
    expect((await client.get<Invitation>(`/invitations/${created.code}`)).body.status).toBe("PENDING");
  });

  test("a malformed inviteeUma -> 400 INVALID_UMA_ADDRESS", async () => {
    const res = await claim((await invite()).code, "bob");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_UMA_ADDRESS");
  });

  test("the inviter cannot claim its own invitation -> 400 INVALID_INPUT on inviteeUma", async () => {
    const created = await invite();
    const res = await claim(created.code, created.inviterUma);
    expect(res.status).toBe(400);
    expect(res.body.details?.errors?.map((e) => e.field)).toEqual(["inviteeUma"]);
  });

  test("claiming after invitations were turned off -> 400 INVITATIONS_NOT_CONFIGURED", async () => {
    const other = client.as(await server.newPlatform());
    await other.patch("/config", { invitationBaseUrl: BASE });
    const created = await invite({}, other);
    await other.patch("/config", { invitationBaseUrl: null });
    const res = await claim(created.code, "$bob@other.example", other);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVITATIONS_NOT_CONFIGURED");
  });

  test("two concurrent claims: exactly one wins, the other -> 400 INVITATION_ALREADY_CLAIMED, one event", async () => {
    const created = await invite();
    const results = await Promise.all([
      claim(created.code, "$bob@other.example"),
      claim(created.code, "$carol@other.example"),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const loser = results.find((r) => r.status === 400);
    const winner = results.find((r) => r.status === 200);
    expect(loser?.body.code).toBe("INVITATION_ALREADY_CLAIMED");
    expect(await claimedEvents(created.code)).toEqual([winner?.body]);
    expect((await client.get<Invitation>(`/invitations/${created.code}`)).body.inviteeUma).toBe(
      winner?.body.inviteeUma,
    );
  });
});

describe("POST /invitations/{code}/cancel", () => {
  test("cancel -> 200 CANCELLED with cancelledAt; cancelling again -> 400 INVITATION_CANCELLED", async () => {
    const created = await invite();
    const res = await cancel(created.code);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "CANCELLED", cancelledAt: res.body.updatedAt });
    const again = await cancel(created.code);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("INVITATION_CANCELLED");
  });

  test("cancelling a claimed invitation -> 400 INVITATION_ALREADY_CLAIMED", async () => {
    const created = await invite();
    await claim(created.code);
    const res = await cancel(created.code);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVITATION_ALREADY_CLAIMED");
  });

  test("cancelling an unknown code -> 404 INVITATION_NOT_FOUND", async () => {
    const res = await cancel("UUUUUUUUUUUU");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("INVITATION_NOT_FOUND");
  });
});
