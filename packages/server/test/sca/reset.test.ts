import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/core/ids.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { advanceBy, type ErrorBody, IP, login, platformClient, scaCustomer } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const q = (customerId: string) => `?customerId=${customerId}`;
type ResetStart = {
  resetId: string;
  livenessAccessToken: string;
  verificationLink: string;
  expiresAt: string;
};
type ResetStatus = {
  status: string;
  factor: string;
  enrollmentStatus?: string | null;
  completedAt?: string | null;
};

async function startReset(client: TestClient, customerId: string, factor = "SMS_OTP") {
  return client.post<ResetStart & ErrorBody>(`/sca/factors/reset${q(customerId)}`, { factor });
}

/** The person's browser on the sandbox identity page: a form post with the outcome. */
async function verify(link: string, outcome: "PASS" | "FAIL" = "PASS") {
  return fetch(link, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `outcome=${outcome}`,
  });
}

const status = async (client: TestClient, customerId: string, resetId: string) =>
  client.get<ResetStatus>(`/sca/factors/reset/${resetId}${q(customerId)}`);

describe("two-factor reset (startTwoFactorReset, getTwoFactorResetStatus, completeTwoFactorReset)", () => {
  test("start answers 201 TwoFactorResetStart with a verification link; the status is INITIATED", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const res = await startReset(client, customerId);
    expect(res.status).toBe(201);
    expect(res.body.resetId).toMatch(/^Request:/);
    expect(res.body.verificationLink).toContain(encodeURIComponent(res.body.livenessAccessToken));
    const page = await fetch(res.body.verificationLink);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const read = await status(client, customerId, res.body.resetId);
    expect(read.body).toMatchObject({ status: "INITIATED", factor: "SMS_OTP", enrollmentStatus: null });
  });

  test("the identity page passes the reset; completing removes the passkey-less factor, ends sessions: 204", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await login(client, customerId);
    const started = await startReset(client, customerId);
    expect((await verify(started.body.verificationLink)).status).toBe(200);
    expect((await status(client, customerId, started.body.resetId)).body.status).toBe("LIVENESS_PASSED");
    const done = await client.post(`/sca/factors/reset/${started.body.resetId}/complete${q(customerId)}`, {});
    expect(done.status).toBe(204);
    const read = await status(client, customerId, started.body.resetId);
    expect(read.body).toMatchObject({ status: "COMPLETED", enrollmentStatus: "COMPLETED" });
    expect(read.body.completedAt).toEqual(expect.any(String));
    // The session is gone: enrolling a factor needs a new login.
    const enroll = await client.post<ErrorBody>(`/sca/factors${q(customerId)}`, { type: "TOTP" });
    expect([enroll.status, enroll.body.code]).toEqual([409, "SCA_SESSION_REQUIRED"]);
  });

  test("completing before the identity check passed, or after it failed, is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await startReset(client, customerId);
    const early = await client.post<ErrorBody>(
      `/sca/factors/reset/${started.body.resetId}/complete${q(customerId)}`,
      {},
    );
    expect([early.status, early.body.code]).toEqual([409, "CONFLICT"]);
    expect((await verify(started.body.verificationLink, "FAIL")).status).toBe(200);
    expect((await status(client, customerId, started.body.resetId)).body.status).toBe("REJECTED");
    expect((await verify(started.body.verificationLink)).status).toBe(410);
    const late = await client.post<ErrorBody>(
      `/sca/factors/reset/${started.body.resetId}/complete${q(customerId)}`,
      {},
    );
    expect([late.status, late.body.code]).toEqual([409, "CONFLICT"]);
  });

  test("a reset not verified within 15 minutes reads EXPIRED and its link is gone", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await startReset(client, customerId);
    await advanceBy(client, 16 * 60 * 1000);
    expect((await status(client, customerId, started.body.resetId)).body.status).toBe("EXPIRED");
    expect((await verify(started.body.verificationLink)).status).toBe(410);
  });

  // A second start within 30 seconds: 429 RATE_LIMITED with Retry-After, in test/reliability/limits.test.ts.

  test("resetting PASSKEY or TOTP the customer never enrolled is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    for (const factor of ["PASSKEY", "TOTP"]) {
      const res = await startReset(client, customerId, factor);
      expect([res.status, res.body.code]).toEqual([409, "CONFLICT"]);
    }
  });

  test("a customer outside the SCA regions is 409 CONFLICT; a locked one 423 ACCOUNT_LOCKED", async () => {
    const client = await platformClient(server);
    const outside = await scaCustomer(client, { region: "US", funds: 0 });
    const res = await startReset(client, outside.customerId);
    expect([res.status, res.body.code]).toEqual([409, "CONFLICT"]);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await client.post(`/sca/login/start${q(customerId)}`, { factor: "SMS_OTP" });
    for (let i = 0; i < 5; i++)
      await client.post(`/sca/login/complete${q(customerId)}`, {
        factor: "SMS_OTP",
        endUserIpAddress: IP,
        code: "111111",
      });
    const locked = await startReset(client, customerId);
    expect([locked.status, locked.body.code]).toEqual([423, "ACCOUNT_LOCKED"]);
  });

  test("another customer's reset id, or an unknown one, is 404 REQUEST_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const other = await scaCustomer(client, { funds: 0 });
    const started = await startReset(client, customerId);
    for (const id of [started.body.resetId, "Request:0190d2a1-7c4e-7b3a-9f00-1234567890ab"]) {
      const res = await client.get<ErrorBody>(`/sca/factors/reset/${id}${q(other.customerId)}`);
      expect([res.status, res.body.code]).toEqual([404, "REQUEST_NOT_FOUND"]);
    }
  });
});

