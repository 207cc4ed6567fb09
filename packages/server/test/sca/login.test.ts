import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import {
  AT,
  advanceBy,
  type ErrorBody,
  login,
  platformClient,
  type ScaChallenge,
  type ScaSession,
  scaCustomer,
} from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const DAY = 24 * 60 * 60 * 1000;

async function wrongCode(client: Awaited<ReturnType<typeof platformClient>>, requestId: string) {
  return client.post<ErrorBody>("/sca/login/complete", { requestId, code: "123456" });
}

describe("SCA login (interface rule 11, Limits: SCA login session 180 days)", () => {
  test("POST /sca/login/complete returns sessionExpiresAt 180 days after login on the platform's clock", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await client.post<ScaChallenge>("/sca/login", { customerId });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ customerId, purpose: "LOGIN", factor: "OTP" });
    expect(started.body.requestId).toMatch(/^Request:/);
    const done = await client.post<ScaSession>("/sca/login/complete", {
      requestId: started.body.requestId,
      code: "000000",
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ customerId, factor: "OTP" });
    expect(done.body.id).toMatch(/^Session:/);
    expect(Date.parse(done.body.createdAt)).toBeGreaterThanOrEqual(Date.parse(AT));
    expect(Date.parse(done.body.sessionExpiresAt) - Date.parse(done.body.createdAt)).toBe(180 * DAY);
  });

  test("a login challenge is single use: answering it again is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await client.post<ScaChallenge>("/sca/login", { customerId });
    const body = { requestId: started.body.requestId, code: "000000" };
    expect((await client.post("/sca/login/complete", body)).status).toBe(200);
    const again = await client.post<ErrorBody>("/sca/login/complete", body);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CONFLICT");
  });

  test("an expired login challenge (past its 5 minutes) is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await client.post<ScaChallenge>("/sca/login", { customerId });
    await advanceBy(client, 5 * 60_000 + 1_000);
    const late = await client.post<ErrorBody>("/sca/login/complete", {
      requestId: started.body.requestId,
      code: "000000",
    });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: "CONFLICT", reason: expect.stringMatching(/expired/) });
  });

  test("a wrong code is 400 INVALID_INPUT on code, and the challenge stays answerable", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await client.post<ScaChallenge>("/sca/login", { customerId });
    const wrong = await wrongCode(client, started.body.requestId);
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("INVALID_INPUT");
    expect(wrong.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
    const right = await client.post("/sca/login/complete", {
      requestId: started.body.requestId,
      code: "000000",
    });
    expect(right.status).toBe(200);
  });

  test("the 5th wrong code in a row is 423 ACCOUNT_LOCKED, and the lock refuses login start and complete", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await client.post<ScaChallenge>("/sca/login", { customerId });
    for (let i = 0; i < 4; i++) expect((await wrongCode(client, started.body.requestId)).status).toBe(400);
    const fifth = await wrongCode(client, started.body.requestId);
    expect(fifth.status).toBe(423);
    expect(fifth.body.code).toBe("ACCOUNT_LOCKED");
    const start = await client.post<ErrorBody>("/sca/login", { customerId });
    expect(start.status).toBe(423);
    expect(start.body.code).toBe("ACCOUNT_LOCKED");
  });

  test("a lock ends 30 minutes after it began (platform clock); then login works again", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await client.post<ScaChallenge>("/sca/login", { customerId });
    for (let i = 0; i < 5; i++) await wrongCode(client, started.body.requestId);
    await advanceBy(client, 29 * 60_000);
    expect((await client.post("/sca/login", { customerId })).status).toBe(423);
    await advanceBy(client, 60_000 + 1_000);
    expect((await login(client, customerId)).customerId).toBe(customerId);
  });

  test("a right answer resets the run of wrong codes", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const first = await client.post<ScaChallenge>("/sca/login", { customerId });
    for (let i = 0; i < 4; i++) await wrongCode(client, first.body.requestId);
    await client.post("/sca/login/complete", { requestId: first.body.requestId, code: "000000" });
    const second = await client.post<ScaChallenge>("/sca/login", { customerId });
    for (let i = 0; i < 4; i++) expect((await wrongCode(client, second.body.requestId)).status).toBe(400);
  });

  test("a new login challenge abandons the open one (409 CONFLICT when answered)", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const first = await client.post<ScaChallenge>("/sca/login", { customerId });
    await client.post<ScaChallenge>("/sca/login", { customerId });
    const old = await client.post<ErrorBody>("/sca/login/complete", {
      requestId: first.body.requestId,
      code: "000000",
    });
    expect(old.status).toBe(409);
  });

  test("unknown, malformed or another platform's requestId is 404 REQUEST_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const other = await platformClient(server);
    const { customerId } = await scaCustomer(other, { funds: 0 });
    const foreign = await other.post<ScaChallenge>("/sca/login", { customerId });
    for (const requestId of [foreign.body.requestId, "Request:nope", "x"]) {
      const res = await client.post<ErrorBody>("/sca/login/complete", { requestId, code: "000000" });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("REQUEST_NOT_FOUND");
    }
  });

  test("an unknown customer is 404 CUSTOMER_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const res = await client.post<ErrorBody>("/sca/login", { customerId: "Customer:nope" });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("CUSTOMER_NOT_FOUND");
  });

  test("a customer with neither e-mail nor phone cannot get an OTP: 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0, email: null, phoneNumber: null });
    const res = await client.post<ErrorBody>("/sca/login", { customerId });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });

  test("logging in with the PASSKEY factor without an enrolled passkey is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const res = await client.post<ErrorBody>("/sca/login", { customerId, factor: "PASSKEY" });
    expect(res.status).toBe(409);
  });

  test("DELETE /sca/sessions/{id} ends the session (204); an unknown or foreign one is 404 SESSION_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const session = await login(client, customerId);
    expect((await client.delete(`/sca/sessions/${session.id}`)).status).toBe(204);
    const other = await platformClient(server);
    const foreign = await login(other, (await scaCustomer(other, { funds: 0 })).customerId);
    for (const id of ["Session:nope", foreign.id]) {
      const res = await client.delete<ErrorBody>(`/sca/sessions/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("SESSION_NOT_FOUND");
    }
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
        client.post<ErrorBody>("/sca/login", { customerId }),
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

  test.each(["GB", "FR", "NO"])("region %s requires SCA: login starts (201)", async (region) => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { region, funds: 0 });
    expect((await client.post("/sca/login", { customerId })).status).toBe(201);
  });
});
