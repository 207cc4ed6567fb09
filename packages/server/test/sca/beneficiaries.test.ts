import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { BeneficiaryTrustConfirm, BeneficiaryTrustStart } from "../../src/sca/schemas.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import {
  advanceBy,
  bankAccount,
  type ErrorBody,
  type ExternalAccount,
  endSessions,
  login,
  platformClient,
  scaCustomer,
} from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const path = (id: string, step = "") => `/customers/external-accounts/${id}${step}`;

/** Starts a trust change (`/trust` or `/untrust`) and answers it on `confirm` (its `/confirm` path). */
async function change(
  client: TestClient,
  externalId: string,
  step: string,
  confirm = `${step}/confirm`,
  code = "000000",
) {
  const started = await client.post<BeneficiaryTrustStart>(path(externalId, step));
  expect(started.status).toBe(200);
  return client.post<BeneficiaryTrustConfirm & ErrorBody>(path(externalId, confirm), { code });
}

/** A logged-in SCA customer with one bank account, trusted (two steps) when `trusted`. */
async function beneficiary(client: TestClient, trusted = true) {
  const { customerId } = await scaCustomer(client, { funds: 0 });
  const session = await login(client, customerId);
  const externalId = await bankAccount(client, customerId);
  if (trusted) expect((await change(client, externalId, "/trust")).body).toEqual({ trusted: true });
  return { customerId, externalId, session };
}

const status = async (client: TestClient, id: string) =>
  (await client.get<ExternalAccount>(path(id))).body.beneficiaryTrustStatus;

