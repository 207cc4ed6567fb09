import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ExternalAccount } from "../../src/external-accounts/schemas.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { evmWallet, newCustomer, selfCustodyWallet } from "./ownership-helpers.js";

let server: TestServer;
let client: TestClient;
let customerId: string;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
  customerId = await newCustomer(client);
});
afterAll(() => server.close());

type Challenge = {
  method: string;
  messageToSign?: string;
  verificationLink?: string;
  token?: string;
  expiresAt: string;
};
const challenge = (id: string, method = "WALLET_SIGNATURE") =>
  client.post<Challenge>(`/customers/external-accounts/${id}/challenge`, { method });
const verify = (id: string, signature: string) =>
  client.post<ExternalAccount>(`/customers/external-accounts/${id}/verify`, { signature });
const statusOf = async (id: string) =>
  (await client.get<ExternalAccount>(`/customers/external-accounts/${id}`)).body.status;
const statusEvents = async (id: string) => {
  const rows = await server.db.query<{ body: string }>(
    "SELECT body FROM webhook_events WHERE type = 'EXTERNAL_ACCOUNT.STATUS_UPDATED' ORDER BY created_at, id",
  );
  return rows
    .map((r) => JSON.parse(r.body).data as ExternalAccount)
    .filter((a) => a.id === id)
    .map((a) => a.status);
};

describe("external account state table (ownership verification)", () => {
  test("a FIRST_PARTY self-custody wallet starts PENDING_OWNERSHIP_VERIFICATION", async () => {
    const account = await selfCustodyWallet(client, customerId, evmWallet().address);
    expect(account.status).toBe("PENDING_OWNERSHIP_VERIFICATION");
  });

  test("PENDING_OWNERSHIP_VERIFICATION --challenge--> PENDING_OWNERSHIP_VERIFICATION, a new challenge is issued", async () => {
    const account = await selfCustodyWallet(client, customerId, evmWallet().address);
    const res = await challenge(account.id);
    expect(res.status).toBe(201);
    expect(await statusOf(account.id)).toBe("PENDING_OWNERSHIP_VERIFICATION");
    expect(await statusEvents(account.id)).toEqual([]);
  });

  test("PENDING_OWNERSHIP_VERIFICATION --verification succeeds--> ACTIVE with EXTERNAL_ACCOUNT.STATUS_UPDATED", async () => {
    const wallet = evmWallet();
    const account = await selfCustodyWallet(client, customerId, wallet.address);
    const issued = await challenge(account.id);
    const res = await verify(account.id, wallet.sign(String(issued.body.messageToSign)));
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("ACTIVE");
    expect(await statusOf(account.id)).toBe("ACTIVE");
    expect(await statusEvents(account.id)).toEqual(["ACTIVE"]);
  });

  test("PENDING_OWNERSHIP_VERIFICATION --failed attempt--> UNVERIFIED with EXTERNAL_ACCOUNT.STATUS_UPDATED", async () => {
    const account = await selfCustodyWallet(client, customerId, evmWallet().address);
    const issued = await challenge(account.id);
    const res = await verify(account.id, evmWallet().sign(String(issued.body.messageToSign)));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "signature" }] } });
    expect(await statusOf(account.id)).toBe("UNVERIFIED");
    expect(await statusEvents(account.id)).toEqual(["UNVERIFIED"]);
  });

  test("UNVERIFIED --challenge--> PENDING_OWNERSHIP_VERIFICATION, a new challenge is issued and the event fires", async () => {
    const wallet = evmWallet();
    const account = await selfCustodyWallet(client, customerId, wallet.address);
    await verify(account.id, "0x00").catch(() => undefined);
    const first = await challenge(account.id);
    await verify(account.id, evmWallet().sign(String(first.body.messageToSign)));
    expect(await statusOf(account.id)).toBe("UNVERIFIED");
    const second = await challenge(account.id);
    expect(second.status).toBe(201);
    expect(await statusOf(account.id)).toBe("PENDING_OWNERSHIP_VERIFICATION");
    expect(await statusEvents(account.id)).toEqual(["UNVERIFIED", "PENDING_OWNERSHIP_VERIFICATION"]);
    const res = await verify(account.id, wallet.sign(String(second.body.messageToSign)));
    expect(res.body.status).toBe("ACTIVE");
  });

  test("ACTIVE --challenge--> unchanged, 409", async () => {
    const wallet = evmWallet();
    const account = await selfCustodyWallet(client, customerId, wallet.address);
    const issued = await challenge(account.id);
    await verify(account.id, wallet.sign(String(issued.body.messageToSign)));
    const res = await challenge(account.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT" });
    expect(await statusOf(account.id)).toBe("ACTIVE");
  });
});

