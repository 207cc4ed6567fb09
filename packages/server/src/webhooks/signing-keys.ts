import { createHash, createPrivateKey, generateKeyPairSync, type JsonWebKey, sign } from "node:crypto";
import type { Db, Tx } from "../core/db/db.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A new key is listed this long before it first signs (conventions §7.2). */
export const KEY_PREANNOUNCE_MS = DAY_MS;
/** A retired key stays listed this long after its last signature (conventions §7.2). */
export const KEY_RETENTION_MS = 8 * DAY_MS;

/** One entry of `GET /webhooks/signing-keys`. */
export interface PublicJwk {
  kty: "EC";
  crv: "P-256";
  x: string;
  y: string;
  kid: string;
  use: "sig";
  alg: "ES256";
}

interface KeyRow {
  [column: string]: unknown;
  kid: string;
  public_jwk: PublicJwk;
  private_jwk: JsonWebKey;
  signs_from: Date;
  retires_at: Date | null;
}

/** The RFC 7638 thumbprint of an EC public key, base64url: SHA-256 over the required members in order. */
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash("sha256").update(canonical).digest("base64url");
}

async function insertKey(tx: Tx, signsFrom: Date, now: Date): Promise<PublicJwk> {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const { x, y } = publicKey.export({ format: "jwk" });
  if (!x || !y) throw new Error("P-256 key export lacks x or y");
  const kid = jwkThumbprint({ crv: "P-256", kty: "EC", x, y });
  const jwk: PublicJwk = { kty: "EC", crv: "P-256", x, y, kid, use: "sig", alg: "ES256" };
  await tx.query(
    `INSERT INTO webhook_signing_keys (kid, public_jwk, private_jwk, signs_from, created_at)
     VALUES ($1, $2::jsonb, $3::jsonb, $4, $5)`,
    [kid, JSON.stringify(jwk), JSON.stringify(privateKey.export({ format: "jwk" })), signsFrom, now],
  );
  return jwk;
}

// Serializes key creation across processes; EXCLUSIVE mode still lets readers list and sign.
async function lockKeys(tx: Tx): Promise<KeyRow[]> {
  await tx.query("LOCK TABLE webhook_signing_keys IN EXCLUSIVE MODE");
  return tx.query<KeyRow>("SELECT * FROM webhook_signing_keys ORDER BY signs_from");
}

function signingRow(rows: KeyRow[], now: Date): KeyRow | undefined {
  return rows
    .filter((r) => r.signs_from <= now && (r.retires_at === null || r.retires_at > now))
    .sort((a, b) => b.signs_from.getTime() - a.signs_from.getTime())[0];
}

/** Creates the deployment's first key (signing at once, nothing to overlap with) when there is none. */
export async function ensureSigningKey(db: Db, now: Date): Promise<void> {
  const existing = await db.query("SELECT 1 FROM webhook_signing_keys LIMIT 1");
  if (existing.length > 0) return;
  await db.transaction(async (tx) => {
    if ((await lockKeys(tx)).length === 0) await insertKey(tx, now, now);
  });
}

/**
 * Rotation: lists a new key now, which signs from now + 24 h; the key signing until then retires at that
 * moment and stays listed 8 more days, so receivers with a cached JWKS keep verifying throughout.
 */
export async function rotateSigningKey(db: Db, now: Date): Promise<PublicJwk> {
  return db.transaction(async (tx) => {
    const rows = await lockKeys(tx);
    const signsFrom = new Date(now.getTime() + KEY_PREANNOUNCE_MS);
    await tx.query(
      "UPDATE webhook_signing_keys SET retires_at = $1 WHERE retires_at IS NULL OR retires_at > $1",
      [signsFrom],
    );
    if (rows.length === 0) await insertKey(tx, now, now);
    return insertKey(tx, signsFrom, now);
  });
}

/** The JWKS: every key listed at `now` (announced, signing, or retired less than 8 days ago). */
export async function listSigningKeys(db: Db, now: Date): Promise<{ keys: PublicJwk[] }> {
  await ensureSigningKey(db, now);
  const rows = await db.query<KeyRow>(
    `SELECT * FROM webhook_signing_keys WHERE created_at <= $1
       AND (retires_at IS NULL OR retires_at + $2 * interval '1 millisecond' > $1) ORDER BY signs_from`,
    [now, KEY_RETENTION_MS],
  );
  return { keys: rows.map((r) => r.public_jwk) };
}

/** `X-Service-Signature` for one attempt: ECDSA P-256 SHA-256, DER, base64, over "<t>.<body>" (§7.2). */
export async function signatureHeader(db: Db, body: string, now: Date): Promise<string> {
  await ensureSigningKey(db, now);
  const row = signingRow(await db.query<KeyRow>("SELECT * FROM webhook_signing_keys"), now);
  if (!row) throw new Error("no webhook signing key is active");
  return signWith(row.private_jwk, row.kid, body, now);
}

/** Signs with a given private JWK; exported for tests and the SDK's test helper mirror. */
export function signWith(privateJwk: JsonWebKey, kid: string, body: string, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  const key = createPrivateKey({ key: privateJwk, format: "jwk" });
  const signature = sign("sha256", Buffer.from(`${t}.${body}`), { key, dsaEncoding: "der" });
  return `t=${t},v1=${signature.toString("base64")},kid=${kid}`;
}
