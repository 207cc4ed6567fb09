import { p256 } from "@noble/curves/nist.js";
import { expect } from "vitest";
import { hpkeSeal } from "../../src/core/hpke.js";
import type { TestClient, TestResponse } from "../harness.js";

// The client side of embedded wallet authentication written with our own primitives (noble P-256, our
// HPKE): key pairs, the API-key stamp, OTP bundle encryption, and the signed-retry round trip.

export interface KeyPair {
  privateKey: Uint8Array;
  /** Compressed, lowercase hex: what stamps and sessions carry. */
  publicKey: string;
  publicKeyUncompressed: string;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

export function newKeyPair(): KeyPair {
  const privateKey = p256.utils.randomSecretKey();
  return {
    privateKey,
    publicKey: hex(p256.getPublicKey(privateKey, true)),
    publicKeyUncompressed: hex(p256.getPublicKey(privateKey, false)),
  };
}

/** `Service-Wallet-Signature` (conventions §5.3): base64url JSON of key, scheme and DER signature. */
export function stamp(
  payloadToSign: string,
  key: KeyPair,
  options: { fields?: Record<string, unknown>; fresh?: boolean } = {},
): string {
  // RFC 6979 signatures are deterministic; `fresh` mixes in entropy for a second, different valid stamp.
  const signature = p256.sign(new TextEncoder().encode(payloadToSign), key.privateKey, {
    format: "der",
    ...(options.fresh ? { extraEntropy: true } : {}),
  });
  const json = JSON.stringify({
    publicKey: key.publicKey,
    scheme: "SIGNATURE_SCHEME_TK_API_P256",
    signature: hex(signature),
    ...options.fields,
  });
  return Buffer.from(json, "utf8").toString("base64url");
}

export interface TargetBundle {
  version: string;
  data: string;
  dataSignature: string;
  enclaveQuorumPublic: string;
  signedData: { organizationId: string; targetPublic: string; userId: string };
}

/** Parses an otpEncryptionTargetBundle and checks its signature by the bundle-signing key. */
export function readTargetBundle(text: string): TargetBundle {
  const bundle = JSON.parse(text) as Omit<TargetBundle, "signedData">;
  const data = Buffer.from(bundle.data, "hex");
  expect(
    p256.verify(
      Buffer.from(bundle.dataSignature, "hex"),
      data,
      Buffer.from(bundle.enclaveQuorumPublic, "hex"),
      { format: "der" },
    ),
  ).toBe(true);
  return { ...bundle, signedData: JSON.parse(data.toString("utf8")) };
}

/** encryptedOtpBundle (conventions §5.4): HPKE of `{"otp_code","public_key"}` to the bundle's target. */
export async function encryptOtp(
  targetBundle: string,
  code: string,
  clientPublicKey: string,
  plaintext?: string,
): Promise<string> {
  const target = readTargetBundle(targetBundle).signedData.targetPublic;
  const body = plaintext ?? JSON.stringify({ otp_code: code, public_key: clientPublicKey });
  const { enc, ciphertext } = await hpkeSeal(
    Buffer.from(target, "hex"),
    new TextEncoder().encode(body),
    "turnkey_hpke",
  );
  return JSON.stringify({ encappedPublic: hex(enc), ciphertext: hex(ciphertext) });
}

export interface Challenge {
  type?: string;
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
}

export interface AuthMethodBody {
  id: string;
  accountId: string;
  type: string;
  nickname: string;
  otpEncryptionTargetBundle?: string;
  createdAt: string;
  updatedAt: string;
}

export interface SessionBody {
  id: string;
  accountId: string;
  type: string;
  nickname: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  encryptedSessionSigningKey?: string;
}

/** The headers of a signed retry. */
export const signedHeaders = (signature: string, requestId: string) => ({
  "service-wallet-signature": signature,
  "request-id": requestId,
});

/** First call → `202` → the identical request stamped by `key`: the retry's response. */
export async function signedRequest<T = Record<string, unknown>>(
  client: TestClient,
  method: "POST" | "DELETE" | "PATCH",
  path: string,
  body: unknown,
  key: KeyPair,
): Promise<TestResponse<T>> {
  const first = await client.request<Challenge>(method, path, body);
  expect(first.status, first.text).toBe(202);
  return client.request<T>(method, path, body, {
    headers: signedHeaders(stamp(first.body.payloadToSign, key), first.body.requestId),
  });
}

/** A customer with an e-mail: its embedded wallet and the wallet's EMAIL_OTP credential. */
export async function newWalletCustomer(
  client: TestClient,
  fields: Record<string, unknown> = {},
): Promise<{ customerId: string; accountId: string; email: string; emailOtp: AuthMethodBody }> {
  const email = `wallet-${Math.random().toString(36).slice(2)}@example.com`;
  const customer = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    email,
    ...fields,
  });
  expect(customer.status, customer.text).toBe(201);
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&type=EMBEDDED_WALLET`,
  );
  const accountId = accounts.body.data[0]?.id;
  if (!accountId) throw new Error("the customer has no embedded wallet");
  const credentials = await client.get<{ data: AuthMethodBody[] }>(
    `/auth/credentials?accountId=${accountId}`,
  );
  const emailOtp = credentials.body.data.find((c) => c.type === "EMAIL_OTP");
  if (!emailOtp) throw new Error("the embedded wallet has no EMAIL_OTP credential");
  return { customerId: customer.body.id, accountId, email: String(fields.email ?? email), emailOtp };
}

/** Flow 1 through the verify's `202`: challenge, encrypt the code with a fresh TEK, verify. */
export async function otpVerifyChallenge(
  client: TestClient,
  credentialId: string,
  options: { code?: string; key?: KeyPair; bundle?: string } = {},
) {
  const key = options.key ?? newKeyPair();
  let bundle = options.bundle;
  if (!bundle) {
    const challenged = await client.post<AuthMethodBody>(`/auth/credentials/${credentialId}/challenge`);
    expect(challenged.status, challenged.text).toBe(200);
    bundle = String(challenged.body.otpEncryptionTargetBundle);
  }
  const body = {
    type: "EMAIL_OTP",
    encryptedOtpBundle: await encryptOtp(bundle, options.code ?? "000000", key.publicKey),
  };
  const path = `/auth/credentials/${credentialId}/verify`;
  const first = await client.post<Challenge>(path, body);
  return { key, body, path, first };
}

/** Flow 1 end to end: the session and its signing key (the TEK). */
export async function otpLogin(
  client: TestClient,
  credentialId: string,
  options: { code?: string; key?: KeyPair; bundle?: string } = {},
): Promise<{ session: SessionBody; key: KeyPair }> {
  const { key, body, path, first } = await otpVerifyChallenge(client, credentialId, options);
  expect(first.status, first.text).toBe(202);
  const done = await client.post<SessionBody>(path, body, {
    headers: signedHeaders(stamp(first.body.payloadToSign, key), first.body.requestId),
  });
  expect(done.status, done.text).toBe(200);
  return { session: done.body, key };
}