describe("start an ownership verification challenge (conventions §4.2)", () => {
  test("WALLET_SIGNATURE returns the exact message with the stored address, a 32-hex nonce and expiresAt 10 minutes out", async () => {
    const wallet = evmWallet();
    const account = await selfCustodyWallet(client, customerId, wallet.address);
    const before = Date.now();
    const res = await challenge(account.id);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["expiresAt", "messageToSign", "method"]);
    const expiresAt = Date.parse(res.body.expiresAt);
    expect(expiresAt - before).toBeGreaterThanOrEqual(10 * 60 * 1000 - 50);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000);
    expect(res.body.messageToSign).toMatch(
      new RegExp(
        `^paysvc wallet ownership verification\\nI verify that I control this wallet\\.\\nAddress: ${wallet.address}\\nNonce: [0-9a-f]{32}\\nExpires: ${res.body.expiresAt.replace(/[.]/g, "\\.")}$`,
      ),
    );
  });

  test("LIVENESS returns a verificationLink served by paysvc, a token, and expiresAt 30 minutes out", async () => {
    const account = await selfCustodyWallet(client, customerId, evmWallet().address);
    const before = Date.now();
    const res = await challenge(account.id, "LIVENESS");
    expect(res.status).toBe(201);
    expect(res.body.method).toBe("LIVENESS");
    expect(res.body.verificationLink).toBe(`${server.baseUrl}/ownership/liveness/${res.body.token}`);
    expect(Date.parse(res.body.expiresAt) - before).toBeGreaterThanOrEqual(30 * 60 * 1000 - 50);
  });

  test("a new challenge abandons the in-flight one: signing the old message fails and says it was abandoned", async () => {
    const wallet = evmWallet();
    const account = await selfCustodyWallet(client, customerId, wallet.address);
    const first = await challenge(account.id);
    await challenge(account.id);
    const res = await verify(account.id, wallet.sign(String(first.body.messageToSign)));
    expect(res.status).toBe(400);
    expect(res.text).toContain("abandoned");
    expect(await statusOf(account.id)).toBe("UNVERIFIED");
  });

  test("switching method: a LIVENESS challenge replaces a WALLET_SIGNATURE one, and verify then has nothing to check (409)", async () => {
    const wallet = evmWallet();
    const account = await selfCustodyWallet(client, customerId, wallet.address);
    const first = await challenge(account.id);
    expect((await challenge(account.id, "LIVENESS")).status).toBe(201);
    const res = await verify(account.id, wallet.sign(String(first.body.messageToSign)));
    expect(res.status).toBe(409);
    expect(await statusOf(account.id)).toBe("PENDING_OWNERSHIP_VERIFICATION");
  });

  test.each([
    ["a custodied wallet (vaspName)", { accountInfo: { vaspName: "Coinbase" } }],
    [
      "a THIRD_PARTY wallet",
      {
        ownershipType: "THIRD_PARTY",
        accountInfo: {
          beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Bo Li", countryOfResidence: "US" },
        },
      },
    ],
  ])("409 CONFLICT when verification does not apply: %s", async (_name, extra) => {
    const account = await selfCustodyWallet(client, customerId, evmWallet().address, extra);
    expect(account.status).toBe("ACTIVE");
    const res = await challenge(account.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT" });
  });

  test("409 CONFLICT when verification does not apply: a USD bank account", async () => {
    const bank = await client.post<ExternalAccount>("/customers/external-accounts", {
      customerId,
      currency: "USD",
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "123456789",
        routingNumber: "021000021",
        bankAccountType: "CHECKING",
        beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ann Lee", countryOfResidence: "US" },
      },
    });
    expect(bank.status).toBe(201);
    expect((await challenge(bank.body.id)).status).toBe(409);
  });

  test("429 RATE_LIMITED with Retry-After after 5 challenges in 15 minutes; allowed again once the window passes", async () => {
    const account = await selfCustodyWallet(client, customerId, evmWallet().address);
    for (let i = 0; i < 5; i++) expect((await challenge(account.id)).status).toBe(201);
    const limited = await challenge(account.id);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: "RATE_LIMITED" });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    const clock = await client.get<{ now: string }>("/sandbox/clock");
    const later = new Date(Date.parse(clock.body.now) + retryAfter * 1000 + 1000).toISOString();
    expect((await client.post("/sandbox/clock/advance", { to: later })).status).toBe(200);
    expect((await challenge(account.id)).status).toBe(201);
  });

  test("a 429 is not stored under an Idempotency-Key: the same key succeeds once Retry-After has passed", async () => {
    const account = await selfCustodyWallet(client, customerId, evmWallet().address);
    for (let i = 0; i < 5; i++) expect((await challenge(account.id)).status).toBe(201);
    const key = { headers: { "idempotency-key": `challenge-${account.id}` } };
    const url = `/customers/external-accounts/${account.id}/challenge`;
    const limited = await client.post(url, { method: "LIVENESS" }, key);
    expect(limited.status).toBe(429);
    const clock = await client.get<{ now: string }>("/sandbox/clock");
    const later = new Date(Date.parse(clock.body.now) + 16 * 60 * 1000).toISOString();
    expect((await client.post("/sandbox/clock/advance", { to: later })).status).toBe(200);
    const retried = await client.post(url, { method: "LIVENESS" }, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
  });

  test("unknown method -> 400 INVALID_INPUT on method, and another platform's account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const account = await selfCustodyWallet(client, customerId, evmWallet().address);
    const bad = await challenge(account.id, "SELFIE");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ details: { errors: [{ field: "method" }] } });
    const other = client.as(await server.newPlatform());
    const res = await other.post(`/customers/external-accounts/${account.id}/challenge`, {
      method: "LIVENESS",
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
  });
});

