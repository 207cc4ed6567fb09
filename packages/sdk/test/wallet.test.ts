import { createHash, randomUUID } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import {
  decryptCredentialBundle,
  hpkeDecrypt,
  decryptExportBundle as turnkeyDecryptExportBundle,
} from "@turnkey/crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Credentials, TestServer } from "../../server/test/harness.js";
import { startServer } from "../../server/test/harness.js";
import { SoftAuthenticator } from "../../server/test/wallet-auth/webauthn-authenticator.js";
import {
  AuthenticationError,
  BadRequestError,
  decryptExportBundle,
  decryptSessionSigningKey,
  encryptOtpBundle,
  generateKeyPair,
  keyPairFromPrivateKey,
  oidcNonce,
  type PasskeyAttestation,
  PaysvcClient,
  PaysvcError,
  RateLimitError,
  type SignedRetryChallenge,
  stamp,
  WalletCryptoError,
  type WalletKeyPair,
} from "../src/index.js";

// `paysvc.wallet` against the real server: every flow of interface "Embedded wallet authentication endpoints"
// end to end, the signed-retry pattern (PROCESSING, 429, expired challenge), and the crypto checked against
// @turnkey/crypto and @turnkey/api-key-stamper (root dev dependencies; the SDK itself uses neither).

let server: TestServer;
let paysvc: PaysvcClient;
let bundleSigningPublicKey: string;
beforeAll(async () => {
  server = await startServer();
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...server.platform });
  bundleSigningPublicKey = (await paysvc.config.get()).bundleSigningPublicKey;
});
afterAll(() => server.close());

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  status?: number;
  answer?: unknown;
}

/** A client on its own sandbox platform (clock and config changes stay there) whose requests are logged. */
async function isolatedClient(): Promise<{ client: PaysvcClient; platform: Credentials; log: Sent[] }> {
  const platform = await server.newPlatform();
  const log: Sent[] = [];
  const logged: typeof fetch = async (input, init) => {
    const entry: Sent = {
      method: String(init?.method),
      url: String(input),
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body === undefined ? undefined : String(init.body),
    };
    log.push(entry);
    const response = await fetch(input, init);
    entry.status = response.status;
    const text = await response.clone().text();
    entry.answer = text ? JSON.parse(text) : undefined;
    return response;
  };
  return { client: new PaysvcClient({ baseUrl: server.baseUrl, ...platform, fetch: logged }), platform, log };
}

/** A customer with an e-mail (and a phone unless `phone: false`), its embedded wallet and EMAIL_OTP credential. */
async function walletCustomer(client = paysvc, fields: { phone?: boolean } = {}) {
  const email = `sdk-${randomUUID().slice(0, 8)}@example.com`;
  const customer = await client.customers.create({
    customerType: "INDIVIDUAL",
    email,
    ...(fields.phone === false
      ? {}
      : { phoneNumber: `+1415${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}` }),
  });
  const accounts = await client.internalAccounts.listForCustomers({
    customerId: customer.id,
    type: "EMBEDDED_WALLET",
  });
  const accountId = accounts.data[0]?.id;
  if (!accountId) throw new Error("the customer has no embedded wallet");
  const credentials = await client.wallet.listCredentials(accountId);
  const emailOtp = credentials.data.find((c) => c.type === "EMAIL_OTP");
  if (!emailOtp) throw new Error("the embedded wallet has no EMAIL_OTP credential");
  return { customer, accountId, email, emailOtpId: emailOtp.id };
}

/** Moves a sandbox platform's clock forward by `ms`. */
async function advance(client: PaysvcClient, ms: number): Promise<void> {
  const clock = await client.sandbox.getClock();
  await client.sandbox.advanceClock(new Date(Date.parse(clock.now) + ms));
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A sandbox OIDC token (conventions §5.7): JWT-shaped, claims checked, signature not. */
function sandboxJwt(claims: { sub: string; email?: string; nonce?: string; iat?: number }): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: "https://accounts.google.com",
    aud: "paysvc-sdk-test.apps.googleusercontent.com",
    iat: now,
    exp: now + 600,
    jti: randomUUID(),
    ...claims,
  };
  return `${b64url({ alg: "RS256", typ: "JWT", kid: "sandbox" })}.${b64url(payload)}.${Buffer.from("unsigned in the sandbox").toString("base64url")}`;
}

const signedHeaderNames = ["service-wallet-signature", "request-id"];

