import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { SoftAuthenticator } from "../wallet-auth/webauthn-authenticator.js";
import {
  balanceOf,
  bankAccount,
  type ErrorBody,
  IP,
  login,
  payout,
  platformClient,
  type Quote,
  type ScaLoginComplete,
  type ScaLoginStart,
  scaCustomer,
} from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const ORIGIN = "http://localhost:5173";
const q = (customerId: string) => `?customerId=${customerId}`;

type EnrollmentStart = {
  type: string;
  options: { challenge: string; rp: { id: string }; user: { id: string; name: string } };
  allowedOrigins: string[];
  relyingPartyId: string;
};
type FactorView = { factor: string; credentialId?: string; name?: string };

/** The RegistrationResponseJSON `navigator.credentials.create(options)` gives (`@simplewebauthn/browser`). */
function credentialFor(authenticator: SoftAuthenticator, challenge: string) {
  const attestation = authenticator.register(challenge);
  return {
    id: attestation.credentialId,
    rawId: attestation.credentialId,
    type: "public-key",
    response: {
      clientDataJSON: attestation.clientDataJson,
      attestationObject: attestation.attestationObject,
      transports: attestation.transports,
    },
    clientExtensionResults: {},
  };
}

/** The paysvc challenge (hex) behind WebAuthn request options: what the soft authenticator signs. */
const hexOf = (options: { challenge: string }) =>
  Buffer.from(options.challenge, "base64url").toString("utf8");

async function startEnrolment(client: TestClient, customerId: string) {
  return client.post<EnrollmentStart & ErrorBody>(`/sca/factors${q(customerId)}`, { type: "PASSKEY" });
}

async function confirm(client: TestClient, customerId: string, body: Record<string, unknown>) {
  return client.post<{ type: string; factor: FactorView } & ErrorBody>(
    `/sca/factors/confirm${q(customerId)}`,
    {
      type: "PASSKEY",
      origin: ORIGIN,
      ...body,
    },
  );
}

async function enrolled(client: TestClient) {
  const { customerId, accountId } = await scaCustomer(client);
  await login(client, customerId);
  const authenticator = new SoftAuthenticator();
  const started = await startEnrolment(client, customerId);
  expect(started.status).toBe(200);
  const res = await confirm(client, customerId, {
    credential: credentialFor(authenticator, started.body.options.challenge),
  });
  expect(res.status).toBe(200);
  return { customerId, accountId, authenticator, factor: res.body.factor };
}

async function passkeyLogin(client: TestClient, customerId: string) {
  const started = await client.post<ScaLoginStart>(`/sca/login/start${q(customerId)}`, { factor: "PASSKEY" });
  expect(started.status).toBe(200);
  return started.body;
}

