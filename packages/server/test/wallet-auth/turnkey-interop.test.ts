import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { encryptOtpCodeToBundle, formatHpkeBuf, generateP256KeyPair, hpkeEncrypt } from "@turnkey/crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";

// A platform that uses Turnkey's own client libraries, not paysvc's helpers: `@turnkey/crypto` encrypts the
// OTP bundle (after checking the bundle signature) and `@turnkey/api-key-stamper` stamps payloadToSign.

let server: TestServer;
let client: TestClient;
let bundleSigningPublicKey: string;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
  const config = await client.get<{ bundleSigningPublicKey: string }>("/config");
  bundleSigningPublicKey = config.body.bundleSigningPublicKey;
});
afterAll(() => server.close());

interface Challenge {
  payloadToSign: string;
  requestId: string;
}

async function walletCustomer() {
  const customer = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    email: `turnkey-${Date.now()}@example.com`,
    phoneNumber: "+14155550123",
  });
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&type=EMBEDDED_WALLET`,
  );
  const accountId = String(accounts.body.data[0]?.id);
  const credentials = await client.get<{ data: { id: string; type: string }[] }>(
    `/auth/credentials?accountId=${accountId}`,
  );
  const emailOtp = credentials.body.data.find((c) => c.type === "EMAIL_OTP");
  return { accountId, emailOtpId: String(emailOtp?.id) };
}

/** The identical request again, with the stamp ApiKeyStamper made over payloadToSign. */
async function stampedRetry(
  method: "POST" | "DELETE",
  path: string,
  body: unknown,
  challenge: Challenge,
  key: { publicKey: string; privateKey: string },
) {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  const { stampHeaderValue } = await stamper.stamp(challenge.payloadToSign);
  return client.request(method, path, body, {
    headers: { "service-wallet-signature": stampHeaderValue, "request-id": challenge.requestId },
  });
}

/** Flow 1 with Turnkey's libraries: `encrypt` builds encryptedOtpBundle from the target bundle. */
async function turnkeyOtpLogin(
  credentialId: string,
  bundle: string,
  encrypt: (bundle: string, publicKey: string) => Promise<string>,
) {
  const key = generateP256KeyPair();
  const body = { type: "EMAIL_OTP", encryptedOtpBundle: await encrypt(bundle, key.publicKey) };
  const path = `/auth/credentials/${credentialId}/verify`;
  const first = await client.post<Challenge>(path, body);
  expect(first.status, first.text).toBe(202);
  const done = await stampedRetry("POST", path, body, first.body, key);
  return { key, done };
}

describe("interoperability with @turnkey/crypto and @turnkey/api-key-stamper", () => {
  test("GET /config publishes the uncompressed bundle-signing key that signs every otpEncryptionTargetBundle", async () => {
    expect(bundleSigningPublicKey).toMatch(/^04[0-9a-f]{128}$/);
  });

  test("EMAIL_OTP login: encryptOtpCodeToBundle (bundle signature checked) + ApiKeyStamper → 200 AuthSession", async () => {
    const wallet = await walletCustomer();
    const challenged = await client.post<{ otpEncryptionTargetBundle: string }>(
      `/auth/credentials/${wallet.emailOtpId}/challenge`,
    );
    expect(challenged.status, challenged.text).toBe(200);
    const { key, done } = await turnkeyOtpLogin(
      wallet.emailOtpId,
      challenged.body.otpEncryptionTargetBundle,
      (b, pk) => encryptOtpCodeToBundle("000000", b, pk, bundleSigningPublicKey),
    );
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ accountId: wallet.accountId, type: "EMAIL_OTP" });
    expect(done.body).not.toHaveProperty("encryptedSessionSigningKey");
    expect(key.publicKey).toMatch(/^0[23]/);
  });

  test("EMAIL_OTP login: hpkeEncrypt + formatHpkeBuf over the bundle's targetPublic, as a platform would by hand", async () => {
    const wallet = await walletCustomer();
    const challenged = await client.post<{ otpEncryptionTargetBundle: string }>(
      `/auth/credentials/${wallet.emailOtpId}/challenge`,
    );
    const { done } = await turnkeyOtpLogin(
      wallet.emailOtpId,
      challenged.body.otpEncryptionTargetBundle,
      async (b, pk) => {
        const signed = JSON.parse(Buffer.from(JSON.parse(b).data, "hex").toString("utf8"));
        const plainTextBuf = new TextEncoder().encode(JSON.stringify({ otp_code: "000000", public_key: pk }));
        return formatHpkeBuf(
          hpkeEncrypt({ plainTextBuf, targetKeyBuf: Buffer.from(signed.targetPublic, "hex") }),
        );
      },
    );
    expect(done.status, done.text).toBe(200);
  });

  test("signed credential add: the session key stamps payloadToSign with ApiKeyStamper → 201 SMS_OTP credential, whose bundle logs in too", async () => {
    const wallet = await walletCustomer();
    const challenged = await client.post<{ otpEncryptionTargetBundle: string }>(
      `/auth/credentials/${wallet.emailOtpId}/challenge`,
    );
    const { key } = await turnkeyOtpLogin(
      wallet.emailOtpId,
      challenged.body.otpEncryptionTargetBundle,
      (b, pk) => encryptOtpCodeToBundle("000000", b, pk, bundleSigningPublicKey),
    );
    const body = { type: "SMS_OTP", accountId: wallet.accountId };
    const first = await client.post<Challenge & { type: string }>("/auth/credentials", body);
    expect(first.status, first.text).toBe(202);
    expect(first.body.type).toBe("SMS_OTP");
    const added = await stampedRetry("POST", "/auth/credentials", body, first.body, key);
    expect(added.status, added.text).toBe(201);
    const method = added.body as {
      id: string;
      type: string;
      nickname: string;
      otpEncryptionTargetBundle: string;
    };
    expect(method).toMatchObject({ type: "SMS_OTP", nickname: "+14155550123" });
    const smsKey = generateP256KeyPair();
    const verifyBody = {
      type: "SMS_OTP",
      encryptedOtpBundle: await encryptOtpCodeToBundle(
        "000000",
        method.otpEncryptionTargetBundle,
        smsKey.publicKey,
        bundleSigningPublicKey,
      ),
    };
    const path = `/auth/credentials/${method.id}/verify`;
    const verify = await client.post<Challenge>(path, verifyBody);
    expect(verify.status, verify.text).toBe(202);
    const session = await stampedRetry("POST", path, verifyBody, verify.body, smsKey);
    expect(session.status, session.text).toBe(200);
    expect(session.body).toMatchObject({ type: "SMS_OTP", nickname: "+14155550123" });
  });
});