describe("wallet crypto (conventions §5.3, §5.4)", () => {
  test("generateKeyPair: 64-hex private key, compressed and uncompressed public keys of the same point", () => {
    const key = generateKeyPair();
    expect(key.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(key.publicKeyUncompressed).toMatch(/^04[0-9a-f]{128}$/);
    expect(p256.Point.fromHex(key.publicKey).equals(p256.Point.fromHex(key.publicKeyUncompressed))).toBe(
      true,
    );
    expect(keyPairFromPrivateKey(key.privateKey)).toEqual(key);
    expect(generateKeyPair().privateKey).not.toBe(key.privateKey);
    expect(() => keyPairFromPrivateKey("00".repeat(32))).toThrow(WalletCryptoError);
  });

  test("stamp has exactly the fields, order and encoding of @turnkey/api-key-stamper, and verifies over SHA-256 of the payload", async () => {
    const key = generateKeyPair();
    const payload = '{"action":"ADD_CREDENTIAL","note":"é ü ✓"}';
    const ours = stamp(payload, key.privateKey);
    expect(ours).toMatch(/^[A-Za-z0-9_-]+$/);
    const decoded = JSON.parse(Buffer.from(ours, "base64url").toString("utf8"));
    const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
    const theirs = JSON.parse(
      Buffer.from((await stamper.stamp(payload)).stampHeaderValue, "base64url").toString("utf8"),
    );
    expect(Object.keys(decoded)).toEqual(Object.keys(theirs));
    expect(decoded).toMatchObject({ publicKey: key.publicKey, scheme: theirs.scheme });
    expect(decoded.signature).toMatch(/^[0-9a-f]+$/);
    for (const signature of [decoded.signature, theirs.signature])
      expect(
        p256.verify(
          Buffer.from(signature, "hex"),
          new TextEncoder().encode(payload),
          Buffer.from(key.publicKey, "hex"),
          {
            format: "der",
            lowS: false,
          },
        ),
      ).toBe(true);
  });

  test("oidcNonce is the lowercase sha256 hex of the key string as sent", () => {
    const key = generateKeyPair().publicKey;
    expect(oidcNonce(key)).toBe(createHash("sha256").update(key, "ascii").digest("hex"));
    expect(oidcNonce(key.toUpperCase())).not.toBe(oidcNonce(key));
  });

  test("encryptOtpBundle checks the bundle's signer, signature, account and credential before encrypting to targetPublic", async () => {
    const { accountId, emailOtpId } = await walletCustomer();
    const method = await paysvc.wallet.challenge(emailOtpId);
    const bundle = String(method.otpEncryptionTargetBundle);
    const tek = generateKeyPair();
    const input = { otpCode: "000000", otpEncryptionTargetBundle: bundle, clientPublicKey: tek.publicKey };
    const encrypted = JSON.parse(
      await encryptOtpBundle({ ...input, bundleSigningPublicKey, accountId, authMethodId: emailOtpId }),
    );
    expect(encrypted).toEqual({
      encappedPublic: expect.stringMatching(/^04[0-9a-f]{128}$/),
      ciphertext: expect.any(String),
    });

    const check = async (changes: Partial<Parameters<typeof encryptOtpBundle>[0]>) => {
      try {
        await encryptOtpBundle({ ...input, bundleSigningPublicKey, ...changes });
      } catch (error) {
        return error instanceof WalletCryptoError ? error.check : error;
      }
      return "accepted";
    };
    expect(await check({ bundleSigningPublicKey: generateKeyPair().publicKeyUncompressed })).toBe(
      "BUNDLE_SIGNER",
    );
    const parsed = JSON.parse(bundle);
    const data = JSON.parse(Buffer.from(parsed.data, "hex").toString("utf8"));
    const forged = JSON.stringify({
      ...parsed,
      data: Buffer.from(
        JSON.stringify({ ...data, targetPublic: generateKeyPair().publicKeyUncompressed }),
      ).toString("hex"),
    });
    expect(await check({ otpEncryptionTargetBundle: forged })).toBe("BUNDLE_SIGNATURE");
    expect(await check({ accountId: "InternalAccount:00000000-0000-7000-8000-000000000000" })).toBe(
      "BUNDLE_ACCOUNT",
    );
    expect(await check({ authMethodId: "AuthMethod:00000000-0000-7000-8000-000000000000" })).toBe(
      "BUNDLE_ACCOUNT",
    );
    expect(await check({ otpEncryptionTargetBundle: "not json" })).toBe("BUNDLE_FORMAT");
    expect(await check({ clientPublicKey: "02zz" })).toBe("PUBLIC_KEY");
  });

  test("decryptSessionSigningKey equals @turnkey/crypto decryptCredentialBundle on a real OAUTH session key", async () => {
    const { accountId } = await walletCustomer();
    const { sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const sub = `google-${randomUUID()}`;
    const added = await paysvc.wallet.addCredential(
      accountId,
      { type: "OAUTH", oidcToken: sandboxJwt({ sub }) },
      sessionKey,
    );
    // The verify by hand, as a platform not using the login helper would do it.
    const client = generateKeyPair();
    const verified = await server.client.post<{ encryptedSessionSigningKey: string; id: string }>(
      `/auth/credentials/${added.id}/verify`,
      {
        type: "OAUTH",
        oidcToken: sandboxJwt({ sub, nonce: oidcNonce(client.publicKey) }),
        clientPublicKey: client.publicKey,
      },
    );
    expect(verified.status, verified.text).toBe(200);
    const ours = await decryptSessionSigningKey(verified.body.encryptedSessionSigningKey, client.privateKey);
    expect(ours).toBe(decryptCredentialBundle(verified.body.encryptedSessionSigningKey, client.privateKey));
    // The recovered key is the session's: it signs for the account.
    const account = await paysvc.wallet.setPrivateEnabled(accountId, true, { privateKey: ours });
    expect(account.privateEnabled).toBe(true);
    await expect(
      decryptSessionSigningKey(verified.body.encryptedSessionSigningKey, generateKeyPair().privateKey),
    ).rejects.toMatchObject({ constructor: WalletCryptoError, check: "DECRYPT" });
    await expect(decryptSessionSigningKey("0OIl", client.privateKey)).rejects.toMatchObject({
      check: "BUNDLE_FORMAT",
    });
  });

  test("decryptExportBundle equals @turnkey/crypto decryptExportBundle and refuses another signer or account", async () => {
    const { accountId } = await walletCustomer();
    const { sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const client = generateKeyPair();
    const exported = await paysvc.wallet.signedRetry<{ id: string; encryptedWalletCredentials: string }>(
      {
        method: "POST",
        path: `/internal-accounts/${encodeURIComponent(accountId)}/export`,
        body: { clientPublicKey: client.publicKeyUncompressed },
      },
      sessionKey,
    );
    const bundle = exported.encryptedWalletCredentials;
    const ours = await decryptExportBundle(bundle, {
      clientPrivateKey: client.privateKey,
      accountId,
      bundleSigningPublicKey,
    });
    const theirs = await turnkeyDecryptExportBundle({
      exportBundle: bundle,
      embeddedKey: client.privateKey,
      organizationId: accountId,
      dangerouslyOverrideSignerPublicKey: bundleSigningPublicKey,
      returnMnemonic: true,
    });
    expect(ours).toBe(theirs);
    expect(ours.split(" ")).toHaveLength(24);
    const input = { clientPrivateKey: client.privateKey, accountId, bundleSigningPublicKey };
    await expect(
      decryptExportBundle(bundle, {
        ...input,
        bundleSigningPublicKey: generateKeyPair().publicKeyUncompressed,
      }),
    ).rejects.toMatchObject({ check: "BUNDLE_SIGNER" });
    await expect(
      decryptExportBundle(bundle, {
        ...input,
        accountId: "InternalAccount:00000000-0000-7000-8000-000000000000",
      }),
    ).rejects.toMatchObject({ check: "BUNDLE_ACCOUNT" });
    await expect(
      decryptExportBundle(bundle, { ...input, clientPrivateKey: generateKeyPair().privateKey }),
    ).rejects.toMatchObject({ check: "DECRYPT" });
    // Sanity: the same HPKE ciphertext opens with @turnkey/crypto's hpkeDecrypt too.
    const data = JSON.parse(Buffer.from(JSON.parse(bundle).data, "hex").toString("utf8"));
    const plain = hpkeDecrypt({
      ciphertextBuf: Buffer.from(data.ciphertext, "hex"),
      encappedKeyBuf: Buffer.from(data.encappedPublic, "hex"),
      receiverPriv: client.privateKey,
    });
    expect(Buffer.from(plain).toString("utf8")).toBe(ours);
  });
});

describe("EMAIL_OTP and SMS_OTP logins (flows 1, 6, 7, 8)", () => {
  test("loginWithEmailOtp: challenge → HPKE bundle → verify 202 → the identical verify stamped by the TEK → session", async () => {
    const { client, log } = await isolatedClient();
    const { accountId, emailOtpId, email } = await walletCustomer(client);
    log.length = 0;
    const { session, sessionKey } = await client.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    expect(session).toMatchObject({ accountId, type: "EMAIL_OTP", nickname: email });
    expect(session.id).toMatch(/^Session:/);
    expect(session).not.toHaveProperty("encryptedSessionSigningKey");
    expect(session.lastResponse).toEqual({ status: 200, requestId: expect.stringMatching(/^req_/) });
    expect(sessionKey.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);

    const calls = log.map(
      (e) => `${e.method} ${new URL(e.url).pathname.replace(/^\/[^/]+/, "")} ${e.status}`,
    );
    const verifyPath = `/auth/credentials/${encodeURIComponent(emailOtpId)}/verify`;
    expect(calls).toEqual([
      `GET /auth/credentials 200`,
      `POST /auth/credentials/${encodeURIComponent(emailOtpId)}/challenge 200`,
      "GET /config 200",
      `POST ${verifyPath} 202`,
      `POST ${verifyPath} 200`,
    ]);
    const [first, retry] = log.slice(-2) as [Sent, Sent];
    // Signed-retry endpoints take no Idempotency-Key (conventions §1.8); the retry is the identical request.
    for (const sent of [first, retry]) expect(sent.headers).not.toHaveProperty("idempotency-key");
    expect(retry.body).toBe(first.body);
    expect(first.headers).not.toHaveProperty("service-wallet-signature");
    const challenge = first.answer as SignedRetryChallenge;
    expect(retry.headers["request-id"]).toBe(challenge.requestId);
    const stampJson = JSON.parse(
      Buffer.from(String(retry.headers["service-wallet-signature"]), "base64url").toString(),
    );
    expect(stampJson.publicKey).toBe(sessionKey.publicKey);
    // The challenge call is an ordinary POST: it carries one.
    expect(log[1]?.headers["idempotency-key"]).toEqual(expect.any(String));

    const sessions = await client.wallet.listSessions(accountId);
    expect(sessions.data.map((s) => s.id)).toEqual([session.id]);
  });

  test("otpCode as a function is asked after the challenge, with the challenged credential; a wrong code is 401 UNAUTHORIZED", async () => {
    const { accountId, emailOtpId } = await walletCustomer();
    const seen: string[] = [];
    const { session } = await paysvc.wallet.loginWithEmailOtp({
      accountId,
      authMethodId: emailOtpId,
      otpCode: (method) => {
        seen.push(method.id);
        expect(method.otpEncryptionTargetBundle).toEqual(expect.any(String));
        return "000000";
      },
    });
    expect(seen).toEqual([emailOtpId]);
    expect(session.type).toBe("EMAIL_OTP");
    const wrong = paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "123456" });
    await expect(wrong).rejects.toBeInstanceOf(AuthenticationError);
    await expect(wrong).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      reason: expect.stringMatching(/Invalid OTP code/),
    });
  });

  test("startOtp then loginWithEmailOtp with the bundle: one challenge; resending (flow 7) voids the older bundle", async () => {
    const { accountId } = await walletCustomer();
    const started = await paysvc.wallet.startOtp({ accountId });
    const resent = await paysvc.wallet.startOtp({ accountId });
    expect(resent.id).toBe(started.id);
    expect(resent.otpEncryptionTargetBundle).not.toBe(started.otpEncryptionTargetBundle);
    await expect(
      paysvc.wallet.loginWithEmailOtp({
        accountId,
        otpCode: "000000",
        otpEncryptionTargetBundle: String(started.otpEncryptionTargetBundle),
      }),
    ).rejects.toMatchObject({ constructor: BadRequestError, code: "INVALID_INPUT" });
    const { session } = await paysvc.wallet.loginWithEmailOtp({
      accountId,
      otpCode: "000000",
      otpEncryptionTargetBundle: String(resent.otpEncryptionTargetBundle),
    });
    expect(session.type).toBe("EMAIL_OTP");
  });

  test("addCredential SMS_OTP (signed by the e-mail session) then loginWithSmsOtp with the registration's bundle (flow 8)", async () => {
    const { accountId, customer } = await walletCustomer();
    const { sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const sms = await paysvc.wallet.addCredential(accountId, { type: "SMS_OTP" }, sessionKey);
    expect(sms).toMatchObject({ accountId, type: "SMS_OTP", nickname: customer.phoneNumber });
    expect(sms.lastResponse.status).toBe(201);
    const { session } = await paysvc.wallet.loginWithSmsOtp({
      accountId,
      authMethodId: sms.id,
      otpCode: "000000",
      otpEncryptionTargetBundle: String(sms.otpEncryptionTargetBundle),
    });
    expect(session).toMatchObject({ type: "SMS_OTP", nickname: customer.phoneNumber });
    await expect(
      paysvc.wallet.addCredential(accountId, { type: "SMS_OTP" }, sessionKey),
    ).rejects.toMatchObject({
      constructor: BadRequestError,
      code: "SMS_OTP_CREDENTIAL_ALREADY_EXISTS",
    });
  });
});

