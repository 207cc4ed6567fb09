import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { listSigningKeys, rotateSigningKey, signatureHeader } from "../../src/webhooks/signing-keys.js";
import { startServer, type TestServer } from "../harness.js";
import { jwks, verifySignature } from "./helpers.js";

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("signing keys (conventions §7.2)", () => {
  test("GET /webhooks/signing-keys is a JWKS of P-256 ES256 keys whose kid is the RFC 7638 thumbprint", async () => {
    const { keys } = await jwks(server.client);
    expect(keys).toHaveLength(1);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x", "y"]);
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", use: "sig", alg: "ES256" });
      const canonical = JSON.stringify({ crv: key.crv, kty: key.kty, x: key.x, y: key.y });
      expect(key.kid).toBe(createHash("sha256").update(canonical).digest("base64url"));
    }
  });

  test("rotation of a platform: the new key is listed ≥ 24 h before it signs; the old one stays listed 8 days after", async () => {
    const { platformId } = await server.newPlatform();
    const t0 = new Date(Date.now() + 365 * DAY);
    const before = (await listSigningKeys(server.db, platformId, t0)).keys;
    const added = await rotateSigningKey(server.db, platformId, t0);
    const listed = (await listSigningKeys(server.db, platformId, t0)).keys.map((k) => k.kid);
    expect(listed).toEqual([...before.map((k) => k.kid), added.kid]);
    const signAt = (at: Date) => signatureHeader(server.db, platformId, "{}", at);
    const kidAt = async (at: Date) => /kid=(.+)$/.exec(await signAt(at))?.[1];
    expect(await kidAt(new Date(t0.getTime() + DAY - 1000))).toBe(before[0]?.kid);
    expect(await kidAt(new Date(t0.getTime() + DAY))).toBe(added.kid);
    // A delivery signed just before the switch still verifies against the JWKS until 8 days later.
    const lastOld = new Date(t0.getTime() + DAY - 1000);
    const header = await signAt(lastOld);
    const late = new Date(t0.getTime() + DAY + 8 * DAY - 1000);
    const keysLate = await listSigningKeys(server.db, platformId, late);
    expect(keysLate.keys.map((k) => k.kid)).toContain(before[0]?.kid);
    expect(() => verifySignature("{}", header, keysLate, lastOld)).not.toThrow();
    const gone = await listSigningKeys(server.db, platformId, new Date(t0.getTime() + 9 * DAY + 1000));
    expect(gone.keys.map((k) => k.kid)).toEqual([added.kid]);
  });

  test("a rotation takes effect at the new key's signs_from even though the platform's keys were cached just before it", async () => {
    const { platformId } = await server.newPlatform();
    const t0 = server.deps.clock.now();
    const kidAt = async (at: Date) =>
      /kid=(.+)$/.exec(await signatureHeader(server.db, platformId, "{}", at))?.[1];
    const before = await kidAt(t0);
    const added = await rotateSigningKey(server.db, platformId, t0);
    expect(await kidAt(new Date(t0.getTime() + DAY - 1000))).toBe(before);
    expect(await kidAt(new Date(t0.getTime() + DAY))).toBe(added.kid);
  });
});
