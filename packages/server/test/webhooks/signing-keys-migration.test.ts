import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { Db } from "../../src/core/db/db.js";
import { loadMigrations, migrate } from "../../src/core/db/migrate.js";
import { jwkThumbprint, listSigningKeys, signatureHeader } from "../../src/webhooks/signing-keys.js";
import { openEmptyTestDb } from "../test-db.js";

const DAY = 24 * 60 * 60_000;
const PLATFORMS = ["Platform:sandbox", "Platform:production", "Platform:busy"];

/** An empty database (not the migrated template) of the run's kind, dropped on close. */
const emptyDatabase = () => openEmptyTestDb(inject("dbTemplate"));

function deploymentKey(signsFrom: Date, retiresAt: Date | null) {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const { x = "", y = "" } = publicKey.export({ format: "jwk" });
  const kid = jwkThumbprint({ crv: "P-256", kty: "EC", x, y });
  const jwk = { kty: "EC", crv: "P-256", x, y, kid, use: "sig", alg: "ES256" };
  return [
    kid,
    JSON.stringify(jwk),
    JSON.stringify(privateKey.export({ format: "jwk" })),
    signsFrom,
    retiresAt,
  ];
}

type CopyRow = { platform_id: string; kid: string; retires_at: Date };

let database: Awaited<ReturnType<typeof emptyDatabase>>;
let db: Db;
let migratedFrom: Date;
let migratedTo: Date;
let signing: string;
let announced: string;
let expired: string;
beforeAll(async () => {
  database = await emptyDatabase();
  db = database.db;
  const all = await loadMigrations();
  await migrate(
    db,
    all.slice(
      0,
      all.findIndex((m) => m.name.startsWith("0016_")),
    ),
  );
  for (const [i, id] of PLATFORMS.entries())
    await db.query(
      "INSERT INTO platforms (id, name, environment, supported_currencies, created_at, updated_at) VALUES ($1, $1, $2, '{USD}', now(), now())",
      [id, i === 1 ? "PRODUCTION" : "SANDBOX"],
    );
  // The deployment mid-rotation: one key signing until tomorrow, its successor announced, one long retired.
  const now = Date.now();
  const keys = [
    deploymentKey(new Date(now - 30 * DAY), new Date(now + DAY)),
    deploymentKey(new Date(now + DAY), null),
    deploymentKey(new Date(now - 60 * DAY), new Date(now - 30 * DAY)),
  ];
  const kid = (i: number) => String(keys[i]?.[0]);
  signing = kid(0);
  announced = kid(1);
  expired = kid(2);
  for (const key of keys)
    await db.query(
      `INSERT INTO webhook_signing_keys (kid, public_jwk, private_jwk, signs_from, retires_at, created_at)
       VALUES ($1, $2::jsonb, $3::jsonb, $4, $5, $4)`,
      key,
    );
  migratedFrom = new Date(Date.now() - 1000);
  await migrate(db, all);
  migratedTo = new Date(Date.now() + 1000);
});
afterAll(() => database.close());

describe("migration 0016: the deployment-wide signing keys (issue 16)", () => {
  test("the key that signed becomes a copy in every existing platform's set, retired at the migration; announced and expired keys are dropped", async () => {
    const rows = await db.query<CopyRow>(
      "SELECT platform_id, kid, retires_at FROM webhook_signing_keys ORDER BY platform_id",
    );
    expect(rows.map((r) => [r.platform_id, r.kid])).toEqual([...PLATFORMS].sort().map((id) => [id, signing]));
    for (const row of rows) {
      expect(row.retires_at.getTime()).toBeGreaterThanOrEqual(migratedFrom.getTime());
      expect(row.retires_at.getTime()).toBeLessThanOrEqual(migratedTo.getTime());
    }
    const kids = rows.map((r) => r.kid);
    expect(kids).not.toContain(announced);
    expect(kids).not.toContain(expired);
  });

  test("an existing platform signs with a new key of its own from its first use, and lists the old key 8 days more", async () => {
    const now = new Date();
    const [sandbox = "", production = ""] = PLATFORMS;
    const kidOf = async (platformId: string) =>
      /kid=(.+)$/.exec(await signatureHeader(db, platformId, "{}", now))?.[1];
    const sandboxKid = await kidOf(sandbox);
    const productionKid = await kidOf(production);
    expect(new Set([sandboxKid, productionKid, signing]).size).toBe(3);
    const listed = async (at: Date) => (await listSigningKeys(db, sandbox, at)).keys.map((k) => k.kid);
    expect(await listed(now)).toEqual([signing, sandboxKid]);
    expect(await listed(new Date(migratedFrom.getTime() + 8 * DAY - 1000))).toEqual([signing, sandboxKid]);
    expect(await listed(new Date(migratedTo.getTime() + 8 * DAY))).toEqual([sandboxKid]);
  });

  test("concurrent first uses of an existing platform make exactly one key of its own", async () => {
    const [, , busy = ""] = PLATFORMS;
    const now = new Date();
    const headers = await Promise.all(Array.from({ length: 6 }, () => signatureHeader(db, busy, "{}", now)));
    const kids = new Set(headers.map((h) => /kid=(.+)$/.exec(h)?.[1]));
    expect(kids.size).toBe(1);
    const unretired = await db.query(
      "SELECT kid FROM webhook_signing_keys WHERE platform_id = $1 AND retires_at IS NULL",
      [busy],
    );
    expect(unretired.map((r) => r.kid)).toEqual([...kids]);
  });
});