describe("credentials and sessions (flows 3, 5, 9, 10)", () => {
  test("revokeCredential: signed by another credential's session; its sessions end; its own session or the last credential is refused", async () => {
    const { accountId, emailOtpId } = await walletCustomer();
    const email = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const sms = await paysvc.wallet.addCredential(accountId, { type: "SMS_OTP" }, email.sessionKey);
    const smsLogin = await paysvc.wallet.loginWithSmsOtp({
      accountId,
      authMethodId: sms.id,
      otpCode: "000000",
    });
    expect((await paysvc.wallet.listSessions(accountId)).data).toHaveLength(2);

    // A session of the credential being revoked may not sign its revocation.
    await expect(paysvc.wallet.revokeCredential(sms.id, smsLogin.sessionKey)).rejects.toMatchObject({
      constructor: AuthenticationError,
      code: "WALLET_SIGNATURE_INVALID",
    });
    const revoked = await paysvc.wallet.revokeCredential(sms.id, email.sessionKey);
    expect(revoked).toEqual({});
    expect(revoked.lastResponse.status).toBe(204);
    expect((await paysvc.wallet.listCredentials(accountId)).data.map((c) => c.id)).toEqual([emailOtpId]);
    expect((await paysvc.wallet.listSessions(accountId)).data.map((s) => s.id)).toEqual([email.session.id]);
    // The SMS session's key signs nothing any more.
    await expect(paysvc.wallet.setPrivateEnabled(accountId, true, smsLogin.sessionKey)).rejects.toMatchObject(
      {
        code: "WALLET_SIGNATURE_INVALID",
      },
    );
    // The last credential cannot go: 400 (checked on the first call).
    await expect(paysvc.wallet.revokeCredential(emailOtpId, email.sessionKey)).rejects.toMatchObject({
      constructor: BadRequestError,
    });
  });

  test("flow 10: EMAIL_OTP removed (signed by an SMS session) and added back, then used to log in", async () => {
    const { accountId, emailOtpId, email } = await walletCustomer();
    const first = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const sms = await paysvc.wallet.addCredential(accountId, { type: "SMS_OTP" }, first.sessionKey);
    const smsLogin = await paysvc.wallet.loginWithSmsOtp({
      accountId,
      authMethodId: sms.id,
      otpCode: "000000",
    });
    await paysvc.wallet.revokeCredential(emailOtpId, smsLogin.sessionKey);
    const back = await paysvc.wallet.addCredential(accountId, { type: "EMAIL_OTP" }, smsLogin.sessionKey);
    expect(back).toMatchObject({
      type: "EMAIL_OTP",
      nickname: email,
      otpEncryptionTargetBundle: expect.any(String),
    });
    expect(back.id).not.toBe(emailOtpId);
    const again = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    expect(again.session.type).toBe("EMAIL_OTP");
  });

  test("refreshSession: a new session keyed by a new key; the old one is revoked and its key refused", async () => {
    const { accountId } = await walletCustomer();
    const login = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const refreshed = await paysvc.wallet.refreshSession(login.session.id, login.sessionKey);
    expect(refreshed.session.id).not.toBe(login.session.id);
    expect(refreshed.session).toMatchObject({ accountId, type: "EMAIL_OTP" });
    expect(refreshed.session.lastResponse.status).toBe(201);
    expect(refreshed.sessionKey.privateKey).not.toBe(login.sessionKey.privateKey);
    expect((await paysvc.wallet.listSessions(accountId)).data.map((s) => s.id)).toEqual([
      refreshed.session.id,
    ]);
    expect(
      (await paysvc.wallet.setPrivateEnabled(accountId, true, refreshed.sessionKey)).privateEnabled,
    ).toBe(true);
    await expect(paysvc.wallet.setPrivateEnabled(accountId, false, login.sessionKey)).rejects.toMatchObject({
      code: "WALLET_SIGNATURE_INVALID",
    });
  });

  test("revokeSession: any active session may sign, this one included; then the list is empty", async () => {
    const { accountId } = await walletCustomer();
    const a = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const b = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    expect((await paysvc.wallet.revokeSession(a.session.id, b.sessionKey)).lastResponse.status).toBe(204);
    expect((await paysvc.wallet.revokeSession(b.session.id, b.sessionKey)).lastResponse.status).toBe(204);
    expect((await paysvc.wallet.listSessions(accountId)).data).toEqual([]);
  });

  test("signing with a key of no session is 401 WALLET_SIGNATURE_INVALID, with the response's request id", async () => {
    const { accountId } = await walletCustomer();
    const error = await paysvc.wallet
      .addCredential(accountId, { type: "SMS_OTP" }, generateKeyPair())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      code: "WALLET_SIGNATURE_INVALID",
      requestId: expect.stringMatching(/^req_/),
    });
  });
});

