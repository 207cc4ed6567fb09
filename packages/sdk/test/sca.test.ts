import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../../server/test/harness.js";
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  PaysvcClient,
  PaysvcError,
  type Quote,
  type ScaChallenge,
} from "../src/index.js";
import { withEndUserTerms } from "./end-user-terms.js";

/** Wednesday 10:00 Chicago: a business day. */
const AT = "2027-03-10T16:00:00.000Z";
const OTP = "000000";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A fresh sandbox platform at `AT`: the SDK client and a raw client for the quote calls the SDK lacks. */
async function platform(): Promise<{ paysvc: PaysvcClient; raw: TestClient }> {
  const credentials = await server.newPlatform();
  const paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...credentials });
  await paysvc.sandbox.advanceClock(AT);
  return { paysvc, raw: server.client.as(credentials) };
}

/** A customer in Germany (an SCA region) with e-mail and phone, and its funded USD account. */
async function scaCustomer(paysvc: PaysvcClient, region = "DE") {
  const customer = await paysvc.customers.create({
    customerType: "INDIVIDUAL",
    ...withEndUserTerms,
    region,
    email: `sca-${crypto.randomUUID()}@example.com`,
    phoneNumber: "+4915112345678",
  });
  const accounts = await paysvc.internalAccounts.listForCustomers({
    customerId: customer.id,
    currency: "USD",
    type: "INTERNAL_FIAT",
  });
  const accountId = accounts.data[0]?.id as string;
  await paysvc.sandbox.fund(accountId, 100_000);
  return { customerId: customer.id, accountId };
}

async function bankAccount(paysvc: PaysvcClient, customerId: string): Promise<string> {
  const account = await paysvc.externalAccounts.create({
    customerId,
    currency: "USD",
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: `${Math.floor(Math.random() * 1e8)}10`.padStart(12, "1"),
      routingNumber: "021000021",
      bankAccountType: "CHECKING",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "DE" },
    },
  });
  return account.id;
}

describe("SCA login through the SDK", () => {
  test("login(customerId, code) starts and completes a login: a session 180 days long", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const session = await paysvc.sca.login(customerId, OTP);
    expect(session.lastResponse.status).toBe(200);
    expect(session).toMatchObject({ customerId, factor: "OTP", id: expect.stringMatching(/^Session:/) });
    expect(Date.parse(session.sessionExpiresAt) - Date.parse(session.createdAt)).toBe(180 * 24 * 3600_000);
  });

  test("login with an answer function hands it the challenge and sends what it returns", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const seen: ScaChallenge[] = [];
    const session = await paysvc.sca.login(customerId, (challenge) => {
      seen.push(challenge);
      return { code: OTP };
    });
    expect(seen).toEqual([
      expect.objectContaining({ customerId, purpose: "LOGIN", factor: "OTP", requestId: expect.any(String) }),
    ]);
    expect(session.customerId).toBe(customerId);
  });

  test("login repeated with the same idempotencyKey replays the same session (one key per step)", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const first = await paysvc.sca.login(customerId, OTP, { idempotencyKey: "sdk-login-1" });
    const again = await paysvc.sca.login(customerId, OTP, { idempotencyKey: "sdk-login-1" });
    expect(again).toEqual({ ...first });
  });

  test("a wrong code is BadRequestError INVALID_INPUT naming the code field", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const refused = paysvc.sca.login(customerId, "123456");
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    const error = (await refused.catch((e: unknown) => e)) as PaysvcError;
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.fieldErrors.map((f) => f.field)).toContain("code");
  });

  test("the 5th wrong code in a row locks the customer: a PaysvcError with status 423 ACCOUNT_LOCKED", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const challenge = await paysvc.sca.startLogin({ customerId });
    for (let i = 0; i < 4; i++) {
      await expect(
        paysvc.sca.completeLogin({ requestId: challenge.requestId, code: "111111" }),
      ).rejects.toMatchObject({ status: 400 });
    }
    const locked = paysvc.sca.completeLogin({ requestId: challenge.requestId, code: "111111" });
    await expect(locked).rejects.toBeInstanceOf(PaysvcError);
    await expect(locked).rejects.toMatchObject({ status: 423, code: "ACCOUNT_LOCKED" });
  });

  test("a customer outside the SCA regions is ConflictError CONFLICT", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc, "US");
    await expect(paysvc.sca.login(customerId, OTP)).rejects.toMatchObject({ status: 409, code: "CONFLICT" });
  });

  test("revokeSession logs out (204): trust changes are then ConflictError SCA_SESSION_REQUIRED", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const externalId = await bankAccount(paysvc, customerId);
    const session = await paysvc.sca.login(customerId, OTP);
    expect((await paysvc.sca.revokeSession(session.id)).lastResponse.status).toBe(204);
    await expect(paysvc.sca.startBeneficiaryTrust(externalId)).rejects.toMatchObject({
      status: 409,
      code: "SCA_SESSION_REQUIRED",
    });
  });

  test("revoking an unknown session is NotFoundError SESSION_NOT_FOUND", async () => {
    const { paysvc } = await platform();
    const refused = paysvc.sca.revokeSession("Session:nope");
    await expect(refused).rejects.toBeInstanceOf(NotFoundError);
    await expect(refused).rejects.toMatchObject({ code: "SESSION_NOT_FOUND" });
  });
});

