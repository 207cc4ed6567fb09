import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import {
  AT,
  advanceBy,
  type ErrorBody,
  IP,
  login,
  platformClient,
  type ScaLoginComplete,
  type ScaLoginStart,
  scaCustomer,
} from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const DAY = 24 * 60 * 60 * 1000;
/** A lock taken just after AT (the sandbox clock runs on from it) ends 30 minutes later. */
const lockLasts = (lockedUntil: unknown) => {
  const ms = Date.parse(String(lockedUntil)) - Date.parse(AT);
  return ms >= 30 * 60_000 && ms < 31 * 60_000;
};
const q = (customerId: string) => `?customerId=${customerId}`;

const start = (client: TestClient, customerId: string, factor = "SMS_OTP") =>
  client.post<ScaLoginStart>(`/sca/login/start${q(customerId)}`, { factor });

const complete = (client: TestClient, customerId: string, body: Record<string, unknown>) =>
  client.post<ScaLoginComplete & ErrorBody>(`/sca/login/complete${q(customerId)}`, {
    factor: "SMS_OTP",
    endUserIpAddress: IP,
    ...body,
  });

const wrongCode = (client: TestClient, customerId: string, challengeId?: string | null) =>
  complete(client, customerId, { challengeId, code: "123456" });

const recordEvent = (client: TestClient, customerId: string, eventType: string) =>
  client.post<Record<string, unknown> & ErrorBody>(`/sca/record-event${q(customerId)}`, { eventType });

