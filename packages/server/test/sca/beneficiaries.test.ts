import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import {
  advanceBy,
  bankAccount,
  type ErrorBody,
  type ExternalAccount,
  login,
  platformClient,
  type ScaChallenge,
  scaCustomer,
} from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A logged-in SCA customer with one bank account, trusted when `trusted`. */
async function beneficiary(client: TestClient, trusted = true) {
  const { customerId } = await scaCustomer(client, { funds: 0 });
  const session = await login(client, customerId);
  const externalId = await bankAccount(client, customerId);
  if (trusted)
    expect((await client.post(`/customers/external-accounts/${externalId}/trust`)).status).toBe(200);
  return { customerId, externalId, session };
}

const path = (id: string, step = "") => `/customers/external-accounts/${id}${step}`;

async function untrustAndConfirm(client: TestClient, externalId: string, code = "000000") {
  const started = await client.post<ScaChallenge>(path(externalId, "/untrust"));
  expect(started.status).toBe(201);
  return client.post<ExternalAccount & ErrorBody>(path(externalId, "/confirm"), { code });
}

describe("trusted beneficiaries (external accounts)", () => {
  test("a new external account is UNTRUSTED; /trust under a live SCA session makes it TRUSTED", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client, false);
    expect((await client.get<ExternalAccount>(path(externalId))).body.beneficiaryTrustStatus).toBe(
      "UNTRUSTED",
    );
    const trusted = await client.post<ExternalAccount>(path(externalId, "/trust"));
    expect(trusted.status).toBe(200);
    expect(trusted.body.beneficiaryTrustStatus).toBe("TRUSTED");
    expect((await client.get<ExternalAccount>(path(externalId))).body.beneficiaryTrustStatus).toBe("TRUSTED");
    const again = await client.post<ExternalAccount>(path(externalId, "/trust"));
    expect(again.body.beneficiaryTrustStatus).toBe("TRUSTED");
  });

  test("deleting a trusted beneficiary is 409 BENEFICIARY_TRUSTED", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    const res = await client.delete<ErrorBody>(path(externalId));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("BENEFICIARY_TRUSTED");
    expect((await client.get(path(externalId))).status).toBe(200);
  });

  test("untrust then confirm makes it UNTRUSTED, after which delete works (204)", async () => {
    const client = await platformClient(server);
    const { customerId, externalId } = await beneficiary(client);
    const started = await client.post<ScaChallenge>(path(externalId, "/untrust"));
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ customerId, purpose: "UNTRUST_BENEFICIARY", factor: "OTP" });
    // Step one alone changes nothing: still trusted, still not deletable.
    expect((await client.get<ExternalAccount>(path(externalId))).body.beneficiaryTrustStatus).toBe("TRUSTED");
    expect((await client.delete(path(externalId))).status).toBe(409);
    const confirmed = await client.post<ExternalAccount>(path(externalId, "/confirm"), {
      code: "000000",
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.beneficiaryTrustStatus).toBe("UNTRUSTED");
    expect((await client.delete(path(externalId))).status).toBe(204);
  });

  test("a wrong confirmation code is 400 INVALID_INPUT on code and the account stays TRUSTED", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    const wrong = await untrustAndConfirm(client, externalId, "111111");
    expect(wrong.status).toBe(400);
    expect(wrong.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
    expect((await client.get<ExternalAccount>(path(externalId))).body.beneficiaryTrustStatus).toBe("TRUSTED");
  });

  test("/confirm without a waiting /untrust is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    const res = await client.post<ErrorBody>(path(externalId, "/confirm"), { code: "000000" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });

  test("an untrust left unconfirmed past its 5 minutes cannot be confirmed: 409 CONFLICT, still TRUSTED", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    expect((await client.post(path(externalId, "/untrust"))).status).toBe(201);
    await advanceBy(client, 5 * 60_000 + 1_000);
    const late = await client.post<ErrorBody>(path(externalId, "/confirm"), { code: "000000" });
    expect(late.status).toBe(409);
    expect((await client.get<ExternalAccount>(path(externalId))).body.beneficiaryTrustStatus).toBe("TRUSTED");
  });

  test("/untrust of an account that is not trusted is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client, false);
    const res = await client.post<ErrorBody>(path(externalId, "/untrust"));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });

  test("trust changes without a live SCA session are 409 SCA_SESSION_REQUIRED", async () => {
    const client = await platformClient(server);
    const { externalId, session } = await beneficiary(client);
    expect((await client.delete(`/sca/sessions/${session.id}`)).status).toBe(204);
    for (const step of ["/trust", "/untrust"]) {
      const res = await client.post<ErrorBody>(path(externalId, step));
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("SCA_SESSION_REQUIRED");
    }
    const confirm = await client.post<ErrorBody>(path(externalId, "/confirm"), { code: "000000" });
    expect(confirm.body.code).toBe("SCA_SESSION_REQUIRED");
  });

  test("an expired SCA session (180 days later) is 409 SCA_SESSION_REQUIRED for trust changes", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client, false);
    await advanceBy(client, 180 * 24 * 60 * 60_000 + 1_000);
    const res = await client.post<ErrorBody>(path(externalId, "/trust"));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SCA_SESSION_REQUIRED");
  });

  test("trusting the account of a customer outside the SCA regions is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { region: "US", funds: 0 });
    const externalId = await bankAccount(client, customerId);
    const res = await client.post<ErrorBody>(path(externalId, "/trust"));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT", reason: expect.stringMatching(/region/) });
    expect((await client.get<ExternalAccount>(path(externalId))).body.beneficiaryTrustStatus).toBe(
      "UNTRUSTED",
    );
  });

  test("unknown, platform-owned or another platform's external accounts are 404 ACCOUNT_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const other = await platformClient(server);
    const { externalId: foreign } = await beneficiary(other, false);
    const platformOwned = await client.post<ExternalAccount>("/platform/external-accounts", {
      currency: "USD",
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "555444333010",
        routingNumber: "021000021",
        bankAccountType: "CHECKING",
        beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "DE" },
      },
    });
    expect(platformOwned.status).toBe(201);
    for (const id of [foreign, platformOwned.body.id, "ExternalAccount:nope"]) {
      const res = await client.post<ErrorBody>(path(id, "/trust"));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("ACCOUNT_NOT_FOUND");
    }
  });

  test("an unknown body field on /trust is 400 INVALID_INPUT", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client, false);
    const res = await client.post<ErrorBody>(path(externalId, "/trust"), { trusted: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
  });
});
