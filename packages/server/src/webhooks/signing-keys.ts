import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  sign,
} from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Db, Executor, Tx } from "../core/db/db.js";
import { processSecrets } from "../core/secrets/process-box.js";
import type { SecretBox } from "../core/secrets/secret-box.js";

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
  /** The private JWK's JSON text sealed (core/secrets), kept as a jsonb string; never served. */
  private_jwk: unknown;
  signs_from: Date;
  retires_at: Date | null;
  created_at: Date;
}

/** The RFC 7638 thumbprint of an EC public key, base64url: SHA-256 over the required members in order. */
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash("sha256").update(canonical).digest("base64url");
}

/** The row id a key's private half is sealed with (core/secrets/sealed-columns.ts has its SQL twin). */
const sealedRowId = (platformId: string, kid: string) => `${platformId}/${kid}`;

async function insertKey(
  tx: Tx,
  secrets: SecretBox,
  platformId: string,
  signsFrom: Date,
  now: Date,
): Promise<PublicJwk> {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const { x, y } = publicKey.export({ format: "jwk" });
  if (!x || !y) throw new Error("P-256 key export lacks x or y");
  const kid = jwkThumbprint({ crv: "P-256", kty: "EC", x, y });
  const jwk: PublicJwk = { kty: "EC", crv: "P-256", x, y, kid, use: "sig", alg: "ES256" };
  const privateJwk = new TextEncoder().encode(JSON.stringify(privateKey.export({ format: "jwk" })));
  const sealed = await secrets.seal("webhook-signing-key", sealedRowId(platformId, kid), privateJwk);
  privateJwk.fill(0);
  await tx.query(
    `INSERT INTO webhook_signing_keys (platform_id, kid, public_jwk, private_jwk, signs_from, created_at)
     VALUES ($1, $2, $3::jsonb, to_jsonb($4::text), $5, $6)`,
    [platformId, kid, JSON.stringify(jwk), sealed, signsFrom, now],
  );
  return jwk;
}

/** The private JWK of a key row, opened. */
async function privateJwkOf(secrets: SecretBox, platformId: string, row: KeyRow): Promise<JsonWebKey> {
  const opened = await secrets.open("webhook-signing-key", sealedRowId(platformId, row.kid), row.private_jwk);
  const jwk = JSON.parse(new TextDecoder().decode(opened)) as JsonWebKey;
  opened.fill(0);
  return jwk;
}

/** Advisory-lock class of one platform's key set (the second key is the platform id's hash). */
const PLATFORM_KEYS_LOCK = 7262101;

// Serializes key creation for one platform across processes, so other platforms never wait on it and
// readers (listing, signing) never do.
async function lockPlatformKeys(tx: Tx, platformId: string): Promise<KeyRow[]> {
  await tx.query(`SELECT pg_advisory_xact_lock(${PLATFORM_KEYS_LOCK}, hashtext($1))`, [platformId]);
  return platformKeys(tx, platformId);
}

function platformKeys(db: Executor, platformId: string): Promise<KeyRow[]> {
  return db.query<KeyRow>("SELECT * FROM webhook_signing_keys WHERE platform_id = $1 ORDER BY signs_from", [
    platformId,
  ]);
}

/**
 * Rotation retires the current key as it announces the next, so a platform has exactly one unretired key;
 * none means it holds only the migrated copies of the old deployment-wide key.
 */
const hasUnretiredKey = (rows: KeyRow[]) => rows.some((r) => r.retires_at === null);

function signingRow(rows: KeyRow[], now: Date): KeyRow | undefined {
  return rows
    .filter((r) => r.signs_from <= now && (r.retires_at === null || r.retires_at > now))
    .sort((a, b) => b.signs_from.getTime() - a.signs_from.getTime())[0];
}

/**
 * A platform's first key, signing at once (there is nothing to overlap with). `createPlatform` calls it
 * in the platform's own transaction, so no platform is ever without a key of its own.
 */
export async function createFirstSigningKey(
  tx: Tx,
  platformId: string,
  now: Date,
  secrets: SecretBox,
): Promise<PublicJwk> {
  return insertKey(tx, secrets, platformId, now, now);
}

/**
 * The platform's keys, after giving it a first key if it has only retired ones: platforms that existed
 * before issue 16 hold just the retired copies of the old deployment-wide key (migration 0016).
 */
async function keysOf(db: Db, secrets: SecretBox, platformId: string, now: Date): Promise<KeyRow[]> {
  const rows = await platformKeys(db, platformId);
  if (hasUnretiredKey(rows)) return rows;
  return db.transaction(async (tx) => {
    const locked = await lockPlatformKeys(tx, platformId);
    if (hasUnretiredKey(locked)) return locked;
    await createFirstSigningKey(tx, platformId, now, secrets);
    return platformKeys(tx, platformId);
  });
}

/**
 * How long a platform's key rows are used without reading them again. A rotation in this process drops
 * them at once; one elsewhere (another process, the operator command on PostgreSQL) is seen within this,
 * long before its new key signs (KEY_PREANNOUNCE_MS later).
 */
export const KEY_ROWS_TTL_MS = 60_000;

interface PlatformKeys {
  rows: KeyRow[];
  /** Private keys imported so far, by kid. */
  imported: Map<string, KeyObject>;
}

type KeyCache = LRUCache<string, Promise<PlatformKeys>>;