describe("trusted beneficiaries (external accounts)", () => {
  test("/trust answers 200 with an SMS_OTP scaChallenge and the account stays UNTRUSTED until /trust/confirm", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client, false);
    expect(await status(client, externalId)).toBe("UNTRUSTED");
    const started = await client.post<BeneficiaryTrustStart>(path(externalId, "/trust"));
    expect(started.status).toBe(200);
    expect(started.body.scaChallenge).toMatchObject({
      id: expect.stringMatching(/^Request:/),
      purpose: "TRUST_BENEFICIARY",
      factor: "SMS_OTP",
      availableFactors: ["SMS_OTP"],
    });
    expect(await status(client, externalId)).toBe("UNTRUSTED");
  });

  test("/trust/confirm with the code answers 200 {trusted: true} and the account is TRUSTED", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client, false);
    const confirmed = await change(client, externalId, "/trust");
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ trusted: true });
    expect(await status(client, externalId)).toBe("TRUSTED");
  });

  test("/trust of a trusted account answers 200 without a challenge and changes nothing", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    const again = await client.post<BeneficiaryTrustStart>(path(externalId, "/trust"));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({});
    expect(await status(client, externalId)).toBe("TRUSTED");
  });

  test("/trust/confirm answers the challenge named by challengeId", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client, false);
    const started = await client.post<BeneficiaryTrustStart>(path(externalId, "/trust"));
    const res = await client.post<BeneficiaryTrustConfirm>(path(externalId, "/trust/confirm"), {
      challengeId: started.body.scaChallenge?.id,
      code: "000000",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ trusted: true });
  });

  test("a challengeId that is not this account's trust challenge is 404 REQUEST_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client, false);
    const { customerId: otherCustomer } = await scaCustomer(client, { funds: 0 });
    await login(client, otherCustomer);
    const otherAccount = await bankAccount(client, otherCustomer);
    const other = await client.post<BeneficiaryTrustStart>(path(otherAccount, "/trust"));
    await client.post(path(externalId, "/trust"));
    for (const challengeId of [other.body.scaChallenge?.id, "Request:nope"]) {
      const res = await client.post<ErrorBody>(path(externalId, "/trust/confirm"), {
        challengeId,
        code: "000000",
      });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("REQUEST_NOT_FOUND");
    }
    expect(await status(client, externalId)).toBe("UNTRUSTED");
  });

  test("/trust/confirm without a waiting /trust is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client, false);
    const res = await client.post<ErrorBody>(path(externalId, "/trust/confirm"), { code: "000000" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });

  test("a waiting /untrust cannot be answered on /trust/confirm: 409 CONFLICT, still TRUSTED", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    expect((await client.post(path(externalId, "/untrust"))).status).toBe(200);
    const res = await client.post<ErrorBody>(path(externalId, "/trust/confirm"), { code: "000000" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
    expect(await status(client, externalId)).toBe("TRUSTED");
  });

  test("deleting a trusted beneficiary is 409 BENEFICIARY_TRUSTED", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    const res = await client.delete<ErrorBody>(path(externalId));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("BENEFICIARY_TRUSTED");
    expect((await client.get(path(externalId))).status).toBe(200);
  });

  test("/untrust answers 200 with an UNTRUST_BENEFICIARY challenge; the account stays TRUSTED and undeletable", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    const started = await client.post<BeneficiaryTrustStart>(path(externalId, "/untrust"));
    expect(started.status).toBe(200);
    expect(started.body.scaChallenge).toMatchObject({
      purpose: "UNTRUST_BENEFICIARY",
      factor: "SMS_OTP",
    });
    expect(await status(client, externalId)).toBe("TRUSTED");
    expect((await client.delete(path(externalId))).status).toBe(409);
  });

  test("/untrust/confirm answers 200 {trusted: false}, after which delete works (204)", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    const confirmed = await change(client, externalId, "/untrust");
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ trusted: false });
    expect(await status(client, externalId)).toBe("UNTRUSTED");
    expect((await client.delete(path(externalId))).status).toBe(204);
  });

  test("/confirm (the interface's name) confirms an untrust like /untrust/confirm", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    const confirmed = await change(client, externalId, "/untrust", "/confirm");
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ trusted: false });
    expect(await status(client, externalId)).toBe("UNTRUSTED");
  });

  test("a wrong confirmation code is 400 INVALID_INPUT on code and the account stays TRUSTED", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    const wrong = await change(client, externalId, "/untrust", "/untrust/confirm", "111111");
    expect(wrong.status).toBe(400);
    expect(wrong.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
    expect(await status(client, externalId)).toBe("TRUSTED");
  });

  test("a confirm body without code (or passkeyAssertion with origin) is 400 INVALID_INPUT; no body is 400 INVALID_REQUEST_FORMAT", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    await client.post(path(externalId, "/untrust"));
    const bodies = [{}, { code: null }, { code: "12345" }, { code: "000000", extra: 1 }];
    for (const body of bodies) {
      const res = await client.post<ErrorBody>(path(externalId, "/untrust/confirm"), body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_INPUT");
    }
    const none = await client.post<ErrorBody>(path(externalId, "/untrust/confirm"));
    expect(none.status).toBe(400);
    expect(none.body.code).toBe("INVALID_REQUEST_FORMAT");
    const assertion = { credentialId: "a", clientDataJson: "b", authenticatorData: "c", signature: "d" };
    const noOrigin = await client.post<ErrorBody>(path(externalId, "/untrust/confirm"), {
      passkeyAssertion: assertion,
    });
    expect(noOrigin.status).toBe(400);
    expect(noOrigin.body.details?.errors).toEqual([expect.objectContaining({ field: "origin" })]);
    expect(await status(client, externalId)).toBe("TRUSTED");
  });

  test("/untrust/confirm without a waiting /untrust is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    for (const step of ["/untrust/confirm", "/confirm"]) {
      const res = await client.post<ErrorBody>(path(externalId, step), { code: "000000" });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("CONFLICT");
    }
  });

  test("an untrust left unconfirmed past its 5 minutes cannot be confirmed: 409 CONFLICT, still TRUSTED", async () => {
    const client = await platformClient(server);
    const { externalId } = await beneficiary(client);
    expect((await client.post(path(externalId, "/untrust"))).status).toBe(200);
    await advanceBy(client, 5 * 60_000 + 1_000);
    const late = await client.post<ErrorBody>(path(externalId, "/untrust/confirm"), { code: "000000" });
    expect(late.status).toBe(409);
    expect(await status(client, externalId)).toBe("TRUSTED");
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
    const { customerId, externalId } = await beneficiary(client);
    await endSessions(client, customerId);
    for (const step of ["/trust", "/untrust"]) {
      const res = await client.post<ErrorBody>(path(externalId, step));
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("SCA_SESSION_REQUIRED");
    }
    for (const step of ["/trust/confirm", "/untrust/confirm", "/confirm"]) {
      const res = await client.post<ErrorBody>(path(externalId, step), { code: "000000" });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("SCA_SESSION_REQUIRED");
    }
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
    expect(await status(client, externalId)).toBe("UNTRUSTED");
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
      for (const [step, body] of [["/trust"], ["/trust/confirm", { code: "000000" }]] as const) {
        const res = await client.post<ErrorBody>(path(id, step), body);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe("ACCOUNT_NOT_FOUND");
      }
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
