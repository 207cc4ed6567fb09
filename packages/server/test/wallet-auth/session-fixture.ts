import { p256 } from "@noble/curves/nist.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import type { Db } from "../../src/core/db/db.js";
import { newId } from "../../src/core/ids.js";
import type { TestClient, TestResponse, TestServer } from "../harness.js";

// Shared by the export, processing, update-account and update-customer tests. Sessions are inserted
// straight into `auth_sessions` with a key the test holds: these tests are about the signed retry that
// uses a session, not about how one is obtained (the OTP, OAUTH and PASSKEY logins have their own tests).

export interface SessionKey {
  sessionId: string;
  /** Compressed P-256 public key (hex): the stamp's `publicKey`. */
  publicKey: string;
  privateKey: string;
}

export interface Challenge {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
  type?: string;
}

/** A new individual customer with an e-mail, and its EMBEDDED_WALLET account. */
export async function walletCustomer(
  client: TestClient,
  body: Record<string, unknown> = {},
): Promise<{ customerId: string; accountId: string }> {
  const created = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    email: `w${Math.random().toString(36).slice(2, 10)}@example.com`,
    ...body,
  });
  if (created.status !== 201) throw new Error(`customer create: ${created.status} ${created.text}`);
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${created.body.id}&type=EMBEDDED_WALLET`,
  );
  const accountId = accounts.body.data[0]?.id;
  if (!accountId) throw new Error(`customer ${created.body.id} has no embedded wallet`);
  return { customerId: created.body.id, accountId };
}

/** The platform's own now (service clock + sandbox clock offset). */
export async function platformNow(server: TestServer, platformId: string): Promise<Date> {
  const [row] = await server.db.query<{ clock_offset_ms: number }>(
    "SELECT clock_offset_ms FROM platforms WHERE id = $1",
    [platformId],
  );
  return new Date(server.deps.clock.now().getTime() + Number(row?.clock_offset_ms ?? 0));
}

/** The account's live EMAIL_OTP credential, made as account creation makes it when it is not there yet. */
async function emailOtpCredential(db: Db, platformId: string, accountId: string, now: Date): Promise<string> {
  const [existing] = await db.query<{ id: string }>(
    "SELECT id FROM auth_methods WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created_at LIMIT 1",
    [accountId],
  );
  if (existing) return existing.id;
  const [owner] = await db.query<{ email: string }>(
    `SELECT c.profile->>'email' AS email FROM internal_accounts a JOIN customers c ON c.id = a.customer_id
     WHERE a.id = $1`,
    [accountId],
  );
  const id = newId("AuthMethod");
  await db.query(
    `INSERT INTO auth_methods (id, platform_id, account_id, type, nickname, created_at, updated_at)
     VALUES ($1, $2, $3, 'EMAIL_OTP', $4, $5, $5)`,
    [id, platformId, accountId, owner?.email ?? "wallet@example.com", now],
  );
  return id;
}

/** An active 15-minute session of the account whose key the test holds. */
export async function sessionFor(
  server: TestServer,
  accountId: string,
  platformId = server.platform.platformId,
): Promise<SessionKey> {
  const now = await platformNow(server, platformId);
  const methodId = await emailOtpCredential(server.db, platformId, accountId, now);
  const secret = p256.utils.randomSecretKey();
  const key: SessionKey = {
    sessionId: newId("Session"),
    publicKey: Buffer.from(p256.getPublicKey(secret, true)).toString("hex"),
    privateKey: Buffer.from(secret).toString("hex"),
  };
  await server.db.query(
    `INSERT INTO auth_sessions (id, platform_id, account_id, auth_method_id, public_key, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [
      key.sessionId,
      platformId,
      accountId,
      methodId,
      key.publicKey,
      new Date(now.getTime() + 15 * 60_000),
      now,
    ],
  );
  return key;
}

/** `Service-Wallet-Signature` for `payloadToSign`, made by `@turnkey/api-key-stamper` as a client would. */
export async function stampOf(key: SessionKey, payloadToSign: string): Promise<string> {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  return (await stamper.stamp(payloadToSign)).stampHeaderValue;
}

/** The signed-retry headers for a challenge. */
export async function signedHeaders(key: SessionKey, challenge: Challenge): Promise<Record<string, string>> {
  return {
    "service-wallet-signature": await stampOf(key, challenge.payloadToSign),
    "request-id": challenge.requestId,
  };
}

/** First call (`202`), then the identical request with the stamp: both responses and the headers used. */
export async function signedCall<T = Record<string, unknown>>(
  client: TestClient,
  method: "POST" | "PATCH" | "DELETE",
  path: string,
  body: unknown,
  key: SessionKey,
): Promise<{ challenge: TestResponse<Challenge>; result: TestResponse<T>; headers: Record<string, string> }> {
  const challenge = await client.request<Challenge>(method, path, body);
  if (challenge.status !== 202) throw new Error(`expected 202, got ${challenge.status} ${challenge.text}`);
  const headers = await signedHeaders(key, challenge.body);
  const result = await client.request<T>(method, path, body, { headers });
  return { challenge, result, headers };
}
