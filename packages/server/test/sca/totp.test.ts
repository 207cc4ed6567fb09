import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import {
  advanceBy,
  bankAccount,
  type ErrorBody,
  endSessions,
  IP,
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

const q = (customerId: string) => `?customerId=${customerId}`;
type TotpStart = { type: string; secret: string; secretBase32Encoded: string; totpUri: string };
type TotpConfirm = { type: string; recoveryCodes: string[] };

/** The code an authenticator app shows for `base32` at the platform's sandbox clock (RFC 6238, SHA1/6/30). */
async function codeAt(client: TestClient, base32: string, offsetMs = 0): Promise<string> {
  const clock = await client.get<{ now: string }>("/sandbox/clock");
  const totp = new TOTP({ secret: Secret.fromBase32(base32), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.parse(clock.body.now) + offsetMs });
}

/** A logged-in SCA customer with a confirmed TOTP factor. */
async function enrolled(client: TestClient) {
  const { customerId, accountId } = await scaCustomer(client);
  await login(client, customerId);
  const started = await client.post<TotpStart>(`/sca/factors${q(customerId)}`, { type: "TOTP" });
  expect(started.status).toBe(200);
  const code = await codeAt(client, started.body.secretBase32Encoded);
  const confirmed = await client.post<TotpConfirm>(`/sca/factors/confirm${q(customerId)}`, {
    type: "TOTP",
    secret: started.body.secret,
    code,
  });
  expect(confirmed.status).toBe(200);
  return {
    customerId,
    accountId,
    base32: started.body.secretBase32Encoded,
    recovery: confirmed.body.recoveryCodes,
  };
}

async function totpLogin(client: TestClient, customerId: string, code: string) {
  const started = await client.post<{ challengeId: string; factor: string }>(
    `/sca/login/start${q(customerId)}`,
    {
      factor: "TOTP",
    },
  );
  expect(started.status).toBe(200);
  expect(started.body.factor).toBe("TOTP");
  return client.post<ErrorBody & { status: string }>(`/sca/login/complete${q(customerId)}`, {
    factor: "TOTP",
    endUserIpAddress: IP,
    challengeId: started.body.challengeId,
    code,
  });
}

describe("TOTP enrolment (TotpEnrollmentStart, TotpEnrollmentConfirmRequest)", () => {
  test("enrolment start answers a 160-bit secret in hex and base32 and an otpauth:// URI of the same secret", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await login(client, customerId);
    const res = await client.post<TotpStart>(`/sca/factors${q(customerId)}`, { type: "TOTP" });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe("TOTP");
    expect(res.body.secret).toMatch(/^[0-9a-f]{40}$/);
    expect(Secret.fromBase32(res.body.secretBase32Encoded).hex.toLowerCase()).toBe(res.body.secret);
    const uri = new URL(res.body.totpUri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(res.body.secretBase32Encoded);
    expect(uri.searchParams.get("digits")).toBe("6");
    expect(uri.searchParams.get("period")).toBe("30");
  });

  test("confirming with the current code activates TOTP, answers 10 recovery codes and lists the factor", async () => {
    const client = await platformClient(server);
    const { customerId, recovery } = await enrolled(client);
    expect(recovery).toHaveLength(10);
    for (const code of recovery) expect(code).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    const factors = await client.get<{ factors: { factor: string; credentialId?: string }[] }>(
      `/sca/factors${q(customerId)}`,
    );
    expect(factors.body.factors.map((f) => f.factor)).toEqual(["SMS_OTP", "TOTP"]);
  });

  test("confirming with a wrong code or another secret is 400 on code / secret; no enrolment waiting is 409", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await login(client, customerId);
    const none = await client.post<ErrorBody>(`/sca/factors/confirm${q(customerId)}`, {
      type: "TOTP",
      secret: "00".repeat(20),
      code: "123456",
    });
    expect([none.status, none.body.code]).toEqual([409, "CONFLICT"]);
    const started = await client.post<TotpStart>(`/sca/factors${q(customerId)}`, { type: "TOTP" });
    const right = await codeAt(client, started.body.secretBase32Encoded);
    const wrongSecret = await client.post<ErrorBody>(`/sca/factors/confirm${q(customerId)}`, {
      type: "TOTP",
      secret: "00".repeat(20),
      code: right,
    });
    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.body.details?.errors).toEqual([expect.objectContaining({ field: "secret" })]);
    const wrongCode = await client.post<ErrorBody>(`/sca/factors/confirm${q(customerId)}`, {
      type: "TOTP",
      secret: started.body.secret,
      code: right === "000000" ? "111111" : "000000",
    });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
  });

  test("enrolling TOTP needs a live SCA session (409 SCA_SESSION_REQUIRED); a second TOTP is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const noSession = await client.post<ErrorBody>(`/sca/factors${q(customerId)}`, { type: "TOTP" });
    expect([noSession.status, noSession.body.code]).toEqual([409, "SCA_SESSION_REQUIRED"]);
    const other = await enrolled(client);
    const again = await client.post<ErrorBody>(`/sca/factors${q(other.customerId)}`, { type: "TOTP" });
    expect([again.status, again.body.code]).toEqual([409, "CONFLICT"]);
  });

  test("a customer outside the SCA regions gets 409 CONFLICT on TOTP enrolment", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { region: "US", funds: 0 });
    const res = await client.post<ErrorBody>(`/sca/factors${q(customerId)}`, { type: "TOTP" });
    expect([res.status, res.body.code]).toEqual([409, "CONFLICT"]);
  });
});