// Per database handle and master-key box (a box that cannot open a row must not sign with what another
// opened), by platform: its key rows and imported private keys. Issue 20: importing the key per event
// cost 119 µs against 28 µs cached, and reading the rows took a round trip per event.
const cachedKeys = new WeakMap<Db, Map<SecretBox, KeyCache>>();

function keyCache(db: Db, secrets: SecretBox): KeyCache {
  let boxes = cachedKeys.get(db);
  if (!boxes) {
    boxes = new Map();
    cachedKeys.set(db, boxes);
  }
  let cache = boxes.get(secrets);
  if (!cache) {
    cache = new LRUCache({ max: 10_000, ttl: KEY_ROWS_TTL_MS });
    boxes.set(secrets, cache);
  }
  return cache;
}

/** The platform's key rows, from the cache or read once for every concurrent caller. */
function platformKeysCached(
  db: Db,
  secrets: SecretBox,
  platformId: string,
  now: Date,
): Promise<PlatformKeys> {
  const cache = keyCache(db, secrets);
  const cached = cache.get(platformId);
  if (cached) return cached;
  const loading = keysOf(db, secrets, platformId, now).then((rows) => ({ rows, imported: new Map() }));
  cache.set(platformId, loading);
  loading.catch(() => {
    if (cache.get(platformId) === loading) cache.delete(platformId);
  });
  return loading;
}

/** Drops the platform's cached keys: its key set changed. */
function dropCachedKeys(db: Db, platformId: string): void {
  for (const cache of cachedKeys.get(db)?.values() ?? []) cache.delete(platformId);
}

/** The private key of `row`, imported once. */
async function importedKey(
  secrets: SecretBox,
  platformId: string,
  keys: PlatformKeys,
  row: KeyRow,
): Promise<KeyObject> {
  const cached = keys.imported.get(row.kid);
  if (cached) return cached;
  const key = createPrivateKey({ key: await privateJwkOf(secrets, platformId, row), format: "jwk" });
  keys.imported.set(row.kid, key);
  return key;
}

// `secrets` below defaults to the process's box: webhooks/delivery.ts and webhooks/routes.ts pass only the
// database for now (core/secrets/process-box.ts).

/**
 * Rotation of one platform's keys: lists a new key now, which signs from now + 24 h; the key signing
 * until then retires at that moment and stays listed 8 more days, so receivers with a cached JWKS keep
 * verifying throughout. Other platforms' keys are untouched.
 */
export async function rotateSigningKey(
  db: Db,
  platformId: string,
  now: Date,
  secrets: SecretBox = processSecrets(),
): Promise<PublicJwk> {
  const added = await db.transaction(async (tx) => {
    const rows = await lockPlatformKeys(tx, platformId);
    if (!hasUnretiredKey(rows)) await createFirstSigningKey(tx, platformId, now, secrets);
    const signsFrom = new Date(now.getTime() + KEY_PREANNOUNCE_MS);
    await tx.query(
      `UPDATE webhook_signing_keys SET retires_at = $2
         WHERE platform_id = $1 AND (retires_at IS NULL OR retires_at > $2)`,
      [platformId, signsFrom],
    );
    return insertKey(tx, secrets, platformId, signsFrom, now);
  });
  dropCachedKeys(db, platformId);
  return added;
}

/** The platform's JWKS: its keys listed at `now` (announced, signing, or retired less than 8 days ago). */
export async function listSigningKeys(
  db: Db,
  platformId: string,
  now: Date,
  secrets: SecretBox = processSecrets(),
): Promise<{ keys: PublicJwk[] }> {
  const rows = await keysOf(db, secrets, platformId, now);
  const listed = rows.filter(
    (r) =>
      r.created_at <= now &&
      (r.retires_at === null || r.retires_at.getTime() + KEY_RETENTION_MS > now.getTime()),
  );
  return { keys: listed.map((r) => r.public_jwk) };
}

/**
 * `X-Service-Signature` for one attempt of one of the platform's events, with that platform's current
 * key: ECDSA P-256 SHA-256, DER, base64, over "<t>.<body>" (§7.2). The key rows and the imported key
 * are cached (KEY_ROWS_TTL_MS); rows that name no key signing at `now` are read again once.
 */
export async function signatureHeader(
  db: Db,
  platformId: string,
  body: string,
  now: Date,
  secrets: SecretBox = processSecrets(),
): Promise<string> {
  let keys = await platformKeysCached(db, secrets, platformId, now);
  let row = signingRow(keys.rows, now);
  if (!row) {
    dropCachedKeys(db, platformId);
    keys = await platformKeysCached(db, secrets, platformId, now);
    row = signingRow(keys.rows, now);
  }
  if (!row) throw new Error(`platform ${platformId} has no webhook signing key active`);
  return signWithKey(await importedKey(secrets, platformId, keys, row), row.kid, body, now);
}

/** Signs with a given private JWK; exported for tests and the SDK's test helper mirror. */
export function signWith(privateJwk: JsonWebKey, kid: string, body: string, now: Date): string {
  return signWithKey(createPrivateKey({ key: privateJwk, format: "jwk" }), kid, body, now);
}

function signWithKey(key: KeyObject, kid: string, body: string, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  const signature = sign("sha256", Buffer.from(`${t}.${body}`), { key, dsaEncoding: "der" });
  return `t=${t},v1=${signature.toString("base64")},kid=${kid}`;
}
