import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../../server/test/harness.js";
import { SoftAuthenticator } from "../../server/test/wallet-auth/webauthn-authenticator.js";
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  PaysvcClient,
  PaysvcError,
  type Quote,
  type ScaLoginStart,
} from "../src/index.js";
import { withEndUserTerms } from "./end-user-terms.js";

/** Wednesday 10:00 Chicago: a business day. */
const AT = "2027-03-10T16:00:00.000Z";
const OTP = "000000";
const IP = "203.0.113.42";
const ORIGIN = "http://localhost:5173";
const DAY = 24 * 3600_000;

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
  test("login(customerId, endUserIpAddress, code) starts and completes a login: SUCCESS, a session 180 days long", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const done = await paysvc.sca.login(customerId, IP, OTP);
    expect(done.lastResponse.status).toBe(200);
    expect(done.status).toBe("SUCCESS");
    const lasts = Date.parse(done.sessionExpiresAt ?? "") - Date.parse(AT);
    expect(lasts).toBeGreaterThanOrEqual(180 * DAY);
    expect(lasts).toBeLessThan(180 * DAY + 60_000);
  });

  test("login with an answer function hands it the login start and sends what it returns", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const seen: ScaLoginStart[] = [];
    const done = await paysvc.sca.login(customerId, IP, (start) => {
      seen.push(start);
      return { code: OTP };
    });
    expect(seen).toEqual([
      expect.objectContaining({ factor: "SMS_OTP", challengeId: expect.stringMatching(/^Request:/) }),
    ]);
    expect(done.status).toBe("SUCCESS");
  });

  test("login repeated with the same idempotencyKey replays the same answer (one key per step)", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const first = await paysvc.sca.login(customerId, IP, OTP, { idempotencyKey: "sdk-login-1" });
    const again = await paysvc.sca.login(customerId, IP, OTP, { idempotencyKey: "sdk-login-1" });
    expect(again).toEqual({ ...first });
  });

  test("a wrong code is BadRequestError INVALID_INPUT naming the code field", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const refused = paysvc.sca.login(customerId, IP, "123456");
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    const error = (await refused.catch((e: unknown) => e)) as PaysvcError;
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.fieldErrors.map((f) => f.field)).toContain("code");
  });

  test("the 5th wrong code in a row locks the customer: a PaysvcError with status 423 ACCOUNT_LOCKED", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const start = await paysvc.sca.startLogin(customerId, { factor: "SMS_OTP" });
    const wrong = {
      factor: "SMS_OTP" as const,
      endUserIpAddress: IP,
      challengeId: start.challengeId,
      code: "111111",
    };
    for (let i = 0; i < 4; i++)
      await expect(paysvc.sca.completeLogin(customerId, wrong)).rejects.toMatchObject({ status: 400 });
    const locked = paysvc.sca.completeLogin(customerId, wrong);
    await expect(locked).rejects.toBeInstanceOf(PaysvcError);
    await expect(locked).rejects.toMatchObject({ status: 423, code: "ACCOUNT_LOCKED" });
  });

  test("a customer outside the SCA regions is ConflictError CONFLICT", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc, "US");
    await expect(paysvc.sca.login(customerId, IP, OTP)).rejects.toMatchObject({
      status: 409,
      code: "CONFLICT",
    });
  });

  test("recordSecurityEvent RESET_PASSWORD_COMPLETED ends the session: trust changes are then ConflictError SCA_SESSION_REQUIRED", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const externalId = await bankAccount(paysvc, customerId);
    await paysvc.sca.login(customerId, IP, OTP);
    const event = await paysvc.sca.recordSecurityEvent(customerId, { eventType: "RESET_PASSWORD_COMPLETED" });
    expect(event).toMatchObject({ eventType: "RESET_PASSWORD_COMPLETED", suspended: false, customerId });
    await expect(paysvc.sca.startBeneficiaryTrust(externalId)).rejects.toMatchObject({
      status: 409,
      code: "SCA_SESSION_REQUIRED",
    });
  });

  test("recordSecurityEvent FAILED_LOGIN_ATTEMPT counts the attempts", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const event = await paysvc.sca.recordSecurityEvent(customerId, { eventType: "FAILED_LOGIN_ATTEMPT" });
    expect(event).toMatchObject({ failedAttempts: 1, suspended: false, lockedUntil: null });
  });
});

