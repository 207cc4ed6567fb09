import { verifyWebhook, type WebhookJwks, WebhookKeyCache, WebhookVerificationError } from "@paysvc/sdk/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { rotateSigningKey, signatureHeader } from "../../src/webhooks/signing-keys.js";
import { newUsdAccount, startServer, type TestServer } from "../harness.js";
import { eventually, jwks, platformWithReceiver } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type KeyRow = { kid: string; signs_from: Date; retires_at: Date | null; created_at: Date };

async function storedKeys(platformId: string): Promise<KeyRow[]> {
  return server.db.query<KeyRow>(
    "SELECT kid, signs_from, retires_at, created_at FROM webhook_signing_keys WHERE platform_id = $1 ORDER BY kid",
    [platformId],
  );
}

function rejection(verify: () => unknown): string | undefined {
  try {
    verify();
    return undefined;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

const kidOf = (header: string) => /kid=(.+)$/.exec(header)?.[1];

describe("every platform signs with its own keys (issue 16)", () => {
  test("an event of platform S never verifies under platform A's key set, whichever of A's kids it names", async () => {
    const sandbox = await platformWithReceiver(server);
    const productionPlatform = await server.newPlatform("PRODUCTION");
    const production = server.client.as(productionPlatform);
    // A's set holds more than one key: its current one and an announced successor.
    await rotateSigningKey(server.db, productionPlatform.platformId, server.deps.clock.now());
    const accountId = await newUsdAccount(sandbox.client);
    const funded = await sandbox.client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 500 });
    expect(funded.status).toBe(200);
    await eventually(() =>
      expect(sandbox.receiver.received.some((r) => r.body.includes('"INCOMING_PAYMENT.COMPLETED"'))).toBe(
        true,
      ),
    );
    const sandboxKeys = await jwks(sandbox.client);
    const productionKeys = await jwks(production);
    expect(productionKeys.keys).toHaveLength(2);
    const now = server.deps.clock.now();
    for (const { body, headers } of sandbox.receiver.received) {
      const header = String(headers["x-service-signature"]);
      expect(verifyWebhook(body, header, sandboxKeys as WebhookJwks, { now }).id).toMatch(/^Webhook:/);
      expect(rejection(() => verifyWebhook(body, header, productionKeys as WebhookJwks, { now }))).toBe(
        "UNKNOWN_KEY",
      );
      for (const { kid } of productionKeys.keys) {
        const renamed = header.replace(/kid=.+$/, `kid=${kid}`);
        expect(rejection(() => verifyWebhook(body, renamed, productionKeys as WebhookJwks, { now }))).toBe(
          "BAD_SIGNATURE",
        );
      }
      // The SDK's documented flow: a cache fed by A's credentials refetches once on the unknown kid.
      const productionCache = new WebhookKeyCache(async () => (await jwks(production)) as WebhookJwks);
      await expect(productionCache.verify(body, header, { now })).rejects.toMatchObject({
        reason: "UNKNOWN_KEY",
      });
    }
    await sandbox.receiver.close();
  });

  test("GET /webhooks/signing-keys lists only the caller's platform's keys, and two platforms share no kid", async () => {
    const first = await server.newPlatform();
    const second = await server.newPlatform();
    const listedFirst = (await jwks(server.client.as(first))).keys.map((k) => k.kid);
    const listedSecond = (await jwks(server.client.as(second))).keys.map((k) => k.kid);
    expect(listedFirst).toEqual((await storedKeys(first.platformId)).map((k) => k.kid));
    expect(listedSecond).toEqual((await storedKeys(second.platformId)).map((k) => k.kid));
    expect(listedFirst.filter((kid) => listedSecond.includes(kid))).toEqual([]);
  });

  test("a new platform has its own signing key from creation, signing at once, before any delivery or listing", async () => {
    const platform = await server.newPlatform();
    const [created] = await server.db.query<{ created_at: Date }>(
      "SELECT created_at FROM platforms WHERE id = $1",
      [platform.platformId],
    );
    const keys = await storedKeys(platform.platformId);
    expect(keys).toEqual([
      {
        kid: expect.any(String),
        signs_from: created?.created_at,
        retires_at: null,
        created_at: created?.created_at,
      },
    ]);
    const header = await signatureHeader(server.db, platform.platformId, "{}", server.deps.clock.now());
    expect(kidOf(header)).toBe(keys[0]?.kid);
  });

  test("rotating one platform's keys leaves every other platform's keys and signatures unchanged", async () => {
    const rotated = await server.newPlatform();
    const other = await server.newPlatform();
    const now = server.deps.clock.now();
    const otherBefore = await storedKeys(other.platformId);
    const otherListed = await jwks(server.client.as(other));
    const added = await rotateSigningKey(server.db, rotated.platformId, now);
    expect((await storedKeys(rotated.platformId)).map((k) => k.kid)).toContain(added.kid);
    expect(await storedKeys(other.platformId)).toEqual(otherBefore);
    expect(await jwks(server.client.as(other))).toEqual(otherListed);
    const later = new Date(now.getTime() + 2 * 24 * 60 * 60_000);
    expect(kidOf(await signatureHeader(server.db, rotated.platformId, "{}", later))).toBe(added.kid);
    expect(kidOf(await signatureHeader(server.db, other.platformId, "{}", later))).toBe(otherBefore[0]?.kid);
  });
});
