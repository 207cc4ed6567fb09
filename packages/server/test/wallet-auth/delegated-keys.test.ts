import { randomUUID } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CARD_ISSUANCE } from "../../src/cards/issuance-jobs.js";
import { scheduleJob } from "../../src/core/jobs/jobs.js";
import { secretsOf } from "../../src/core/secrets/process-box.js";
import { checkClientPublicKey } from "../../src/wallet-auth/client-public-key.js";
import { activeCard, cardPlatform, issueCard } from "../cards/helpers.js";
import { setCardStatus } from "../cards/transaction-helpers.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import type { Credentials, TestClient, TestServer } from "../harness.js";
import { startServer } from "../harness.js";
import { type Challenge, type SessionKey, sessionFor, signedCall, signedHeaders } from "./session-fixture.js";

// Issue 21 §6: /auth/delegated-keys in the hosted document's shapes, the create through the signed retry
// (conventions §5.3) signed by an active session of the wallet, revoke with the platform credential alone.

interface DelegatedKey {
  id: string;
  cardId: string;
  fundingSourceId: string;
  accountId: string;
  publicKey: string;
  nickname: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

let server: TestServer;
let platform: Credentials;
let client: TestClient;
beforeAll(async () => {
  server = await startServer();
  ({ platform, client } = await cardPlatform(server));
});
afterAll(() => server.close());

const KEYS = "/auth/delegated-keys";

interface Holder {
  customerId: string;
  fiatId: string;
  walletId: string;
  cardId: string;
  session: SessionKey;
}

/** A KYC-approved cardholder with an e-mail: its USD account funds a card, its embedded wallet has a session. */
async function holder(on: TestClient = client, credentials: Credentials = platform): Promise<Holder> {
  const customer = await on.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    fullName: "Key Holder 457",
    email: `dk-${randomUUID().slice(0, 8)}@example.com`,
    ...withEndUserTerms,
  });
  expect(customer.status, customer.text).toBe(201);
  const accounts = await on.get<{ data: { id: string; type: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}`,
  );
  const fiatId = accounts.body.data.find((a) => a.type === "INTERNAL_FIAT")?.id;
  const walletId = accounts.body.data.find((a) => a.type === "EMBEDDED_WALLET")?.id;
  if (!fiatId || !walletId) throw new Error(`customer ${customer.body.id} lacks an account`);
  const card = await activeCard(server, on, { customerId: customer.body.id, accountId: fiatId });
  return {
    customerId: customer.body.id,
    fiatId,
    walletId,
    cardId: card.id,
    session: await sessionFor(server, walletId, credentials.platformId),
  };
}

const createBody = (h: Holder, nickname = "Card payments key") => ({
  cardId: h.cardId,
  internalAccountId: h.walletId,
  nickname,
});

async function createKey(h: Holder, on: TestClient = client): Promise<DelegatedKey> {
  const { result } = await signedCall<DelegatedKey>(on, "POST", KEYS, createBody(h), h.session);
  expect(result.status, result.text).toBe(201);
  return result.body;
}

async function keyRow(id: string) {
  const [row] = await server.db.query<{ private_key: string | null; status: string }>(
    "SELECT private_key, status FROM delegated_keys WHERE id = $1",
    [id],
  );
  return row;
}

describe("POST /auth/delegated-keys (signed retry)", () => {
  test("the first call answers 202 {payloadToSign, requestId, expiresAt} for action CREATE_DELEGATED_KEY on the wallet; no key exists yet", async () => {
    const h = await holder();
    const res = await client.post<Challenge>(KEYS, createBody(h));
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(["expiresAt", "payloadToSign", "requestId"]);
    expect(JSON.parse(res.body.payloadToSign)).toMatchObject({
      action: "CREATE_DELEGATED_KEY",
      accountId: h.walletId,
      requestId: res.body.requestId,
      method: "POST",
      path: `/2025-10-13${KEYS}`,
    });
    expect((await client.get(`${KEYS}?accountId=${h.walletId}`)).body).toEqual({ data: [] });
  });

  test("the identical request signed by an active session of the wallet answers 201 DelegatedKey, ACTIVE, which GET then shows", async () => {
    const h = await holder();
    const key = await createKey(h);
    expect(Object.keys(key).sort()).toEqual(
      [
        "accountId",
        "cardId",
        "createdAt",
        "fundingSourceId",
        "id",
        "nickname",
        "publicKey",
        "status",
        "updatedAt",
      ].sort(),
    );
    expect(key).toMatchObject({
      cardId: h.cardId,
      accountId: h.walletId,
      fundingSourceId: h.walletId,
      nickname: "Card payments key",
      status: "ACTIVE",
    });
    expect(key.id).toMatch(/^DelegatedKey:[0-9a-f-]{36}$/);
    expect((await client.get<DelegatedKey>(`${KEYS}/${key.id}`)).body).toEqual(key);
  });

  test("the key is a real P-256 key pair: publicKey is a compressed curve point and the sealed private half is its scalar", async () => {
    const h = await holder();
    const key = await createKey(h);
    expect(key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(checkClientPublicKey(key.publicKey, "publicKey")).toBe(key.publicKey);
    const row = await keyRow(key.id);
    expect(row?.private_key).toMatch(/^sealed:v1:/);
    const scalar = await secretsOf(server.deps).open("delegated-key", key.id, row?.private_key);
    expect(Buffer.from(p256.getPublicKey(scalar, true)).toString("hex")).toBe(key.publicKey);
  });

  test("a stamp by a session of another wallet is 401 WALLET_SIGNATURE_INVALID and makes no key", async () => {
    const h = await holder();
    const other = await holder();
    const challenge = await client.post<Challenge>(KEYS, createBody(h));
    const res = await client.post(KEYS, createBody(h), {
      headers: await signedHeaders(other.session, challenge.body),
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect((await client.get(`${KEYS}?accountId=${h.walletId}`)).body).toEqual({ data: [] });
  });

  test("a signed retry whose body differs from the challenged one is 401 WALLET_SIGNATURE_BODY_MISMATCH", async () => {
    const h = await holder();
    const challenge = await client.post<Challenge>(KEYS, createBody(h));
    const res = await client.post(KEYS, createBody(h, "Another name"), {
      headers: await signedHeaders(h.session, challenge.body),
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_BODY_MISMATCH" });
  });

  test("the requestId is single use: re-sending the answered signed request is 401 WALLET_SIGNATURE_INVALID", async () => {
    const h = await holder();
    const { headers } = await signedCall(client, "POST", KEYS, createBody(h), h.session);
    const again = await client.post(KEYS, createBody(h), { headers });
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
  });

  test("a bad body is 400 INVALID_INPUT with one FieldError per field (missing, unknown, nickname out of 1..256, blank)", async () => {
    const res = await client.post<{ code: string; details: { errors: { field: string }[] } }>(KEYS, {
      cardId: "Card:x",
      nickname: "n".repeat(257),
      extra: 1,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    const fields = res.body.details.errors.map((e) => e.field).sort();
    expect(fields).toEqual(expect.arrayContaining(["extra", "internalAccountId", "nickname"]));
    const h = await holder();
    const blank = await client.post<{ details: { errors: { field: string }[] } }>(KEYS, createBody(h, "   "));
    expect(blank.status).toBe(400);
    expect(blank.body.details.errors).toEqual([{ field: "nickname", message: "must not be blank" }]);
  });

  test("an unknown, malformed or other platform's card is 404 NOT_FOUND", async () => {
    const h = await holder();
    const other = await cardPlatform(server);
    const elsewhere = await holder(other.client, other.platform);
    for (const cardId of ["Card:00000000-0000-7000-8000-000000000001", "nope", elsewhere.cardId]) {
      const res = await client.post(KEYS, { ...createBody(h), cardId });
      expect(res.status, cardId).toBe(404);
      expect(res.body).toMatchObject({ code: "NOT_FOUND" });
    }
  });

  test("an unknown or other platform's wallet is 404 ACCOUNT_NOT_FOUND; an account that is not an embedded wallet is 409 WALLET_NOT_PROVISIONED", async () => {
    const h = await holder();
    const other = await cardPlatform(server);
    const elsewhere = await holder(other.client, other.platform);
    for (const internalAccountId of [
      "InternalAccount:00000000-0000-7000-8000-000000000001",
      elsewhere.walletId,
    ]) {
      const res = await client.post(KEYS, { ...createBody(h), internalAccountId });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
    }
    const fiat = await client.post(KEYS, { ...createBody(h), internalAccountId: h.fiatId });
    expect(fiat.status).toBe(409);
    expect(fiat.body).toMatchObject({ code: "WALLET_NOT_PROVISIONED" });
  });

  test("a wallet that is not the cardholder's is 400 FUNDING_SOURCE_INELIGIBLE on internalAccountId", async () => {
    const h = await holder();
    const stranger = await holder();
    const res = await client.post(KEYS, { ...createBody(h), internalAccountId: stranger.walletId });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "FUNDING_SOURCE_INELIGIBLE",
      details: { errors: [{ field: "internalAccountId" }] },
    });
  });

  test("a CLOSED card takes no key: 409 CARD_NOT_MUTABLE", async () => {
    const h = await holder();
    await setCardStatus(client, h.cardId, "CLOSED");
    const res = await client.post(KEYS, createBody(h));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CARD_NOT_MUTABLE" });
  });

  test("a card closed between the challenge and the signed retry: the retry answers 409 CARD_NOT_MUTABLE and makes no key", async () => {
    const h = await holder();
    const challenge = await client.post<Challenge>(KEYS, createBody(h));
    await setCardStatus(client, h.cardId, "CLOSED");
    const res = await client.post(KEYS, createBody(h), {
      headers: await signedHeaders(h.session, challenge.body),
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CARD_NOT_MUTABLE" });
    expect((await client.get(`${KEYS}?accountId=${h.walletId}`)).body).toEqual({ data: [] });
  });

  test("one ACTIVE key per card and wallet: a second create is 409 CONFLICT until the first is revoked", async () => {
    const h = await holder();
    const first = await createKey(h);
    const res = await client.post(KEYS, createBody(h));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT" });
    expect((await client.delete(`${KEYS}/${first.id}`)).status).toBe(204);
    const second = await createKey(h);
    expect(second.id).not.toBe(first.id);
    expect(second.publicKey).not.toBe(first.publicKey);
  });
});

describe("GET /auth/delegated-keys and /auth/delegated-keys/{id}", () => {
  test("the list filters by accountId or fundingSourceId (both the wallet), keeps revoked keys, oldest first", async () => {
    const h = await holder();
    const other = await holder();
    const first = await createKey(h);
    await client.delete(`${KEYS}/${first.id}`);
    const second = await createKey(h);
    await createKey(other);
    const byAccount = await client.get<{ data: DelegatedKey[] }>(`${KEYS}?accountId=${h.walletId}`);
    expect(byAccount.status).toBe(200);
    expect(byAccount.body.data.map((k) => [k.id, k.status])).toEqual([
      [first.id, "REVOKED"],
      [second.id, "ACTIVE"],
    ]);
    const bySource = await client.get<{ data: DelegatedKey[] }>(`${KEYS}?fundingSourceId=${h.walletId}`);
    expect(bySource.body).toEqual(byAccount.body);
    const both = await client.get(`${KEYS}?accountId=${h.walletId}&fundingSourceId=${other.walletId}`);
    expect(both.body).toEqual({ data: [] });
    const all = await client.get<{ data: DelegatedKey[] }>(KEYS);
    expect(all.body.data.map((k) => k.id)).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  test("a malformed accountId or fundingSourceId, or an unknown query field, is 400 INVALID_INPUT", async () => {
    for (const query of ["accountId=nope", "fundingSourceId=Card:x", "cardId=Card:x"]) {
      const res = await client.get(`${KEYS}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
    }
  });

  test("tenant isolation: another platform lists none of these keys and reads their ids as 404 NOT_FOUND", async () => {
    const h = await holder();
    const key = await createKey(h);
    const other = server.client.as(await server.newPlatform());
    expect((await other.get(`${KEYS}?accountId=${h.walletId}`)).body).toEqual({ data: [] });
    expect((await other.get<{ data: unknown[] }>(KEYS)).body.data).toEqual([]);
    const read = await other.get(`${KEYS}/${key.id}`);
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({ code: "NOT_FOUND" });
    const revoke = await other.delete(`${KEYS}/${key.id}`);
    expect(revoke.status).toBe(404);
    expect(revoke.body).toMatchObject({ code: "NOT_FOUND" });
    expect((await client.get<DelegatedKey>(`${KEYS}/${key.id}`)).body.status).toBe("ACTIVE");
  });

  test("a malformed, wrong-prefix or unknown id is 404 NOT_FOUND", async () => {
    for (const id of [
      "nope",
      "Card:00000000-0000-7000-8000-000000000001",
      "DelegatedKey:00000000-0000-7000-8000-000000000001",
    ]) {
      const res = await client.get(`${KEYS}/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ code: "NOT_FOUND" });
    }
  });
});

describe("DELETE /auth/delegated-keys/{id}", () => {
  test("revoking with the platform credential alone answers 204: the key is REVOKED and its private half erased", async () => {
    const h = await holder();
    const key = await createKey(h);
    const res = await client.delete(`${KEYS}/${key.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const after = (await client.get<DelegatedKey>(`${KEYS}/${key.id}`)).body;
    expect(after).toEqual({ ...key, status: "REVOKED", updatedAt: after.updatedAt });
    expect(after.updatedAt >= key.updatedAt).toBe(true);
    expect(await keyRow(key.id)).toEqual({ private_key: null, status: "REVOKED" });
  });

  test("closing the card revokes its ACTIVE key in the same change and erases the private half", async () => {
    const h = await holder();
    const key = await createKey(h);
    await setCardStatus(client, h.cardId, "CLOSED");
    const after = (await client.get<DelegatedKey>(`${KEYS}/${key.id}`)).body;
    expect(after.status).toBe("REVOKED");
    expect(after.updatedAt >= key.updatedAt).toBe(true);
    expect(await keyRow(key.id)).toEqual({ private_key: null, status: "REVOKED" });
  });

  test("a PROCESSING card takes a key; the issuer's rejection (card CLOSED) revokes it", async () => {
    const h = await holder();
    const card = await issueCard(
      client,
      { customerId: h.customerId, accountId: h.fiatId },
      { platformCardId: `pending-${randomUUID().slice(0, 8)}-001` },
    );
    expect(card.status).toBe("PROCESSING");
    const key = await createKey({ ...h, cardId: card.id });
    expect(key.status).toBe("ACTIVE");
    // The issuer's answer, as cards/issue.ts schedules it for a rejected card.
    await server.db.transaction((tx) =>
      scheduleJob(tx, {
        platformId: platform.platformId,
        kind: CARD_ISSUANCE,
        payload: { cardId: card.id, outcome: "REJECT" },
        runAt: new Date(0),
        now: new Date(),
      }),
    );
    await server.jobs.runDue();
    expect((await client.get<{ status: string }>(`/cards/${card.id}`)).body.status).toBe("CLOSED");
    expect((await client.get<DelegatedKey>(`${KEYS}/${key.id}`)).body.status).toBe("REVOKED");
    expect(await keyRow(key.id)).toEqual({ private_key: null, status: "REVOKED" });
  });

  test("a VIEW token may list and read keys but neither create nor revoke them: 403 FORBIDDEN", async () => {
    const h = await holder();
    const key = await createKey(h);
    const token = await client.post<{ id: string; clientId: string; clientSecret: string }>("/tokens", {
      name: "viewer",
      permissions: ["VIEW"],
    });
    const viewer = client.as({ ...platform, tokenId: token.body.id, ...token.body });
    expect((await viewer.get(`${KEYS}/${key.id}`)).status).toBe(200);
    expect((await viewer.get(`${KEYS}?accountId=${h.walletId}`)).status).toBe(200);
    for (const res of [await viewer.post(KEYS, createBody(h)), await viewer.delete(`${KEYS}/${key.id}`)]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: "FORBIDDEN" });
    }
    expect((await client.get<DelegatedKey>(`${KEYS}/${key.id}`)).body.status).toBe("ACTIVE");
  });

  test("revoking a revoked key answers 204 again and changes nothing", async () => {
    const h = await holder();
    const key = await createKey(h);
    await client.delete(`${KEYS}/${key.id}`);
    const once = (await client.get<DelegatedKey>(`${KEYS}/${key.id}`)).body;
    expect((await client.delete(`${KEYS}/${key.id}`)).status).toBe(204);
    expect((await client.get<DelegatedKey>(`${KEYS}/${key.id}`)).body).toEqual(once);
  });
});
