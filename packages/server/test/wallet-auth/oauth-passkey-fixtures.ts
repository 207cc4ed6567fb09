import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { expect } from "vitest";
import { ApiError } from "../../src/core/errors/api-error.js";
import type { Caller, Environment } from "../../src/core/http/context.js";
import { newId } from "../../src/core/ids.js";
import type { WalletAuthConfig } from "../../src/platform/wallet-auth-config.js";
import { openSession } from "../../src/wallet-auth/sessions.js";
import { type AuthMethodRow, insertAuthMethod } from "../../src/wallet-auth/store.js";
import type { Credentials, TestClient, TestResponse, TestServer } from "../harness.js";

// Fixtures shared by the OAUTH and PASSKEY tests: an embedded wallet account, credentials stored as the
// registration would store them, the platform's wallet-auth configuration, and an independent reader
// of `encryptedSessionSigningKey` (conventions §5.4) built on @hpke/core, not on paysvc's own HPKE code.

/** A new customer with an e-mail, and the USDB EMBEDDED_WALLET account it gets (conventions §2.2). */
export async function newWalletAccount(client: TestClient): Promise<string> {
  const customer = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    email: `wallet-${Math.random().toString(36).slice(2)}@example.com`,
  });
  expect(customer.status).toBe(201);
  const accounts = await client.get<{ data: { id: string; type: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}`,
  );
  const wallet = accounts.body.data.find((a) => a.type === "EMBEDDED_WALLET");
  if (!wallet) throw new Error("the customer has no embedded wallet");
  return wallet.id;
}

/** The Caller a request with these credentials resolves to (what the routes hand to the domain functions). */
export function callerOf(credentials: Credentials, environment: Environment): Caller {
  return {
    platformId: credentials.platformId,
    tokenId: credentials.tokenId,
    permissions: ["VIEW", "TRANSACT", "MANAGE"],
    environment,
    clockOffsetMs: 0,
  };
}

/** Stores a credential directly, as a completed registration would (the unit tests' starting point). */
export async function storeMethod(
  server: TestServer,
  input: Partial<AuthMethodRow> & Pick<AuthMethodRow, "platform_id" | "account_id" | "type">,
): Promise<AuthMethodRow> {
  const now = new Date();
  const row: AuthMethodRow = {
    id: newId("AuthMethod"),
    nickname: "test credential",
    credential_id: null,
    passkey_public_key: null,
    passkey_counter: null,
    passkey_transports: null,
    oidc_issuer: null,
    oidc_audience: null,
    oidc_subject: null,
    revoked_at: null,
    created_at: now,
    updated_at: now,
    ...input,
  };
  await server.db.transaction((tx) => insertAuthMethod(tx, row));
  return row;
}

/** Sets `platforms.wallet_auth_config` (until `PATCH /config` carries `walletAuthConfig`). */
export async function setWalletAuthConfig(
  server: TestServer,
  platformId: string,
  config: WalletAuthConfig,
): Promise<void> {
  await server.db.query("UPDATE platforms SET wallet_auth_config = $2::jsonb WHERE id = $1", [
    platformId,
    JSON.stringify(config),
  ]);
}

/** A client key pair (the key the session signing key is sealed to). */
export function clientKeyPair() {
  const secretKey = p256.utils.randomSecretKey();
  return {
    secretKey,
    compressed: Buffer.from(p256.getPublicKey(secretKey, true)).toString("hex"),
    uncompressed: Buffer.from(p256.getPublicKey(secretKey, false)).toString("hex"),
  };
}

const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});
const ab = (bytes: Uint8Array) => bytes.slice().buffer as ArrayBuffer;

/**
 * Opens `encryptedSessionSigningKey` as `decryptCredentialBundle` does: base58check → compressed encapsulated
 * key (33 bytes) ‖ ciphertext → HPKE base mode, info `turnkey_hpke`, AAD = uncompressed enc ‖ uncompressed
 * client key. Returns the 32-byte session private key.
 */
export async function openSessionKey(bundle: string, clientSecretKey: Uint8Array): Promise<Uint8Array> {
  const bytes = createBase58check(sha256).decode(bundle);
  const enc = p256.Point.fromBytes(bytes.slice(0, 33)).toBytes(false);
  const recipient = p256.getPublicKey(clientSecretKey, false);
  const context = await suite.createRecipientContext({
    recipientKey: await suite.kem.deserializePrivateKey(ab(clientSecretKey)),
    enc: ab(enc),
    info: ab(new TextEncoder().encode("turnkey_hpke")),
  });
  const aad = new Uint8Array([...enc, ...recipient]);
  return new Uint8Array(await context.open(ab(bytes.slice(33)), ab(aad)));
}

/** The Turnkey API-key stamp of `payload` by `secretKey` (conventions §5.3), as @turnkey/api-key-stamper makes it. */
export function stamp(payload: string, secretKey: Uint8Array): string {
  const signature = p256.sign(new TextEncoder().encode(payload), secretKey, { format: "der" });
  return Buffer.from(
    JSON.stringify({
      publicKey: Buffer.from(p256.getPublicKey(secretKey, true)).toString("hex"),
      scheme: "SIGNATURE_SCHEME_TK_API_P256",
      signature: Buffer.from(signature).toString("hex"),
    }),
  ).toString("base64url");
}

/** Runs `work` and returns the ApiError it throws (fails the test when it does not throw one). */
export async function apiError(work: () => Promise<unknown>): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

/**
 * An active session of the account whose private key the test holds, for signing `POST /auth/credentials`.
 * It is inserted rather than obtained through the EMAIL_OTP login so that these OAUTH and PASSKEY tests do
 * not depend on the OTP flow (tested in its own files); the stamps it signs are verified for real.
 */
export async function heldSession(
  server: TestServer,
  accountId: string,
): Promise<{ secretKey: Uint8Array; id: string }> {
  const [live] = await server.db.query<AuthMethodRow>(
    "SELECT * FROM auth_methods WHERE account_id = $1 AND type = 'EMAIL_OTP' AND revoked_at IS NULL",
    [accountId],
  );
  const [account] = await server.db.query<{ platform_id: string }>(
    "SELECT platform_id FROM internal_accounts WHERE id = $1",
    [accountId],
  );
  const method =
    live ??
    (await storeMethod(server, {
      platform_id: account?.platform_id ?? "",
      account_id: accountId,
      type: "EMAIL_OTP",
      nickname: "wallet@example.com",
    }));
  const key = clientKeyPair();
  const session = await server.db.transaction((tx) => openSession(tx, method, key.compressed, new Date()));
  return { secretKey: key.secretKey, id: session.id };
}

export interface SignedRetryAnswer {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
  type?: string;
}

/** A signed-retry call (conventions §5.3): the first call must answer 202; the identical request is then stamped. */
export async function signedRequest<T = Record<string, unknown>>(
  client: TestClient,
  method: string,
  path: string,
  body: unknown,
  secretKey: Uint8Array,
): Promise<TestResponse<T>> {
  const first = await client.request<SignedRetryAnswer>(method, path, body);
  if (first.status !== 202) return first as unknown as TestResponse<T>;
  return client.request<T>(method, path, body, {
    headers: {
      "service-wallet-signature": stamp(first.body.payloadToSign, secretKey),
      "request-id": first.body.requestId,
    },
  });
}