describe("SCA factors through the SDK (passkeys, real WebAuthn)", () => {
  async function enrolled(paysvc: PaysvcClient) {
    const { customerId, accountId } = await scaCustomer(paysvc);
    await paysvc.sca.login(customerId, IP, OTP);
    const authenticator = new SoftAuthenticator();
    const start = await paysvc.sca.startFactorEnrollment(customerId, { type: "PASSKEY" });
    expect(start).toMatchObject({ type: "PASSKEY", relyingPartyId: "localhost" });
    if (start.type !== "PASSKEY") throw new Error("a PASSKEY enrolment answers PasskeyEnrollmentStart");
    const attestation = authenticator.register(String(start.options.challenge));
    const confirmed = await paysvc.sca.confirmFactorEnrollment(customerId, {
      type: "PASSKEY",
      origin: ORIGIN,
      credential: {
        id: attestation.credentialId,
        rawId: attestation.credentialId,
        type: "public-key",
        response: {
          clientDataJSON: attestation.clientDataJson,
          attestationObject: attestation.attestationObject,
          transports: attestation.transports,
        },
      },
    });
    if (confirmed.type !== "PASSKEY")
      throw new Error("a PASSKEY confirm answers PasskeyEnrollmentConfirmResponse");
    return { customerId, accountId, authenticator, confirmed };
  }

  test("startFactorEnrollment and confirmFactorEnrollment enroll the passkey; listFactors shows it; deleteFactor removes it", async () => {
    const { paysvc } = await platform();
    const { customerId, authenticator, confirmed } = await enrolled(paysvc);
    expect(confirmed.factor).toEqual({ factor: "PASSKEY", credentialId: authenticator.id, name: "Passkey" });
    expect((await paysvc.sca.listFactors(customerId)).factors.map((f) => f.factor)).toEqual([
      "SMS_OTP",
      "PASSKEY",
    ]);
    await expect(paysvc.sca.startFactorEnrollment(customerId, { type: "PASSKEY" })).rejects.toMatchObject({
      status: 409,
      code: "PASSKEY_ALREADY_ENROLLED",
    });
    expect((await paysvc.sca.deleteFactor(customerId, authenticator.id)).lastResponse.status).toBe(204);
    const gone = paysvc.sca.deleteFactor(customerId, authenticator.id);
    await expect(gone).rejects.toBeInstanceOf(NotFoundError);
    await expect(gone).rejects.toMatchObject({ code: "AUTH_METHOD_NOT_FOUND" });
  });

  test("login with the PASSKEY factor signs passkeyOptions", async () => {
    const { paysvc } = await platform();
    const { customerId, authenticator } = await enrolled(paysvc);
    const done = await paysvc.sca.login(
      customerId,
      IP,
      (start) => ({
        origin: ORIGIN,
        passkeyAssertion: authenticator.assert(
          Buffer.from(String(start.passkeyOptions?.challenge), "base64url").toString("utf8"),
        ),
      }),
      { factor: "PASSKEY" },
    );
    expect(done.status).toBe("SUCCESS");
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
    await paysvc.sca.login(customerId, IP, OTP);
    const externalId = await bankAccount(paysvc, customerId);
    const started = await paysvc.sca.startBeneficiaryTrust(externalId);
    expect(started.lastResponse.status).toBe(200);
    expect(started.scaChallenge).toMatchObject({ purpose: "TRUST_BENEFICIARY", factor: "SMS_OTP" });
    const confirmed = await paysvc.sca.confirmBeneficiaryTrust(externalId, {
      challengeId: started.scaChallenge?.id,
      code: OTP,
    });
    expect(confirmed).toMatchObject({ trusted: true });
    expect((await paysvc.externalAccounts.get(externalId)).beneficiaryTrustStatus).toBe("TRUSTED");
  });

  test("startBeneficiaryUntrust answers a challenge; confirmBeneficiaryUntrust with the code untrusts the account", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    await paysvc.sca.login(customerId, IP, OTP);
    const externalId = await bankAccount(paysvc, customerId);
    await paysvc.sca.startBeneficiaryTrust(externalId);
    await paysvc.sca.confirmBeneficiaryTrust(externalId, { code: OTP });
    const started = await paysvc.sca.startBeneficiaryUntrust(externalId);
    expect(started.lastResponse.status).toBe(200);
    expect(started.scaChallenge).toMatchObject({ purpose: "UNTRUST_BENEFICIARY" });
    const confirmed = await paysvc.sca.confirmBeneficiaryUntrust(externalId, { code: OTP });
    expect(confirmed).toMatchObject({ trusted: false });
    expect((await paysvc.externalAccounts.get(externalId)).beneficiaryTrustStatus).toBe("UNTRUSTED");
  });

  test("a wrong code is BadRequestError INVALID_INPUT on code", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    await paysvc.sca.login(customerId, IP, OTP);
    const externalId = await bankAccount(paysvc, customerId);
    await paysvc.sca.startBeneficiaryTrust(externalId);
    const refused = paysvc.sca.confirmBeneficiaryTrust(externalId, { code: "111111" });
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});