describe("OAUTH (flows 2, 5, 6, 8)", () => {
  test("register with a sandbox ID token, then loginWithOAuth gets a fresh token for the nonce and decrypts the session key", async () => {
    const { accountId } = await walletCustomer();
    const { sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const sub = `google-${randomUUID()}`;
    const added = await paysvc.wallet.addCredential(
      accountId,
      { type: "OAUTH", oidcToken: sandboxJwt({ sub, email: "oauth.user@example.com" }) },
      sessionKey,
    );
    expect(added).toMatchObject({ type: "OAUTH", nickname: "oauth.user@example.com" });

    const asked: { nonce: string; key: string }[] = [];
    const login = await paysvc.wallet.loginWithOAuth({
      authMethodId: added.id,
      getOidcToken: (nonce, clientPublicKey) => {
        asked.push({ nonce, key: clientPublicKey });
        return sandboxJwt({ sub, nonce });
      },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.nonce).toBe(oidcNonce(String(asked[0]?.key)));
    expect(login.session).toMatchObject({
      accountId,
      type: "OAUTH",
      encryptedSessionSigningKey: expect.any(String),
    });
    // The decrypted key is the session's: it signs a refresh of that very session (only its key may).
    const refreshed = await paysvc.wallet.refreshSession(login.session.id, login.sessionKey);
    expect(refreshed.session.type).toBe("OAUTH");
    // Re-authentication (flow 6) is verify alone, with a new key and token each time.
    const again = await paysvc.wallet.loginWithOAuth({
      authMethodId: added.id,
      getOidcToken: (nonce) => sandboxJwt({ sub, nonce }),
    });
    expect(again.sessionKey.publicKey).not.toBe(login.sessionKey.publicKey);
  });

  test("a token whose nonce is not sha256(clientPublicKey) is 401 UNAUTHORIZED", async () => {
    const { accountId } = await walletCustomer();
    const { sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const sub = `google-${randomUUID()}`;
    const added = await paysvc.wallet.addCredential(
      accountId,
      { type: "OAUTH", oidcToken: sandboxJwt({ sub }) },
      sessionKey,
    );
    await expect(
      paysvc.wallet.loginWithOAuth({
        authMethodId: added.id,
        getOidcToken: () => sandboxJwt({ sub, nonce: "0".repeat(64) }),
      }),
    ).rejects.toMatchObject({
      constructor: AuthenticationError,
      code: "UNAUTHORIZED",
      reason: expect.stringMatching(/nonce/),
    });
  });
});

describe("PASSKEY (flows 3, 4, 6)", () => {
  test("register with the authenticator's attestation (signed), then loginWithPasskey twice with WebAuthn get over the challenge", async () => {
    const { accountId } = await walletCustomer();
    const { sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const authenticator = new SoftAuthenticator();
    // The integrator backend's registration challenge.
    const registrationChallenge = Buffer.from(randomUUID()).toString("base64url");
    const passkey = await paysvc.wallet.addCredential(
      accountId,
      {
        type: "PASSKEY",
        nickname: "Laptop (Touch ID)",
        challenge: registrationChallenge,
        attestation: authenticator.register(registrationChallenge) as PasskeyAttestation,
      },
      sessionKey,
    );
    expect(passkey).toMatchObject({
      type: "PASSKEY",
      nickname: "Laptop (Touch ID)",
      credentialId: authenticator.id,
    });

    const challenges: string[] = [];
    const login = await paysvc.wallet.loginWithPasskey({
      authMethodId: passkey.id,
      getAssertion: (challenge, details) => {
        challenges.push(challenge);
        expect(details).toMatchObject({ id: passkey.id, requestId: expect.stringMatching(/^Request:/) });
        return authenticator.assert(challenge);
      },
    });
    expect(challenges[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(login.session).toMatchObject({
      accountId,
      type: "PASSKEY",
      encryptedSessionSigningKey: expect.any(String),
    });
    const mnemonic = await paysvc.wallet.exportWallet(accountId, login.sessionKey);
    expect(mnemonic.mnemonic.split(" ")).toHaveLength(24);

    const again = await paysvc.wallet.loginWithPasskey({
      authMethodId: passkey.id,
      getAssertion: (c) => authenticator.assert(c),
    });
    expect(again.session.id).not.toBe(login.session.id);
    // The same WebAuthn credential twice on one account: 400 PASSKEY_CREDENTIAL_ALREADY_EXISTS.
    const second = Buffer.from(randomUUID()).toString("base64url");
    await expect(
      paysvc.wallet.addCredential(
        accountId,
        {
          type: "PASSKEY",
          nickname: "Again",
          challenge: second,
          attestation: authenticator.register(second) as PasskeyAttestation,
        },
        sessionKey,
      ),
    ).rejects.toMatchObject({ code: "PASSKEY_CREDENTIAL_ALREADY_EXISTS" });
  });

  test("an assertion by another authenticator is 401 UNAUTHORIZED", async () => {
    const { accountId } = await walletCustomer();
    const { sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const authenticator = new SoftAuthenticator();
    const challenge = Buffer.from(randomUUID()).toString("base64url");
    const passkey = await paysvc.wallet.addCredential(
      accountId,
      {
        type: "PASSKEY",
        nickname: "Phone",
        challenge,
        attestation: authenticator.register(challenge) as PasskeyAttestation,
      },
      sessionKey,
    );
    const stranger = new SoftAuthenticator();
    await expect(
      paysvc.wallet.loginWithPasskey({
        authMethodId: passkey.id,
        getAssertion: (c) => ({ ...stranger.assert(c), credentialId: authenticator.id }),
      }),
    ).rejects.toMatchObject({ constructor: AuthenticationError, code: "UNAUTHORIZED" });
  });
});

describe("export and account actions", () => {
  test("exportWallet: a fresh key per export, the same 24-word mnemonic each time", async () => {
    const { client, log } = await isolatedClient();
    const { accountId } = await walletCustomer(client);
    const { sessionKey } = await client.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    log.length = 0;
    const first = await client.wallet.exportWallet(accountId, sessionKey);
    const second = await client.wallet.exportWallet(accountId, sessionKey);
    expect(first).toEqual({ id: accountId, mnemonic: expect.stringMatching(/^([a-z]+ ){23}[a-z]+$/) });
    expect(second.mnemonic).toBe(first.mnemonic);
    expect(first.lastResponse.status).toBe(200);
    const keys = log
      .filter((e) => e.url.endsWith("/export") && e.headers["service-wallet-signature"])
      .map((e) => JSON.parse(String(e.body)).clientPublicKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^04[0-9a-f]{128}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  test("setPrivateEnabled and updateCustomer (e-mail tied to EMAIL_OTP: signed, and the credential follows)", async () => {
    const { accountId, customer } = await walletCustomer();
    const { sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const account = await paysvc.wallet.setPrivateEnabled(accountId, true, sessionKey);
    expect(account).toMatchObject({ id: accountId, privateEnabled: true });
    expect((await paysvc.internalAccounts.get(accountId)).privateEnabled).toBe(true);
    const email = `moved-${randomUUID().slice(0, 8)}@example.com`;
    const updated = await paysvc.wallet.updateCustomer(customer.id, { email }, sessionKey);
    expect(updated.email).toBe(email);
    const credentials = await paysvc.wallet.listCredentials(accountId);
    expect(credentials.data.find((c) => c.type === "EMAIL_OTP")?.nickname).toBe(email);
    // A change that touches no tied contact completes on the first call.
    const plain = await paysvc.wallet.updateCustomer(customer.id, { fullName: "Ada Lovelace" }, sessionKey);
    expect(plain.lastResponse.status).toBe(200);
  });
});

describe("signedRetry (interface 'Signed-retry operation', 'Handling a still-processing response')", () => {
  async function processingPlatform(delayMs = 300) {
    const isolated = await isolatedClient();
    await isolated.client.config.update({ walletAuthConfig: { sandboxProcessingDelayMs: delayMs } });
    return isolated;
  }

  test("PROCESSING: the identical signed request is re-sent with backoff until terminal, and the operation happens once", async () => {
    const { client, log } = await processingPlatform();
    const { accountId } = await walletCustomer(client);
    const { sessionKey } = await client.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    log.length = 0;
    const processing: number[] = [];
    const sms = await client.wallet.addCredential(accountId, { type: "SMS_OTP" }, sessionKey, {
      onProcessing: (answer, resend) => {
        expect(answer).toEqual({ status: "PROCESSING", message: expect.any(String) });
        processing.push(resend);
      },
    });
    expect(sms).toMatchObject({ type: "SMS_OTP" });
    expect(sms.lastResponse.status).toBe(201);
    expect(processing.length).toBeGreaterThanOrEqual(1);

    const signed = log.filter((e) => e.headers["service-wallet-signature"]);
    expect(signed.length).toBe(processing.length + 1);
    expect(
      signed
        .slice(0, -1)
        .every((e) => e.status === 200 && (e.answer as { status: string }).status === "PROCESSING"),
    ).toBe(true);
    expect(signed.at(-1)?.status).toBe(201);
    // Every re-send is the identical request: same body and signature headers.
    for (const e of signed) {
      expect(e.body).toBe(signed[0]?.body);
      for (const name of signedHeaderNames) expect(e.headers[name]).toBe(signed[0]?.headers[name]);
      expect(e.headers).not.toHaveProperty("idempotency-key");
    }
    // One challenge, one operation: exactly one SMS_OTP credential.
    expect(log.filter((e) => e.status === 202)).toHaveLength(1);
    const smsCredentials = (await client.wallet.listCredentials(accountId)).data.filter(
      (c) => c.type === "SMS_OTP",
    );
    expect(smsCredentials.map((c) => c.id)).toEqual([sms.id]);
  });

  test("PROCESSING on export (never stored) and on a refresh whose 201 is terminal: both settle; PATCH /internal-accounts never answers PROCESSING", async () => {
    const { client } = await processingPlatform();
    const { accountId } = await walletCustomer(client);
    const { session, sessionKey } = await client.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    let resends = 0;
    const onProcessing = () => {
      resends++;
    };
    const exported = await client.wallet.exportWallet(accountId, sessionKey, { onProcessing });
    expect(exported.mnemonic.split(" ")).toHaveLength(24);
    const before = resends;
    expect(before).toBeGreaterThanOrEqual(1);
    const refreshed = await client.wallet.refreshSession(session.id, sessionKey, { onProcessing });
    expect(refreshed.session.lastResponse.status).toBe(201);
    expect(refreshed.session.id).not.toBe(session.id);
    expect(resends).toBeGreaterThan(before);
    const settledResends = resends;
    const account = await client.wallet.setPrivateEnabled(accountId, true, refreshed.sessionKey, {
      onProcessing,
    });
    expect(account).toMatchObject({ id: accountId, privateEnabled: true });
    expect(resends).toBe(settledResends);
  });

  test("PROCESSING longer than maxProcessingResends rejects with WALLET_OPERATION_STILL_PROCESSING; the service completes it on its own", async () => {
    const { client } = await processingPlatform(60_000);
    const { accountId } = await walletCustomer(client);
    const { session, sessionKey } = await client.wallet.loginWithEmailOtp(
      { accountId, otpCode: "000000" },
      { sleep: (ms) => advance(client, ms + 60_000) },
    );
    const error = await client.wallet
      .revokeSession(session.id, sessionKey, { maxProcessingResends: 1, sleep: async () => {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaysvcError);
    expect(error).toMatchObject({
      code: "WALLET_OPERATION_STILL_PROCESSING",
      details: { walletRequestId: expect.stringMatching(/^Request:/) },
    });
    expect((await client.wallet.listSessions(accountId)).data.map((s) => s.id)).toEqual([session.id]);
    await advance(client, 61_000);
    await server.jobs.runDue();
    expect((await client.wallet.listSessions(accountId)).data).toEqual([]);
  });

  test("429 on a challenge re-issue: Retry-After is waited out (here by moving the sandbox clock) and the login goes on", async () => {
    const { client } = await isolatedClient();
    const { accountId, emailOtpId } = await walletCustomer(client);
    for (let i = 0; i < 5; i++) await client.wallet.challenge(emailOtpId);
    const limited = await client.wallet
      .challenge(emailOtpId, undefined, { maxRateLimitWaits: 0 })
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfterSeconds).toBeGreaterThan(60);

    const waits: number[] = [];
    const { session } = await client.wallet.loginWithEmailOtp(
      { accountId, otpCode: "000000" },
      {
        sleep: async (ms) => {
          waits.push(ms);
          await advance(client, ms);
        },
      },
    );
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(60_000);
    expect(waits[0]).toBeLessThanOrEqual(15 * 60_000);
    expect(session.type).toBe("EMAIL_OTP");
    // Limited again: a hint longer than maxRetryAfterMs is not waited for.
    for (let i = 0; i < 10; i++) {
      const outcome = await client.wallet
        .challenge(emailOtpId, undefined, { maxRateLimitWaits: 0 })
        .catch((e: unknown) => e);
      if (outcome instanceof RateLimitError) break;
    }
    await expect(
      client.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" }, { maxRetryAfterMs: 1000 }),
    ).rejects.toBeInstanceOf(RateLimitError);
  });

  test("a challenge that expires before the signed retry (sandbox clock moved in onChallenge) starts a fresh operation", async () => {
    const { client, log } = await isolatedClient();
    const { accountId } = await walletCustomer(client);
    const { sessionKey } = await client.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    log.length = 0;
    const operations: string[] = [];
    const account = await client.wallet.setPrivateEnabled(accountId, true, sessionKey, {
      onChallenge: async (challenge, operation) => {
        operations.push(challenge.requestId);
        // Between the 202 and the signed retry: past the 5-minute expiresAt (the session lasts 15).
        if (operation === 1) await advance(client, 6 * 60_000);
      },
    });
    expect(account.privateEnabled).toBe(true);
    expect(operations).toHaveLength(2);
    expect(operations[1]).not.toBe(operations[0]);
    const signed = log.filter((e) => e.headers["service-wallet-signature"]);
    expect(signed.map((e) => [e.headers["request-id"], e.status])).toEqual([
      [operations[0], 401],
      [operations[1], 200],
    ]);
    expect(signed[0]?.answer).toMatchObject({
      code: "WALLET_SIGNATURE_INVALID",
      reason: expect.stringMatching(/expired/),
    });
  });

  test("a challenge already past expiresAt on the local clock is not signed: a fresh operation starts", async () => {
    const { client, log } = await isolatedClient();
    const { accountId } = await walletCustomer(client);
    const { sessionKey } = await client.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    log.length = 0;
    let calls = 0;
    const account = await client.wallet.setPrivateEnabled(accountId, true, sessionKey, {
      now: () => (calls++ === 0 ? Date.now() + 10 * 60_000 : Date.now()),
    });
    expect(account.privateEnabled).toBe(true);
    expect(log.map((e) => e.status)).toEqual([202, 202, 200]);
  });

  test("when every challenge expires: WALLET_CHALLENGE_EXPIRED after maxOperations, with the server's 401 as cause", async () => {
    const { client } = await isolatedClient();
    const { accountId } = await walletCustomer(client);
    const { sessionKey } = await client.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const error = await client.wallet
      .setPrivateEnabled(accountId, true, sessionKey, {
        maxOperations: 1,
        onChallenge: () => advance(client, 6 * 60_000),
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "WALLET_CHALLENGE_EXPIRED" });
    expect((error as Error).cause).toMatchObject({ code: "WALLET_SIGNATURE_INVALID" });
    expect((await client.internalAccounts.get(accountId)).privateEnabled).toBe(false);
  });

  test("signedRetry works for any signed endpoint given a raw request, and returns a first answer that needs no signature", async () => {
    const { customer, accountId } = await walletCustomer();
    const { sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
    const key: Pick<WalletKeyPair, "privateKey"> = { privateKey: sessionKey.privateKey };
    const email = `raw-${randomUUID().slice(0, 8)}@example.com`;
    const updated = await paysvc.wallet.signedRetry<{ email: string }>(
      { method: "PATCH", path: `/customers/${encodeURIComponent(customer.id)}`, body: { email } },
      key,
    );
    expect(updated.email).toBe(email);
    const plain = await paysvc.wallet.signedRetry<{ fullName: string }>(
      {
        method: "PATCH",
        path: `/customers/${encodeURIComponent(customer.id)}`,
        body: { fullName: "Grace Hopper" },
      },
      key,
    );
    expect(plain).toMatchObject({ fullName: "Grace Hopper" });
  });
});
