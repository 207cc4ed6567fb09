import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import {
  advanceBy,
  balanceOf,
  bankAccount,
  type ErrorBody,
  endSessions,
  login,
  payout,
  platformClient,
  type Quote,
  scaCustomer,
} from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const DAY = 24 * 60 * 60_000;

/** A quote moving 1,000 cents from the customer's account to another customer's internal account. */
async function internalQuote(client: TestClient, accountId: string) {
  const { accountId: receiver } = await scaCustomer(client, { region: "US", funds: 0 });
  const res = await client.post<Quote>("/quotes", {
    source: { sourceType: "ACCOUNT", accountId },
    destination: { destinationType: "ACCOUNT", accountId: receiver },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: 1_000,
  });
  expect(res.status).toBe(201);
  return res.body;
}

const authorize = (client: TestClient, quoteId: string, code: string) =>
  client.post<Quote & ErrorBody>(`/quotes/${quoteId}/authorize`, { code, endUserIpAddress: "203.0.113.42" });

const execute = (client: TestClient, quoteId: string, body?: Record<string, unknown>) =>
  client.post<Quote & ErrorBody>(`/quotes/${quoteId}/execute`, body);

describe("409 SCA_SESSION_REQUIRED on quote execution (interface rule 11)", () => {
  test("executing a quote from an SCA customer's account without a session is 409 SCA_SESSION_REQUIRED, not 401", async () => {
    const client = await platformClient(server);
    const { accountId } = await scaCustomer(client);
    const quote = await internalQuote(client, accountId);
    const res = await execute(client, quote.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SCA_SESSION_REQUIRED");
    expect(await balanceOf(client, accountId)).toBe(100_000);
    expect((await client.get<Quote>(`/quotes/${quote.id}`)).body.status).toBe("PENDING");
  });

  test("with a live SCA session the same execution completes", async () => {
    const client = await platformClient(server);
    const { customerId, accountId } = await scaCustomer(client);
    await login(client, customerId);
    const quote = await internalQuote(client, accountId);
    const res = await execute(client, quote.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("COMPLETED");
    expect(await balanceOf(client, accountId)).toBe(99_000);
  });

  test("a session expires 180 days after login: executing then is 409 SCA_SESSION_REQUIRED", async () => {
    const client = await platformClient(server);
    const { customerId, accountId } = await scaCustomer(client);
    await login(client, customerId);
    await advanceBy(client, 180 * DAY + 1_000);
    const quote = await internalQuote(client, accountId);
    const res = await execute(client, quote.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SCA_SESSION_REQUIRED");
  });

  test("a session ended by a password reset (record-event) no longer counts: 409 SCA_SESSION_REQUIRED", async () => {
    const client = await platformClient(server);
    const { customerId, accountId } = await scaCustomer(client);
    await login(client, customerId);
    await endSessions(client, customerId);
    const quote = await internalQuote(client, accountId);
    expect((await execute(client, quote.id)).body.code).toBe("SCA_SESSION_REQUIRED");
  });

  test("immediatelyExecute without a session is 409 SCA_SESSION_REQUIRED and creates nothing", async () => {
    const client = await platformClient(server);
    const { accountId } = await scaCustomer(client);
    const { accountId: receiver } = await scaCustomer(client, { region: "US", funds: 0 });
    const res = await client.post<ErrorBody>("/quotes", {
      source: { sourceType: "ACCOUNT", accountId },
      destination: { destinationType: "ACCOUNT", accountId: receiver },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
      immediatelyExecute: true,
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SCA_SESSION_REQUIRED");
    expect(await balanceOf(client, accountId)).toBe(100_000);
  });

  test("customers outside the SCA regions execute without any SCA session", async () => {
    const client = await platformClient(server);
    const { accountId } = await scaCustomer(client, { region: "US" });
    const quote = await internalQuote(client, accountId);
    expect((await execute(client, quote.id)).body.status).toBe("COMPLETED");
  });
});

describe("per-payment SCA challenge and failure reason SCA_NOT_COMPLETED", () => {
  async function heldPayout(client: TestClient, scaFactor?: string) {
    const { customerId, accountId } = await scaCustomer(client);
    await login(client, customerId);
    const externalId = await bankAccount(client, customerId);
    const quote = await client.post<Quote>("/quotes", payout(accountId, externalId, 10_000));
    expect(quote.status).toBe(201);
    const held = await execute(client, quote.body.id, scaFactor ? { scaFactor } : undefined);
    return { customerId, accountId, externalId, quote: quote.body, held };
  }

  test("a payout to an untrusted beneficiary is held: PENDING_AUTHORIZATION with scaChallenge, nothing debited", async () => {
    const client = await platformClient(server);
    const { accountId, held, quote } = await heldPayout(client);
    expect(held.status).toBe(200);
    expect(held.body.status).toBe("PENDING_AUTHORIZATION");
    expect(held.body.scaChallenge).toMatchObject({
      id: expect.stringMatching(/^Request:/),
      factor: "SMS_OTP",
      availableFactors: ["SMS_OTP"],
      purpose: "PAYOUT",
      passkeyAssertionOptions: null,
    });
    expect(held.body.transactionId).toBe(quote.transactionId);
    const notYet = await client.get(`/transactions/${held.body.transactionId}`);
    expect([notYet.status, notYet.body.code]).toEqual([404, "TRANSACTION_NOT_FOUND"]);
    expect(await balanceOf(client, accountId)).toBe(100_000);
    const again = await execute(client, held.body.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CONFLICT");
  });

  test("answering the payment challenge executes the held quote", async () => {
    const client = await platformClient(server);
    const { accountId, held } = await heldPayout(client);
    const done = await authorize(client, held.body.id, "000000");
    expect(done.status).toBe(200);
    expect(done.body.status).not.toBe("PENDING_AUTHORIZATION");
    expect(done.body.transactionId).toMatch(/^Transaction:/);
    expect(await balanceOf(client, accountId)).toBe(90_000);
  });

  test("a payment challenge left unanswered past its expiry ends FAILED with SCA_NOT_COMPLETED; nothing moves", async () => {
    const client = await platformClient(server);
    const { accountId, held } = await heldPayout(client);
    await advanceBy(client, 5 * 60_000 + 1_000);
    await server.jobs.runDue();
    const quote = await client.get<Quote>(`/quotes/${held.body.id}`);
    expect(quote.body.status).toBe("FAILED");
    const txn = await client.get<{ status: string; failureReason: string; type: string }>(
      `/transactions/${quote.body.transactionId}`,
    );
    expect(txn.body).toMatchObject({
      type: "OUTGOING",
      status: "FAILED",
      failureReason: "SCA_NOT_COMPLETED",
    });
    expect(await balanceOf(client, accountId)).toBe(100_000);
    const late = await authorize(client, held.body.id, "000000");
    expect(late.status).toBe(409);
  });

  test("answering after expiry (before the expiry job ran) also fails the payment with SCA_NOT_COMPLETED", async () => {
    const client = await platformClient(server);
    const { held } = await heldPayout(client);
    await advanceBy(client, 5 * 60_000 + 1_000);
    const late = await authorize(client, held.body.id, "000000");
    expect(late.status).toBe(409);
    const quote = await client.get<Quote>(`/quotes/${held.body.id}`);
    expect(quote.body.status).toBe("FAILED");
    const txn = await client.get<{ failureReason: string }>(`/transactions/${quote.body.transactionId}`);
    expect(txn.body.failureReason).toBe("SCA_NOT_COMPLETED");
  });

  test("a payout to a trusted beneficiary needs no payment challenge", async () => {
    const client = await platformClient(server);
    const { customerId, accountId } = await scaCustomer(client);
    await login(client, customerId);
    const externalId = await bankAccount(client, customerId);
    expect((await client.post(`/customers/external-accounts/${externalId}/trust`)).status).toBe(200);
    expect(
      (await client.post(`/customers/external-accounts/${externalId}/trust/confirm`, { code: "000000" }))
        .body,
    ).toEqual({ trusted: true });
    const quote = await client.post<Quote>("/quotes", payout(accountId, externalId, 10_000));
    const res = await execute(client, quote.body.id);
    expect(res.status).toBe(200);
    expect(res.body.status).not.toBe("PENDING_AUTHORIZATION");
    expect(res.body.scaChallenge).toBeUndefined();
    expect(await balanceOf(client, accountId)).toBe(90_000);
  });

  test("immediatelyExecute of a payout to an untrusted beneficiary is 400 INVALID_INPUT on immediatelyExecute", async () => {
    const client = await platformClient(server);
    const { customerId, accountId } = await scaCustomer(client);
    await login(client, customerId);
    const externalId = await bankAccount(client, customerId);
    const res = await client.post<ErrorBody>(
      "/quotes",
      payout(accountId, externalId, 10_000, { immediatelyExecute: true }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "immediatelyExecute" })]);
    expect(await balanceOf(client, accountId)).toBe(100_000);
  });

  test("a wrong payment code is 400 INVALID_INPUT and the quote stays held", async () => {
    const client = await platformClient(server);
    const { held } = await heldPayout(client);
    const wrong = await authorize(client, held.body.id, "999999");
    expect(wrong.status).toBe(400);
    expect((await client.get<Quote>(`/quotes/${held.body.id}`)).body.status).toBe("PENDING_AUTHORIZATION");
  });

  test("a locked customer's payout cannot be held for a challenge: 423 ACCOUNT_LOCKED", async () => {
    const client = await platformClient(server);
    const { accountId, externalId, held } = await heldPayout(client);
    for (let i = 0; i < 4; i++) expect((await authorize(client, held.body.id, "999999")).status).toBe(400);
    const fifth = await authorize(client, held.body.id, "999999");
    expect(fifth.status).toBe(423);
    const next = await client.post<Quote>("/quotes", payout(accountId, externalId, 1_000));
    const res = await execute(client, next.body.id);
    expect(res.status).toBe(423);
    expect(res.body.code).toBe("ACCOUNT_LOCKED");
    expect(await balanceOf(client, accountId)).toBe(100_000);
  });

  test("scaFactor PASSKEY without an enrolled passkey is 409 CONFLICT; an unknown factor is 400", async () => {
    const client = await platformClient(server);
    const { held } = await heldPayout(client, "PASSKEY");
    expect(held.status).toBe(409);
    const { held: unknown } = await heldPayout(client, "CARRIER_PIGEON");
    expect(unknown.status).toBe(400);
    expect(unknown.body.details?.errors).toEqual([expect.objectContaining({ field: "scaFactor" })]);
  });

  test("authorize is the hosted /quotes/{quoteId}/authorize: an unknown quote is 404 QUOTE_NOT_FOUND, a quote not held is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const unknown = await authorize(client, "Quote:nope", "000000");
    expect([unknown.status, unknown.body.code]).toEqual([404, "QUOTE_NOT_FOUND"]);
    const { held } = await heldPayout(client);
    expect((await authorize(client, held.body.id, "000000")).status).toBe(200);
    const again = await authorize(client, held.body.id, "000000");
    expect([again.status, again.body.code]).toEqual([409, "CONFLICT"]);
  });

  test("authorize without code is 400 INVALID_INPUT on code", async () => {
    const client = await platformClient(server);
    const { held } = await heldPayout(client);
    const res = await client.post<ErrorBody>(`/quotes/${held.body.id}/authorize`, {});
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
  });

  test("resend (204) replaces the quote's scaChallenge with a new code; the old challenge id is gone", async () => {
    const client = await platformClient(server);
    const { accountId, held } = await heldPayout(client);
    await advanceBy(client, 31_000);
    const resent = await client.post(`/quotes/${held.body.id}/authorize/resend`);
    expect(resent.status).toBe(204);
    const quote = await client.get<Quote>(`/quotes/${held.body.id}`);
    expect(quote.body.status).toBe("PENDING_AUTHORIZATION");
    expect(quote.body.scaChallenge?.id).toMatch(/^Request:/);
    expect(quote.body.scaChallenge?.id).not.toBe(held.body.scaChallenge?.id);
    // The first challenge's expiry passes: the payment is not failed, the new code is still answerable.
    await advanceBy(client, 4 * 60_000 + 40_000);
    await server.jobs.runDue();
    expect((await authorize(client, held.body.id, "000000")).status).toBe(200);
    expect(await balanceOf(client, accountId)).toBe(90_000);
  });

  test("resend within 30 seconds of the last code is 429 RATE_LIMITED", async () => {
    const client = await platformClient(server);
    const { held } = await heldPayout(client);
    const res = await client.post<ErrorBody>(`/quotes/${held.body.id}/authorize/resend`);
    expect([res.status, res.body.code]).toEqual([429, "RATE_LIMITED"]);
  });

  test("resend for a quote not waiting for authorization is 409 CONFLICT; an unknown one 404 QUOTE_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const { customerId, accountId } = await scaCustomer(client);
    await login(client, customerId);
    const quote = await internalQuote(client, accountId);
    const res = await client.post<ErrorBody>(`/quotes/${quote.id}/authorize/resend`);
    expect([res.status, res.body.code]).toEqual([409, "CONFLICT"]);
    const unknown = await client.post<ErrorBody>("/quotes/Quote:nope/authorize/resend");
    expect([unknown.status, unknown.body.code]).toEqual([404, "QUOTE_NOT_FOUND"]);
  });
});