describe("quote authorization through the SDK", () => {
  async function heldPayout(paysvc: PaysvcClient, raw: TestClient) {
    const { customerId, accountId } = await scaCustomer(paysvc);
    await paysvc.sca.login(customerId, IP, OTP);
    const externalId = await bankAccount(paysvc, customerId);
    const quote = await raw.post<Quote>("/quotes", {
      source: { sourceType: "ACCOUNT", accountId },
      destination: { destinationType: "ACCOUNT", accountId: externalId },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 10_000,
    });
    const held = await raw.post<Quote>(`/quotes/${quote.body.id}/execute`);
    expect(held.body.status).toBe("PENDING_AUTHORIZATION");
    return { accountId, quoteId: quote.body.id, held: held.body };
  }

  test("authorizeQuote answers a held payout's scaChallenge and executes the quote", async () => {
    const { paysvc, raw } = await platform();
    const { accountId, quoteId } = await heldPayout(paysvc, raw);
    const done = await paysvc.sca.authorizeQuote(quoteId, { code: OTP, endUserIpAddress: IP });
    expect(done).toMatchObject({ id: quoteId, transactionId: expect.stringMatching(/^Transaction:/) });
    expect(done.status).not.toBe("PENDING_AUTHORIZATION");
    expect((await paysvc.internalAccounts.get(accountId)).balance.amount).toBe(90_000);
  });

  test("resendQuoteScaCode (204) replaces the scaChallenge; too soon is a PaysvcError 429 RATE_LIMITED", async () => {
    const { paysvc, raw } = await platform();
    const { quoteId, held } = await heldPayout(paysvc, raw);
    // maxRetries 0: the client otherwise waits out the 429's Retry-After (up to 30 s) and sends it again.
    await expect(paysvc.sca.resendQuoteScaCode(quoteId, { maxRetries: 0 })).rejects.toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
    });
    await paysvc.sandbox.advanceClock(new Date(Date.parse(held.scaChallenge?.expiresAt ?? AT) - 4 * 60_000));
    expect((await paysvc.sca.resendQuoteScaCode(quoteId)).lastResponse.status).toBe(204);
    const quote = await raw.get<Quote>(`/quotes/${quoteId}`);
    expect(quote.body.scaChallenge?.id).not.toBe(held.scaChallenge?.id);
    expect((await paysvc.sca.authorizeQuote(quoteId, { code: OTP })).status).not.toBe(
      "PENDING_AUTHORIZATION",
    );
  });
});

describe("two-factor reset through the SDK", () => {
  test("completeFactorReset with mobile replaces the customer's phoneNumber; a bad mobile is BadRequestError on mobile", async () => {
    const { paysvc } = await platform();
    const { customerId } = await scaCustomer(paysvc);
    const started = await paysvc.sca.startFactorReset(customerId, { factor: "SMS_OTP" });
    // The person's browser confirms on the sandbox identity page.
    const page = await fetch(started.verificationLink as string, { method: "POST" });
    expect(page.status).toBe(200);
    await expect(
      paysvc.sca.completeFactorReset(customerId, started.resetId, {
        mobile: { countryCode: "+44", number: "07700 900123" },
      }),
    ).rejects.toMatchObject({ status: 400, details: { errors: [{ field: "mobile" }] } });
    await paysvc.sca.completeFactorReset(customerId, started.resetId, {
      mobile: { countryCode: "+44", number: "7700900123" },
    });
    expect((await paysvc.customers.get(customerId)).phoneNumber).toBe("+447700900123");
    expect(await paysvc.sca.getFactorReset(customerId, started.resetId)).toMatchObject({
      status: "COMPLETED",
    });
  });
});