describe("TOTP as a factor (RFC 6238)", () => {
  test("login with the authenticator's current code opens a session; the same code is refused a second time", async () => {
    const client = await platformClient(server);
    const { customerId, base32 } = await enrolled(client);
    await endSessions(client, customerId);
    await advanceBy(client, 60_000);
    const code = await codeAt(client, base32);
    const ok = await totpLogin(client, customerId, code);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("SUCCESS");
    const replay = await totpLogin(client, customerId, code);
    expect(replay.status).toBe(400);
    expect(replay.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
  });

  test("a code one step old is accepted (clock drift), one three steps old is a wrong answer", async () => {
    const client = await platformClient(server);
    const { customerId, base32 } = await enrolled(client);
    await advanceBy(client, 120_000);
    expect((await totpLogin(client, customerId, await codeAt(client, base32, -90_000))).status).toBe(400);
    expect((await totpLogin(client, customerId, await codeAt(client, base32, -30_000))).status).toBe(200);
  });

  test("a recovery code answers a TOTP challenge once", async () => {
    const client = await platformClient(server);
    const { customerId, recovery } = await enrolled(client);
    const [first] = recovery;
    expect((await totpLogin(client, customerId, first as string)).status).toBe(200);
    expect((await totpLogin(client, customerId, first as string)).status).toBe(400);
  });

  test("five wrong TOTP codes in a row lock the customer: 423 ACCOUNT_LOCKED", async () => {
    const client = await platformClient(server);
    const { customerId } = await enrolled(client);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await totpLogin(client, customerId, "AAAA-AAAA-AAAA")).status);
    expect(statuses).toEqual([400, 400, 400, 400, 423]);
  });

  test("a payout held with scaFactor TOTP is authorized with the app's code", async () => {
    const client = await platformClient(server);
    const { customerId, accountId, base32 } = await enrolled(client);
    const externalId = await bankAccount(client, customerId);
    const quote = await client.post<Quote>("/quotes", payout(accountId, externalId, 1_000));
    expect(quote.status).toBe(201);
    const held = await client.post<Quote>(`/quotes/${quote.body.id}/execute`, { scaFactor: "TOTP" });
    expect(held.status).toBe(200);
    expect(held.body.scaChallenge).toMatchObject({ factor: "TOTP", purpose: "PAYOUT" });
    expect(held.body.scaChallenge?.availableFactors).toContain("TOTP");
    await advanceBy(client, 30_000);
    const authorized = await client.post<Quote>(`/quotes/${quote.body.id}/authorize`, {
      code: await codeAt(client, base32),
    });
    expect(authorized.status).toBe(200);
    expect(authorized.body.status).not.toBe("PENDING_AUTHORIZATION");
  });

  test("DELETE /sca/factors/{credentialId} removes the TOTP factor; TOTP login is then 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await enrolled(client);
    const factors = await client.get<{ factors: { factor: string; credentialId?: string }[] }>(
      `/sca/factors${q(customerId)}`,
    );
    const totp = factors.body.factors.find((f) => f.factor === "TOTP");
    expect(totp?.credentialId).toMatch(/^AuthMethod:/);
    const del = await client.delete(`/sca/factors/${totp?.credentialId}${q(customerId)}`);
    expect(del.status).toBe(204);
    const start = await client.post<ErrorBody>(`/sca/login/start${q(customerId)}`, { factor: "TOTP" });
    expect([start.status, start.body.code]).toEqual([409, "CONFLICT"]);
  });

  test("scaFactor is the hosted ScaFactor enum: an unknown value is 400 INVALID_INPUT on scaFactor", async () => {
    const client = await platformClient(server);
    const { customerId, accountId } = await scaCustomer(client);
    await login(client, customerId);
    const externalId = await bankAccount(client, customerId);
    const quote = await client.post<Quote>("/quotes", payout(accountId, externalId, 1_000));
    const res = await client.post<ErrorBody>(`/quotes/${quote.body.id}/execute`, { scaFactor: "EMAIL" });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "scaFactor" })]);
  });
});