describe("the SCA passkey factor (one per customer, real WebAuthn verification)", () => {
  test("POST /sca/factors returns WebAuthn creation options, allowedOrigins and relyingPartyId", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await login(client, customerId);
    const res = await startEnrolment(client, customerId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: "PASSKEY",
      relyingPartyId: "localhost",
      allowedOrigins: ["http://localhost", "https://localhost"],
      options: { rp: { id: "localhost" }, challenge: expect.any(String) },
    });
  });

  test("confirming with the registration response enrolls the passkey (verified attestation); GET /sca/factors lists it", async () => {
    const client = await platformClient(server);
    const { customerId, authenticator, factor } = await enrolled(client);
    expect(factor).toEqual({ factor: "PASSKEY", credentialId: authenticator.id, name: "Passkey" });
    const list = await client.get<{ factors: FactorView[] }>(`/sca/factors${q(customerId)}`);
    expect(list.status).toBe(200);
    expect(list.body.factors).toEqual([
      { factor: "SMS_OTP" },
      { factor: "PASSKEY", credentialId: authenticator.id, name: "Passkey" },
    ]);
  });

  test("a second passkey for the same customer is 409 PASSKEY_ALREADY_ENROLLED", async () => {
    const client = await platformClient(server);
    const { customerId } = await enrolled(client);
    const res = await startEnrolment(client, customerId);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("PASSKEY_ALREADY_ENROLLED");
  });

  test("DELETE /sca/factors/{credentialId} (204) removes it, then another can be enrolled; unknown or foreign ids are 404 AUTH_METHOD_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const { customerId, authenticator } = await enrolled(client);
    const other = await platformClient(server);
    const foreign = await enrolled(other);
    const notHers = await client.delete<ErrorBody>(
      `/sca/factors/${foreign.authenticator.id}${q(customerId)}`,
    );
    expect([notHers.status, notHers.body.code]).toEqual([404, "AUTH_METHOD_NOT_FOUND"]);
    expect((await client.delete(`/sca/factors/${authenticator.id}${q(customerId)}`)).status).toBe(204);
    const gone = await client.delete<ErrorBody>(`/sca/factors/${authenticator.id}${q(customerId)}`);
    expect([gone.status, gone.body.code]).toEqual([404, "AUTH_METHOD_NOT_FOUND"]);
    const list = await client.get<{ factors: FactorView[] }>(`/sca/factors${q(customerId)}`);
    expect(list.body.factors).toEqual([{ factor: "SMS_OTP" }]);
    expect((await startEnrolment(client, customerId)).status).toBe(200);
  });

  test("enrolling without a live SCA session is 409 SCA_SESSION_REQUIRED", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const res = await startEnrolment(client, customerId);
    expect([res.status, res.body.code]).toEqual([409, "SCA_SESSION_REQUIRED"]);
  });

  test("a registration over another challenge is 400 INVALID_INPUT on credential and enrolls nothing", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await login(client, customerId);
    await startEnrolment(client, customerId);
    const forged = Buffer.from("a".repeat(64)).toString("base64url");
    const res = await confirm(client, customerId, {
      credential: credentialFor(new SoftAuthenticator(), forged),
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "credential" })]);
    const list = await client.get<{ factors: FactorView[] }>(`/sca/factors${q(customerId)}`);
    expect(list.body.factors).toEqual([{ factor: "SMS_OTP" }]);
  });

  test("an origin that is not allowed is 400 INVALID_INPUT on origin", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await login(client, customerId);
    const started = await startEnrolment(client, customerId);
    const credential = credentialFor(new SoftAuthenticator(), started.body.options.challenge);
    const res = await confirm(client, customerId, { origin: "https://evil.example", credential });
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "origin" })]);
  });

  test("confirming with no enrolment started is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await login(client, customerId);
    const none = await confirm(client, customerId, {
      credential: credentialFor(new SoftAuthenticator(), "abc"),
    });
    expect([none.status, none.body.code]).toEqual([409, "CONFLICT"]);
  });

  test("login with the PASSKEY factor: an assertion over passkeyOptions opens a 180-day session", async () => {
    const client = await platformClient(server);
    const { customerId, authenticator } = await enrolled(client);
    const started = await passkeyLogin(client, customerId);
    expect(started).toMatchObject({
      factor: "PASSKEY",
      relyingPartyId: "localhost",
      allowedOrigins: ["http://localhost", "https://localhost"],
      passkeyOptions: {
        rpId: "localhost",
        allowCredentials: [expect.objectContaining({ id: authenticator.id })],
      },
    });
    const done = await client.post<ScaLoginComplete>(`/sca/login/complete${q(customerId)}`, {
      factor: "PASSKEY",
      endUserIpAddress: IP,
      challengeId: started.challengeId,
      origin: ORIGIN,
      passkeyAssertion: authenticator.assert(hexOf(started.passkeyOptions as { challenge: string })),
    });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("SUCCESS");
  });

  test("an assertion from another authenticator is a wrong answer: 400 INVALID_INPUT on passkeyAssertion", async () => {
    const client = await platformClient(server);
    const { customerId } = await enrolled(client);
    const started = await passkeyLogin(client, customerId);
    const res = await client.post<ErrorBody>(`/sca/login/complete${q(customerId)}`, {
      factor: "PASSKEY",
      endUserIpAddress: IP,
      origin: ORIGIN,
      passkeyAssertion: new SoftAuthenticator().assert(
        hexOf(started.passkeyOptions as { challenge: string }),
      ),
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "passkeyAssertion" })]);
  });

  test("an origin other than the one the authenticator signed is a wrong answer", async () => {
    const client = await platformClient(server);
    const { customerId, authenticator } = await enrolled(client);
    const started = await passkeyLogin(client, customerId);
    const res = await client.post<ErrorBody>(`/sca/login/complete${q(customerId)}`, {
      factor: "PASSKEY",
      endUserIpAddress: IP,
      origin: "http://localhost:9999",
      passkeyAssertion: authenticator.assert(hexOf(started.passkeyOptions as { challenge: string })),
    });
    expect(res.status).toBe(400);
  });

  test("a passkeyAssertion without origin is 400 INVALID_INPUT on origin", async () => {
    const client = await platformClient(server);
    const { customerId, authenticator } = await enrolled(client);
    const started = await passkeyLogin(client, customerId);
    const res = await client.post<ErrorBody>(`/sca/login/complete${q(customerId)}`, {
      factor: "PASSKEY",
      endUserIpAddress: IP,
      passkeyAssertion: authenticator.assert(hexOf(started.passkeyOptions as { challenge: string })),
    });
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "origin" })]);
  });

  test("a held payout can be authorized with the passkey (scaFactor PASSKEY): scaChallenge carries passkeyAssertionOptions", async () => {
    const client = await platformClient(server);
    const { customerId, accountId, authenticator } = await enrolled(client);
    const externalId = await bankAccount(client, customerId);
    const quote = await client.post<Quote>("/quotes", payout(accountId, externalId, 10_000));
    const held = await client.post<Quote>(`/quotes/${quote.body.id}/execute`, { scaFactor: "PASSKEY" });
    expect(held.body.status).toBe("PENDING_AUTHORIZATION");
    const challenge = held.body.scaChallenge;
    expect(challenge).toMatchObject({
      factor: "PASSKEY",
      availableFactors: ["SMS_OTP", "PASSKEY"],
      passkeyAllowedOrigins: ["http://localhost", "https://localhost"],
    });
    const resend = await client.post<ErrorBody>(`/quotes/${quote.body.id}/authorize/resend`);
    expect(resend.status).toBe(409);
    const options = challenge?.passkeyAssertionOptions as { challenge: string };
    const done = await client.post<Quote>(`/quotes/${quote.body.id}/authorize`, {
      origin: ORIGIN,
      passkeyAssertion: authenticator.assert(hexOf(options)),
    });
    expect(done.status).toBe(200);
    expect(await balanceOf(client, accountId)).toBe(90_000);
  });
});
