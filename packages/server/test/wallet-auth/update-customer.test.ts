import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/core/ids.js";
import { startServer, type TestServer } from "../harness.js";
import {
  type Challenge,
  platformNow,
  sessionFor,
  signedCall,
  signedHeaders,
  walletCustomer,
} from "./session-fixture.js";

type Customer = { id: string; email?: string; phoneNumber?: string; fullName?: string; updatedAt: string };
type Method = { id: string; type: string; nickname: string; updated_at: Date };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const path = (customerId: string) => `/customers/${customerId}`;
const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;

async function credentials(accountId: string): Promise<Method[]> {
  return server.db.query<Method>(
    "SELECT id, type, nickname, updated_at FROM auth_methods WHERE account_id = $1 AND revoked_at IS NULL ORDER BY type",
    [accountId],
  );
}

/** A customer whose embedded wallet holds its EMAIL_OTP credential (made with the account) and a session. */
async function tiedCustomer(body: Record<string, unknown> = {}) {
  const email = uniqueEmail("tied");
  const { customerId, accountId } = await walletCustomer(server.client, { email, ...body });
  const session = await sessionFor(server, accountId);
  const methods = await credentials(accountId);
  expect(methods.map((m) => [m.type, m.nickname])).toContainEqual(["EMAIL_OTP", email]);
  return { customerId, accountId, session, email };
}

async function addSmsOtp(accountId: string, phoneNumber: string) {
  const now = await platformNow(server, server.platform.platformId);
  await server.db.query(
    `INSERT INTO auth_methods (id, platform_id, account_id, type, nickname, created_at, updated_at)
     VALUES ($1, $2, $3, 'SMS_OTP', $4, $5, $5)`,
    [newId("AuthMethod"), server.platform.platformId, accountId, phoneNumber, now],
  );
}

