import { randomUUID } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { activeCard, cardPlatform } from "../../server/test/cards/helpers.js";
import type { TestClient, TestServer } from "../../server/test/harness.js";
import { startServer } from "../../server/test/harness.js";
import { sessionFor } from "../../server/test/wallet-auth/session-fixture.js";
import {
  BadRequestError,
  ConflictError,
  type CreateDelegatedKeyBody,
  NotFoundError,
  PaysvcClient,
  type SigningKey,
} from "../src/index.js";
import { withEndUserTerms } from "./end-user-terms.js";

// `paysvc.wallet.delegatedKeys` against the real server (issue 21 §6): create through the signed retry with
// a session key of the wallet, list, get and revoke with the platform credential.

let server: TestServer;
let paysvc: PaysvcClient;
let platformId: string;
let client: TestClient;
beforeAll(async () => {
  server = await startServer();
  const { platform, client: raw } = await cardPlatform(server);
  platformId = platform.platformId;
  client = raw;
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...platform });
});
afterAll(() => server.close());

/** A KYC-approved cardholder with an ACTIVE card and an embedded wallet whose session key the test holds. */
async function holder(): Promise<{ body: CreateDelegatedKeyBody; sessionKey: SigningKey }> {
  const customer = await paysvc.customers.create({
    customerType: "INDIVIDUAL",
    fullName: "Sdk Key Holder 457",
    email: `sdk-dk-${randomUUID().slice(0, 8)}@example.com`,
    ...withEndUserTerms,
  });
  const accounts = await paysvc.internalAccounts.listForCustomers({ customerId: customer.id });
  const fiat = accounts.data.find((a) => a.type === "INTERNAL_FIAT");
  const wallet = accounts.data.find((a) => a.type === "EMBEDDED_WALLET");
  if (!fiat || !wallet) throw new Error("the customer lacks an account");
  const card = await activeCard(server, client, { customerId: customer.id, accountId: fiat.id });
  const session = await sessionFor(server, wallet.id, platformId);
  return {
    body: { cardId: card.id, internalAccountId: wallet.id, nickname: "Sdk card key" },
    sessionKey: { privateKey: session.privateKey },
  };
}

describe("paysvc.wallet.delegatedKeys", () => {
  test("create runs the signed retry with the session key and returns the ACTIVE key; get and list show it", async () => {
    const { body, sessionKey } = await holder();
    const key = await paysvc.wallet.delegatedKeys.create(body, sessionKey);
    expect(key.lastResponse.status).toBe(201);
    expect(key).toMatchObject({
      cardId: body.cardId,
      accountId: body.internalAccountId,
      fundingSourceId: body.internalAccountId,
      nickname: "Sdk card key",
      status: "ACTIVE",
    });
    expect(() => p256.Point.fromHex(key.publicKey).assertValidity()).not.toThrow();
    const read = await paysvc.wallet.delegatedKeys.get(key.id);
    expect(read.publicKey).toBe(key.publicKey);
    const list = await paysvc.wallet.delegatedKeys.list({ accountId: body.internalAccountId });
    expect(list.data.map((k) => k.id)).toEqual([key.id]);
  });

  test("revoke answers 204 and the key reads REVOKED; a second ACTIVE key is ConflictError until then", async () => {
    const { body, sessionKey } = await holder();
    const key = await paysvc.wallet.delegatedKeys.create(body, sessionKey);
    await expect(paysvc.wallet.delegatedKeys.create(body, sessionKey)).rejects.toBeInstanceOf(ConflictError);
    const revoked = await paysvc.wallet.delegatedKeys.revoke(key.id);
    expect(revoked.lastResponse.status).toBe(204);
    expect((await paysvc.wallet.delegatedKeys.get(key.id)).status).toBe("REVOKED");
    const list = await paysvc.wallet.delegatedKeys.list({ fundingSourceId: body.internalAccountId });
    expect(list.data.map((k) => k.status)).toEqual(["REVOKED"]);
    expect((await paysvc.wallet.delegatedKeys.create(body, sessionKey)).status).toBe("ACTIVE");
  });

  test("errors are typed: an unknown key is NotFoundError NOT_FOUND, a blank nickname BadRequestError INVALID_INPUT", async () => {
    await expect(
      paysvc.wallet.delegatedKeys.get("DelegatedKey:00000000-0000-7000-8000-000000000001"),
    ).rejects.toMatchObject({ constructor: NotFoundError, code: "NOT_FOUND" });
    const { body, sessionKey } = await holder();
    await expect(
      paysvc.wallet.delegatedKeys.create({ ...body, nickname: " " }, sessionKey),
    ).rejects.toMatchObject({ constructor: BadRequestError, code: "INVALID_INPUT" });
  });
});