describe("trusted beneficiaries through the SDK", () => {
  test("trusting without a live SCA session is ConflictError SCA_SESSION_REQUIRED", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const externalId = await bankAccount(paysvc, customerId);
    const refused = paysvc.sca.startBeneficiaryTrust(externalId);
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toMatchObject({ status: 409, code: "SCA_SESSION_REQUIRED" });
  });

  test("startBeneficiaryTrust answers a challenge (200); confirmBeneficiaryTrust with the code trusts the account", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    await paysvc.sca.login(customerId, OTP);
    const externalId = await bankAccount(paysvc, customerId);
    const started = await paysvc.sca.startBeneficiaryTrust(externalId);
    expect(started.lastResponse.status).toBe(200);
    expect(started.scaChallenge).toMatchObject({ customerId, purpose: "TRUST_BENEFICIARY", factor: "OTP" });
    const confirmed = await paysvc.sca.confirmBeneficiaryTrust(externalId, {
      challengeId: started.scaChallenge?.requestId,
      code: OTP,
    });
    expect(confirmed).toMatchObject({ trusted: true });
    expect((await paysvc.externalAccounts.get(externalId)).beneficiaryTrustStatus).toBe("TRUSTED");
  });

  test("startBeneficiaryUntrust answers a challenge; confirmBeneficiaryUntrust with the code untrusts the account", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    await paysvc.sca.login(customerId, OTP);
    const externalId = await bankAccount(paysvc, customerId);
    await paysvc.sca.startBeneficiaryTrust(externalId);
    await paysvc.sca.confirmBeneficiaryTrust(externalId, { code: OTP });
    const started = await paysvc.sca.startBeneficiaryUntrust(externalId);
    expect(started.lastResponse.status).toBe(200);
    expect(started.scaChallenge).toMatchObject({ customerId, purpose: "UNTRUST_BENEFICIARY" });
    const confirmed = await paysvc.sca.confirmBeneficiaryUntrust(externalId, { code: OTP });
    expect(confirmed).toMatchObject({ trusted: false });
    expect((await paysvc.externalAccounts.get(externalId)).beneficiaryTrustStatus).toBe("UNTRUSTED");
  });

  test("a wrong code is BadRequestError INVALID_INPUT on code", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    await paysvc.sca.login(customerId, OTP);
    const externalId = await bankAccount(paysvc, customerId);
    await paysvc.sca.startBeneficiaryTrust(externalId);
    const refused = paysvc.sca.confirmBeneficiaryTrust(externalId, { code: "111111" });
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});

describe("payment challenges through the SDK", () => {
  test("completePayment answers a held payout's scaChallenge and executes the quote", async () => {
    const { paysvc, raw } = await platform();
    const { customerId, accountId } = await scaCustomer(paysvc);
    await paysvc.sca.login(customerId, OTP);
    const externalId = await bankAccount(paysvc, customerId);
    const quote = await raw.post<Quote>("/quotes", {
      source: { sourceType: "ACCOUNT", accountId },
      destination: { destinationType: "ACCOUNT", accountId: externalId },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 10_000,
    });
    const held = await raw.post<Quote>(`/quotes/${quote.body.id}/execute`);
    expect(held.body.status).toBe("PENDING_AUTHORIZATION");
    const done = await paysvc.sca.completePayment({
      requestId: held.body.scaChallenge?.requestId as string,
      code: OTP,
    });
    expect(done).toMatchObject({ id: quote.body.id, transactionId: expect.stringMatching(/^Transaction:/) });
    expect(done.status).not.toBe("PENDING_AUTHORIZATION");
    expect((await paysvc.internalAccounts.get(accountId)).balance.amount).toBe(90_000);
  });
});