describe("PATCH /customers/{id} and tied OTP credentials (conventions §2.1, §5.2, §5.8)", () => {
  test("a PATCH that changes neither e-mail nor phone is a plain 200, tied credentials or not", async () => {
    const { customerId, email } = await tiedCustomer();
    const res = await server.client.patch<Customer>(path(customerId), { fullName: "Ada Lovelace", email });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fullName: "Ada Lovelace", email });
  });

  test("changing the e-mail of a customer without tied credentials is a plain 200", async () => {
    const plain = await server.client.post<Customer>("/customers", { customerType: "INDIVIDUAL" });
    const email = uniqueEmail("plain");
    const res = await server.client.patch<Customer>(path(plain.body.id), { email });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(email);
    // A wallet whose EMAIL_OTP credential was revoked has nothing tied to the e-mail either.
    const { customerId, accountId } = await tiedCustomer();
    await server.db.query("UPDATE auth_methods SET revoked_at = updated_at WHERE account_id = $1", [
      accountId,
    ]);
    const untied = await server.client.patch<Customer>(path(customerId), { email: uniqueEmail("untied") });
    expect(untied.status).toBe(200);
  });

  test("changing the e-mail answers 202 (no type, action UPDATE_CUSTOMER, bound to the wallet) and changes nothing yet", async () => {
    const { customerId, accountId, email } = await tiedCustomer();
    const res = await server.client.patch<Challenge>(path(customerId), { email: uniqueEmail("new") });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(["expiresAt", "payloadToSign", "requestId"]);
    expect(JSON.parse(res.body.payloadToSign)).toMatchObject({
      action: "UPDATE_CUSTOMER",
      accountId,
      method: "PATCH",
      path: `/2025-10-13/customers/${customerId}`,
    });
    expect((await server.client.get<Customer>(path(customerId))).body.email).toBe(email);
    expect((await credentials(accountId)).find((m) => m.type === "EMAIL_OTP")?.nickname).toBe(email);
  });

  test("the signed retry answers 200 Customer, and the EMAIL_OTP credential's e-mail follows in the same change", async () => {
    const { customerId, accountId, session } = await tiedCustomer();
    const email = uniqueEmail("moved");
    const before = await credentials(accountId);
    const { result } = await signedCall<Customer>(
      server.client,
      "PATCH",
      path(customerId),
      { email, fullName: "Grace Hopper" },
      session,
    );
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: customerId, email, fullName: "Grace Hopper" });
    expect((await server.client.get<Customer>(path(customerId))).body).toEqual(result.body);
    const after = (await credentials(accountId)).find((m) => m.type === "EMAIL_OTP");
    expect(after?.id).toBe(before.find((m) => m.type === "EMAIL_OTP")?.id);
    expect(after?.nickname).toBe(email);
    expect(after?.updated_at.toISOString()).toBe(result.body.updatedAt);
  });

  test("the signed e-mail change as the hosted API's clients send it, with customerType, answers 200 Customer", async () => {
    const { customerId, session } = await tiedCustomer();
    const email = uniqueEmail("typed");
    const { result } = await signedCall<Customer>(
      server.client,
      "PATCH",
      path(customerId),
      { customerType: "INDIVIDUAL", email },
      session,
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ id: customerId, customerType: "INDIVIDUAL", email });
  });

  test("a requestId is single use: the identical signed request re-sent after its 200 is 401 WALLET_SIGNATURE_INVALID and never updates a second time", async () => {
    const { customerId, session } = await tiedCustomer();
    const email = uniqueEmail("once");
    const body = { email, agreementConsents: [] };
    const first = await signedCall<Customer>(server.client, "PATCH", path(customerId), body, session);
    expect(first.result.status).toBe(200);
    const renamed = await server.client.patch<Customer>(path(customerId), { fullName: "Later Name" });
    expect(renamed.status).toBe(200);
    const again = await server.client.patch<Customer>(path(customerId), body, { headers: first.headers });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      code: "WALLET_SIGNATURE_INVALID",
      reason: expect.stringMatching(/already used/),
    });
    expect((await server.client.get<Customer>(path(customerId))).body).toEqual(renamed.body);
  });

  test("another customer's wallet already tied to the new e-mail (any case) is 409 EMAIL_OTP_EMAIL_ALREADY_EXISTS", async () => {
    const taken = await tiedCustomer();
    const { customerId } = await tiedCustomer();
    const res = await server.client.patch(path(customerId), { email: taken.email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "EMAIL_OTP_EMAIL_ALREADY_EXISTS" });
  });

  test("an e-mail taken by another customer's wallet between the 202 and the retry is 409 EMAIL_OTP_EMAIL_ALREADY_EXISTS", async () => {
    const { customerId, session, email } = await tiedCustomer();
    const target = uniqueEmail("race");
    const challenge = (await server.client.patch<Challenge>(path(customerId), { email: target })).body;
    await walletCustomer(server.client, { email: target });
    const res = await server.client.patch(
      path(customerId),
      { email: target },
      {
        headers: await signedHeaders(session, challenge),
      },
    );
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "EMAIL_OTP_EMAIL_ALREADY_EXISTS" });
    expect((await server.client.get<Customer>(path(customerId))).body.email).toBe(email);
  });

  test("a tied credential set that changed between the 202 and the retry is 409 EMAIL_OTP_CREDENTIAL_SET_CHANGED", async () => {
    const { customerId, accountId, session, email } = await tiedCustomer();
    const body = { email: uniqueEmail("changed") };
    const challenge = (await server.client.patch<Challenge>(path(customerId), body)).body;
    // The credential is revoked and added back (a new id) after the challenge was signed for the old set.
    const [method] = await server.db.query<{ id: string }>(
      "UPDATE auth_methods SET revoked_at = updated_at WHERE account_id = $1 AND type = 'EMAIL_OTP' RETURNING id",
      [accountId],
    );
    const now = await platformNow(server, server.platform.platformId);
    await server.db.query(
      `INSERT INTO auth_methods (id, platform_id, account_id, type, nickname, created_at, updated_at)
       VALUES ($1, $2, $3, 'EMAIL_OTP', $4, $5, $5)`,
      [newId("AuthMethod"), server.platform.platformId, accountId, email, now],
    );
    expect(method).toBeDefined();
    const res = await server.client.patch(path(customerId), body, {
      headers: await signedHeaders(session, challenge),
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "EMAIL_OTP_CREDENTIAL_SET_CHANGED" });
    expect((await server.client.get<Customer>(path(customerId))).body.email).toBe(email);
  });

  test("a tied credential revoked between the 202 and the retry (none left) is still 409 EMAIL_OTP_CREDENTIAL_SET_CHANGED", async () => {
    const { customerId, accountId, session, email } = await tiedCustomer();
    const body = { email: uniqueEmail("revoked") };
    const challenge = (await server.client.patch<Challenge>(path(customerId), body)).body;
    await server.db.query(
      "UPDATE auth_methods SET revoked_at = updated_at WHERE account_id = $1 AND type = 'EMAIL_OTP'",
      [accountId],
    );
    const res = await server.client.patch(path(customerId), body, {
      headers: await signedHeaders(session, challenge),
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "EMAIL_OTP_CREDENTIAL_SET_CHANGED" });
    expect((await server.client.get<Customer>(path(customerId))).body.email).toBe(email);
  });

  test("changing the phone number with a tied SMS_OTP credential is signed, and its nickname follows", async () => {
    const { customerId, accountId, session, email } = await tiedCustomer({ phoneNumber: "+14155550100" });
    await addSmsOtp(accountId, "+14155550100");
    const phoneNumber = "+14155550199";
    const { challenge, result } = await signedCall<Customer>(
      server.client,
      "PATCH",
      path(customerId),
      { phoneNumber },
      session,
    );
    expect(challenge.status).toBe(202);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ phoneNumber, email });
    expect((await credentials(accountId)).map((m) => [m.type, m.nickname])).toEqual([
      ["EMAIL_OTP", email],
      ["SMS_OTP", phoneNumber],
    ]);
  });

  test("changing the phone number when only an EMAIL_OTP credential exists is a plain 200", async () => {
    const { customerId } = await tiedCustomer({ phoneNumber: "+14155550101" });
    const res = await server.client.patch<Customer>(path(customerId), { phoneNumber: "+14155550102" });
    expect(res.status).toBe(200);
    expect(res.body.phoneNumber).toBe("+14155550102");
  });

  test("only a session of one of the customer's embedded wallets may sign: another customer's is 401 WALLET_SIGNATURE_INVALID", async () => {
    const { customerId, email } = await tiedCustomer();
    const other = await tiedCustomer();
    const { result } = await signedCall(
      server.client,
      "PATCH",
      path(customerId),
      { email: uniqueEmail("x") },
      other.session,
    );
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect((await server.client.get<Customer>(path(customerId))).body.email).toBe(email);
  });

  test("the signed body is bound: a retry with other fields is 401 WALLET_SIGNATURE_BODY_MISMATCH", async () => {
    const { customerId, session } = await tiedCustomer();
    const email = uniqueEmail("bound");
    const challenge = (await server.client.patch<Challenge>(path(customerId), { email })).body;
    const res = await server.client.patch(
      path(customerId),
      { email, fullName: "Sneaky" },
      {
        headers: await signedHeaders(session, challenge),
      },
    );
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "WALLET_SIGNATURE_BODY_MISMATCH" });
  });

  test("body errors are 400 and an unknown customer 404, before any challenge", async () => {
    const { customerId } = await tiedCustomer();
    const bad = await server.client.patch(path(customerId), { email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "INVALID_INPUT" });
    const missing = await server.client.patch(path("Customer:019a0000-0000-7000-8000-000000000001"), {
      email: uniqueEmail("missing"),
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "CUSTOMER_NOT_FOUND" });
  });
});