describe("SCA login (interface rule 11, Limits: SCA login session 180 days)", () => {
  test("POST /sca/login/complete returns status SUCCESS and sessionExpiresAt 180 days after login on the platform's clock", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await start(client, customerId);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ factor: "SMS_OTP", passkeyOptions: null, relyingPartyId: null });
    expect(started.body.challengeId).toMatch(/^Request:/);
    const issuedAt = Date.parse(started.body.expiresAt ?? "") - 5 * 60_000;
    expect(issuedAt).toBeGreaterThanOrEqual(Date.parse(AT));
    const done = await complete(client, customerId, {
      challengeId: started.body.challengeId,
      code: "000000",
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: "SUCCESS", sessionExpiresAt: expect.any(String) });
    const lasts = Date.parse(done.body.sessionExpiresAt) - issuedAt;
    expect(lasts).toBeGreaterThanOrEqual(180 * DAY);
    expect(lasts).toBeLessThan(180 * DAY + 60_000);
  });

  test("without challengeId the customer's open login challenge is answered", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await start(client, customerId);
    expect((await complete(client, customerId, { code: "000000" })).status).toBe(200);
  });

  test("endUserIpAddress and factor are required: 400 INVALID_INPUT naming them", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await start(client, customerId);
    const res = await client.post<ErrorBody>(`/sca/login/complete${q(customerId)}`, { code: "000000" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    const fields = res.body.details?.errors.map((e) => e.field) ?? [];
    expect(fields.join(" ")).toMatch(/endUserIpAddress/);
    expect(fields.join(" ")).toMatch(/factor/);
  });

  test("a factor other than the challenge's is 400 INVALID_INPUT on factor", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await start(client, customerId);
    const res = await complete(client, customerId, { factor: "PASSKEY", code: "000000" });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "factor" })]);
  });

  test("a login challenge is single use: answering it again is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await start(client, customerId);
    const body = { challengeId: started.body.challengeId, code: "000000" };
    expect((await complete(client, customerId, body)).status).toBe(200);
    const again = await complete(client, customerId, body);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CONFLICT");
  });

  test("completing with no login waiting is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const res = await complete(client, customerId, { code: "000000" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });

  test("an expired login challenge (past its 5 minutes) is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await start(client, customerId);
    await advanceBy(client, 5 * 60_000 + 1_000);
    const late = await complete(client, customerId, {
      challengeId: started.body.challengeId,
      code: "000000",
    });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: "CONFLICT", reason: expect.stringMatching(/expired/) });
  });

  test("a wrong code is 400 INVALID_INPUT on code, and the challenge stays answerable", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await start(client, customerId);
    const wrong = await wrongCode(client, customerId, started.body.challengeId);
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("INVALID_INPUT");
    expect(wrong.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
    const right = await complete(client, customerId, {
      challengeId: started.body.challengeId,
      code: "000000",
    });
    expect(right.status).toBe(200);
  });

  test("the 5th wrong code in a row is 423 ACCOUNT_LOCKED with suspended, lockedUntil and failedAttempts; the lock refuses login start", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await start(client, customerId);
    for (let i = 0; i < 4; i++)
      expect((await wrongCode(client, customerId, started.body.challengeId)).status).toBe(400);
    const fifth = await wrongCode(client, customerId, started.body.challengeId);
    expect(fifth.status).toBe(423);
    expect(fifth.body.code).toBe("ACCOUNT_LOCKED");
    expect(fifth.body.details).toEqual({
      suspended: true,
      lockedUntil: expect.any(String),
      failedAttempts: 5,
    });
    expect(lockLasts(fifth.body.details?.lockedUntil)).toBe(true);
    const again = await start(client, customerId);
    expect(again.status).toBe(423);
  });

  test("a lock ends 30 minutes after it began (platform clock); then login works again", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await start(client, customerId);
    for (let i = 0; i < 5; i++) await wrongCode(client, customerId, started.body.challengeId);
    await advanceBy(client, 29 * 60_000);
    expect((await start(client, customerId)).status).toBe(423);
    await advanceBy(client, 60_000 + 1_000);
    expect((await login(client, customerId)).status).toBe("SUCCESS");
  });

  test("a right answer resets the run of wrong codes", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await start(client, customerId);
    for (let i = 0; i < 4; i++) await wrongCode(client, customerId);
    await complete(client, customerId, { code: "000000" });
    await start(client, customerId);
    for (let i = 0; i < 4; i++) expect((await wrongCode(client, customerId)).status).toBe(400);
  });

  test("a new login challenge abandons the open one (409 CONFLICT when answered)", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const first = await start(client, customerId);
    await start(client, customerId);
    const old = await complete(client, customerId, { challengeId: first.body.challengeId, code: "000000" });
    expect(old.status).toBe(409);
  });

  test("a challengeId of another customer, another platform, unknown or malformed is 404 REQUEST_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const other = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const { customerId: neighbour } = await scaCustomer(client, { funds: 0 });
    const foreign = await start(other, (await scaCustomer(other, { funds: 0 })).customerId);
    const sibling = await start(client, neighbour);
    for (const challengeId of [foreign.body.challengeId, sibling.body.challengeId, "Request:nope", "x"]) {
      const res = await complete(client, customerId, { challengeId, code: "000000" });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("REQUEST_NOT_FOUND");
    }
  });

  test("an unknown customer is 404 CUSTOMER_NOT_FOUND; a missing customerId is 400 INVALID_INPUT", async () => {
    const client = await platformClient(server);
    const res = await start(client, "Customer:nope");
    expect(res.status).toBe(404);
    expect((res.body as unknown as ErrorBody).code).toBe("CUSTOMER_NOT_FOUND");
    const missing = await client.post<ErrorBody>("/sca/login/start", { factor: "SMS_OTP" });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("INVALID_INPUT");
  });

  test("a customer with neither e-mail nor phone cannot get an SMS_OTP code: 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0, email: null, phoneNumber: null });
    const res = await start(client, customerId);
    expect(res.status).toBe(409);
  });

  test("logging in with PASSKEY or TOTP before enrolling that factor is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    for (const factor of ["PASSKEY", "TOTP"])
      expect((await start(client, customerId, factor)).status).toBe(409);
  });
});