describe("verify a wallet signature (conventions §4.3)", () => {
  test("no outstanding WALLET_SIGNATURE challenge -> 409 CONFLICT, no state change", async () => {
    const account = await selfCustodyWallet(client, customerId, evmWallet().address);
    const res = await verify(account.id, `0x${"11".repeat(65)}`);
    expect(res.status).toBe(409);
    expect(await statusOf(account.id)).toBe("PENDING_OWNERSHIP_VERIFICATION");
  });

  test("a signature arriving after expiresAt -> 400 on signature, the account becomes UNVERIFIED, the event fires", async () => {
    const wallet = evmWallet();
    const account = await selfCustodyWallet(client, customerId, wallet.address);
    const issued = await challenge(account.id);
    const late = new Date(Date.parse(issued.body.expiresAt) + 1000).toISOString();
    expect((await client.post("/sandbox/clock/advance", { to: late })).status).toBe(200);
    const res = await verify(account.id, wallet.sign(String(issued.body.messageToSign)));
    expect(res.status).toBe(400);
    expect(res.text).toContain("expired");
    expect(await statusOf(account.id)).toBe("UNVERIFIED");
    expect(await statusEvents(account.id)).toEqual(["UNVERIFIED"]);
  });

  test("an altered message does not verify", async () => {
    const wallet = evmWallet();
    const account = await selfCustodyWallet(client, customerId, wallet.address);
    const issued = await challenge(account.id);
    const res = await verify(account.id, wallet.sign(`${issued.body.messageToSign} `));
    expect(res.status).toBe(400);
    expect(await statusOf(account.id)).toBe("UNVERIFIED");
  });

  test("a schema failure -> 400 INVALID_INPUT with no state change (the challenge stays usable)", async () => {
    const wallet = evmWallet();
    const account = await selfCustodyWallet(client, customerId, wallet.address);
    const issued = await challenge(account.id);
    const bad = await client.post(`/customers/external-accounts/${account.id}/verify`, { signature: 42 });
    expect(bad.status).toBe(400);
    expect(await statusOf(account.id)).toBe("PENDING_OWNERSHIP_VERIFICATION");
    expect((await verify(account.id, wallet.sign(String(issued.body.messageToSign)))).status).toBe(200);
  });

  test("platform twins: /platform/external-accounts/{id}/challenge and /verify behave the same", async () => {
    const wallet = evmWallet();
    const created = await client.post<ExternalAccount>("/platform/external-accounts", {
      currency: "USDC",
      ownershipType: "FIRST_PARTY",
      accountInfo: { accountType: "ETHEREUM_WALLET", address: wallet.address },
    });
    expect(created.body.status).toBe("PENDING_OWNERSHIP_VERIFICATION");
    const issued = await client.post<Challenge>(`/platform/external-accounts/${created.body.id}/challenge`, {
      method: "WALLET_SIGNATURE",
    });
    expect(issued.status).toBe(201);
    const res = await client.post<ExternalAccount>(`/platform/external-accounts/${created.body.id}/verify`, {
      signature: wallet.sign(String(issued.body.messageToSign)),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("ACTIVE");
    // A platform account is not reachable through the customer routes.
    expect((await challenge(created.body.id)).status).toBe(404);
  });
});
