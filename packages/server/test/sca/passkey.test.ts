import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { b64url, SoftAuthenticator } from "../wallet-auth/webauthn-authenticator.js";
import {
  balanceOf,
  bankAccount,
  type ErrorBody,
  login,
  payout,
  platformClient,
  type Quote,
  type ScaChallenge,
  type ScaSession,
  scaCustomer,
} from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Passkey = { id: string; customerId: string; nickname: string; credentialId: string; createdAt: string };

function enrollment(customerId: string, authenticator: SoftAuthenticator) {
  const challenge = b64url(crypto.getRandomValues(new Uint8Array(32)));
  return { customerId, nickname: "Phone", challenge, attestation: authenticator.register(challenge) };
}

async function enrolled(client: TestClient) {
  const { customerId, accountId } = await scaCustomer(client);
  await login(client, customerId);
  const authenticator = new SoftAuthenticator();
  const res = await client.post<Passkey>("/sca/passkeys", enrollment(customerId, authenticator));
  expect(res.status).toBe(201);
  return { customerId, accountId, authenticator, passkey: res.body };
}

describe("the SCA passkey factor (one per customer)", () => {
  test("enrolling a passkey under a live SCA session returns it (201), with a really verified attestation", async () => {
    const client = await platformClient(server);
    const { customerId, authenticator, passkey } = await enrolled(client);
    expect(passkey).toMatchObject({ customerId, nickname: "Phone", credentialId: authenticator.id });
    expect(passkey.id).toMatch(/^AuthMethod:/);
  });

  test("a second passkey for the same customer is 409 PASSKEY_ALREADY_ENROLLED", async () => {
    const client = await platformClient(server);
    const { customerId } = await enrolled(client);
    const res = await client.post<ErrorBody>(
      "/sca/passkeys",
      enrollment(customerId, new SoftAuthenticator()),
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("PASSKEY_ALREADY_ENROLLED");
  });

  test("after deleting the passkey (204) another can be enrolled; deleted or foreign ids are 404 AUTH_METHOD_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const { customerId, passkey } = await enrolled(client);
    expect((await client.delete(`/sca/passkeys/${passkey.id}`)).status).toBe(204);
    const again = await client.post<Passkey>(
      "/sca/passkeys",
      enrollment(customerId, new SoftAuthenticator()),
    );
    expect(again.status).toBe(201);
    const other = await platformClient(server);
    const foreign = await enrolled(other);
    for (const id of [passkey.id, foreign.passkey.id]) {
      const gone = await client.delete<ErrorBody>(`/sca/passkeys/${id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe("AUTH_METHOD_NOT_FOUND");
    }
  });

  test("enrolling without a live SCA session is 409 SCA_SESSION_REQUIRED", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const res = await client.post<ErrorBody>(
      "/sca/passkeys",
      enrollment(customerId, new SoftAuthenticator()),
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SCA_SESSION_REQUIRED");
  });

  test("an attestation over another challenge is 400 INVALID_INPUT on challenge", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await login(client, customerId);
    const body = enrollment(customerId, new SoftAuthenticator());
    const res = await client.post<ErrorBody>("/sca/passkeys", {
      ...body,
      challenge: b64url(crypto.getRandomValues(new Uint8Array(32))),
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "challenge" })]);
  });

  test("login with the PASSKEY factor: a WebAuthn assertion over the challenge opens a 180-day session", async () => {
    const client = await platformClient(server);
    const { customerId, authenticator } = await enrolled(client);
    const started = await client.post<ScaChallenge>("/sca/login", { customerId, factor: "PASSKEY" });
    expect(started.status).toBe(201);
    expect(started.body.challenge).toMatch(/^[0-9a-f]{64}$/);
    const done = await client.post<ScaSession>("/sca/login/complete", {
      requestId: started.body.requestId,
      assertion: authenticator.assert(started.body.challenge as string),
    });
    expect(done.status).toBe(200);
    expect(done.body.factor).toBe("PASSKEY");
    expect(Date.parse(done.body.sessionExpiresAt) - Date.parse(done.body.createdAt)).toBe(180 * 86_400_000);
  });

  test("an assertion from another authenticator is a wrong answer: 400 INVALID_INPUT on assertion", async () => {
    const client = await platformClient(server);
    const { customerId } = await enrolled(client);
    const started = await client.post<ScaChallenge>("/sca/login", { customerId, factor: "PASSKEY" });
    const res = await client.post<ErrorBody>("/sca/login/complete", {
      requestId: started.body.requestId,
      assertion: new SoftAuthenticator().assert(started.body.challenge as string),
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "assertion" })]);
  });

  test("a PASSKEY challenge answered with a code only is 400 INVALID_INPUT on assertion", async () => {
    const client = await platformClient(server);
    const { customerId } = await enrolled(client);
    const started = await client.post<ScaChallenge>("/sca/login", { customerId, factor: "PASSKEY" });
    const res = await client.post<ErrorBody>("/sca/login/complete", {
      requestId: started.body.requestId,
      code: "000000",
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors).toEqual([expect.objectContaining({ field: "assertion" })]);
  });

  test("a held payout can be authorized with the passkey (scaFactor PASSKEY)", async () => {
    const client = await platformClient(server);
    const { customerId, accountId, authenticator } = await enrolled(client);
    const externalId = await bankAccount(client, customerId);
    const quote = await client.post<Quote>("/quotes", payout(accountId, externalId, 10_000));
    const held = await client.post<Quote>(`/quotes/${quote.body.id}/execute`, { scaFactor: "PASSKEY" });
    expect(held.body.status).toBe("PENDING_AUTHORIZATION");
    const challenge = held.body.scaChallenge as { requestId: string; factor: string; challenge?: string };
    expect(challenge.factor).toBe("PASSKEY");
    const done = await client.post<Quote>("/sca/payments/complete", {
      requestId: challenge.requestId,
      assertion: authenticator.assert(challenge.challenge as string),
    });
    expect(done.status).toBe(200);
    expect(await balanceOf(client, accountId)).toBe(90_000);
  });
});