describe("POST /sca/record-event (recordSecurityEvent)", () => {
  test("FAILED_LOGIN_ATTEMPT counts towards the lock: the 5th in a row suspends the customer for 30 minutes", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    for (let i = 1; i <= 4; i++) {
      const res = await recordEvent(client, customerId, "FAILED_LOGIN_ATTEMPT");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        eventType: "FAILED_LOGIN_ATTEMPT",
        customerId,
        suspended: false,
        lockedUntil: null,
        failedAttempts: i,
      });
    }
    const fifth = await recordEvent(client, customerId, "FAILED_LOGIN_ATTEMPT");
    expect(fifth.body).toMatchObject({ suspended: true, failedAttempts: 5 });
    expect(lockLasts(fifth.body.lockedUntil)).toBe(true);
    expect((await start(client, customerId)).status).toBe(423);
  });

  test("an event for a locked customer is 423 ACCOUNT_LOCKED", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    for (let i = 0; i < 5; i++) await recordEvent(client, customerId, "FAILED_LOGIN_ATTEMPT");
    const res = await recordEvent(client, customerId, "RESET_PASSWORD_COMPLETED");
    expect(res.status).toBe(423);
    expect(res.body.code).toBe("ACCOUNT_LOCKED");
  });

  test("RESET_PASSWORD_COMPLETED ends the customer's SCA sessions: writes then need a new login (409 SCA_SESSION_REQUIRED)", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await login(client, customerId);
    expect((await client.post(`/sca/factors${q(customerId)}`, { type: "PASSKEY" })).status).toBe(200);
    const res = await recordEvent(client, customerId, "RESET_PASSWORD_COMPLETED");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ eventType: "RESET_PASSWORD_COMPLETED", suspended: false });
    const enrol = await client.post<ErrorBody>(`/sca/factors${q(customerId)}`, { type: "PASSKEY" });
    expect(enrol.status).toBe(409);
    expect(enrol.body.code).toBe("SCA_SESSION_REQUIRED");
  });

  test("an unknown eventType is 400 INVALID_INPUT on eventType", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const res = await recordEvent(client, customerId, "LOGGED_OUT");
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "eventType" })]);
  });
});

describe("SCA and contact-verification endpoints answer 409 CONFLICT for customers outside the SCA regions", () => {
  test.each([
    ["US", "a US customer"],
    [undefined, "a customer without a region"],
  ])(
    "region %s: every SCA and contact-verification entry point is 409 CONFLICT (%s)",
    async (region, _who) => {
      const client = await platformClient(server);
      const created = await client.post<{ id: string }>("/customers", {
        customerType: "INDIVIDUAL",
        email: `us-${crypto.randomUUID()}@example.com`,
        phoneNumber: "+12025550123",
        ...(region ? { region } : {}),
      });
      const customerId = created.body.id;
      const calls = [
        client.get<ErrorBody>(`/sca/factors${q(customerId)}`),
        client.post<ErrorBody>(`/sca/factors${q(customerId)}`, { type: "PASSKEY" }),
        client.post<ErrorBody>(`/sca/login/start${q(customerId)}`, { factor: "SMS_OTP" }),
        client.post<ErrorBody>(`/sca/login/complete${q(customerId)}`, {
          factor: "SMS_OTP",
          endUserIpAddress: IP,
          code: "000000",
        }),
        client.post<ErrorBody>(`/sca/record-event${q(customerId)}`, { eventType: "FAILED_LOGIN_ATTEMPT" }),
        client.delete<ErrorBody>(`/sca/factors/abc${q(customerId)}`),
        client.post<ErrorBody>(`/customers/${customerId}/verify-email`),
        client.post<ErrorBody>(`/customers/${customerId}/verify-email/confirm`, { code: "000000" }),
        client.post<ErrorBody>(`/customers/${customerId}/verify-phone`),
        client.post<ErrorBody>(`/customers/${customerId}/verify-phone/confirm`, { code: "000000" }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ code: "CONFLICT", reason: expect.stringMatching(/region/) });
      }
      // Contact verification does not apply to them: their Customer has no contactVerification.
      const customer = await client.get<Record<string, unknown>>(`/customers/${customerId}`);
      expect(customer.body.contactVerification).toBeUndefined();
    },
  );

  test.each(["GB", "FR", "NO"])("region %s requires SCA: login starts (200)", async (region) => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { region, funds: 0 });
    expect((await start(client, customerId)).status).toBe(200);
  });
});