describe("completeTwoFactorReset's mobile (the hosted TwoFactorResetCompleteRequest)", () => {
  /** A customer whose reset of SMS_OTP passed the identity check, ready to complete. */
  async function passedReset() {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await startReset(client, customerId);
    expect((await verify(started.body.verificationLink)).status).toBe(200);
    const complete = (body: unknown) =>
      client.post<ErrorBody>(`/sca/factors/reset/${started.body.resetId}/complete${q(customerId)}`, body);
    const phoneNumber = async () =>
      (await client.get<{ phoneNumber?: string }>(`/customers/${customerId}`)).body.phoneNumber;
    const resetStatus = async () => (await status(client, customerId, started.body.resetId)).body.status;
    return { client, customerId, complete, phoneNumber, resetStatus };
  }

  test("mobile becomes the customer's phoneNumber (the SMS_OTP destination) as the reset completes; an SMS_OTP login follows", async () => {
    const reset = await passedReset();
    const done = await reset.complete({ mobile: { countryCode: "+44", number: "7700900123" } });
    expect(done.status, done.text).toBe(204);
    expect(await reset.phoneNumber()).toBe("+447700900123");
    expect(await reset.resetStatus()).toBe("COMPLETED");
    const loggedIn = await login(reset.client, reset.customerId);
    expect(loggedIn.status).toBe("SUCCESS");
  });

  test("a mobile that is not an E.164 number once joined -> 400 INVALID_INPUT on mobile; the reset stays LIVENESS_PASSED", async () => {
    const reset = await passedReset();
    for (const mobile of [
      { countryCode: "+44", number: "07700 900123" },
      { countryCode: "+0", number: "7700900123" },
      { countryCode: "+44", number: "7700900123456789" },
    ]) {
      const res = await reset.complete({ mobile });
      expect([res.status, res.body.code], JSON.stringify(mobile)).toEqual([400, "INVALID_INPUT"]);
      expect(res.body.details?.errors.map((e) => e.field)).toEqual(["mobile"]);
    }
    const missing = await reset.complete({ mobile: { countryCode: "+44" } });
    expect(missing.body.details?.errors.map((e) => e.field)).toEqual(["mobile.number"]);
    expect(await reset.phoneNumber()).toBe("+4915112345678");
    expect(await reset.resetStatus()).toBe("LIVENESS_PASSED");
  });

  test("a mobile while embedded wallet SMS_OTP credentials are tied to the phone -> 409 CONFLICT, and the reset does not complete", async () => {
    const reset = await passedReset();
    const [wallet] = await server.db.query<{ id: string; platform_id: string; created_at: Date }>(
      "SELECT id, platform_id, created_at FROM internal_accounts WHERE customer_id = $1 AND type = 'EMBEDDED_WALLET'",
      [reset.customerId],
    );
    expect(wallet).toBeDefined();
    await server.db.query(
      `INSERT INTO auth_methods (id, platform_id, account_id, type, nickname, created_at, updated_at)
       VALUES ($1, $2, $3, 'SMS_OTP', '+4915112345678', $4, $4)`,
      [newId("AuthMethod"), wallet?.platform_id, wallet?.id, wallet?.created_at],
    );
    const res = await reset.complete({ mobile: { countryCode: "+44", number: "7700900123" } });
    expect([res.status, res.body.code]).toEqual([409, "CONFLICT"]);
    expect(await reset.phoneNumber()).toBe("+4915112345678");
    expect(await reset.resetStatus()).toBe("LIVENESS_PASSED");
    // The same mobile as on file changes nothing, so nothing tied stands in the way.
    const same = await reset.complete({ mobile: { countryCode: "49", number: "15112345678" } });
    expect(same.status, same.text).toBe(204);
  });

  test("a production platform's reset is still 409 CONFLICT at start, mobile or not", async () => {
    const production = server.client.as(await server.newPlatform("PRODUCTION"));
    const { customerId } = await scaCustomer(production, { funds: 0 });
    const res = await startReset(production, customerId);
    expect([res.status, res.body.code]).toEqual([409, "CONFLICT"]);
  });
});
