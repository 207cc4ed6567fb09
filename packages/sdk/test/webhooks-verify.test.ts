import { describe, expect, test } from "vitest";
import {
  createTestWebhookKey,
  signTestWebhook,
  verifyWebhook,
  WebhookKeyCache,
  WebhookVerificationError,
} from "../src/node.js";

const event = { id: "Webhook:1", type: "TEST", timestamp: "2026-01-01T00:00:00.000Z", data: {} };
const now = new Date("2026-01-01T00:00:00Z");

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return undefined;
}

describe("verifyWebhook (conventions §7.2 consumer steps)", () => {
  test("a payload signed by signTestWebhook verifies and returns the envelope", () => {
    const { body, header, jwks } = signTestWebhook(event, { now });
    expect(verifyWebhook(body, header, jwks, { now })).toEqual(event);
    expect(verifyWebhook(Buffer.from(body), header, jwks, { now })).toEqual(event);
  });

  test("the default tolerance is 300 s: a t older or further ahead is rejected, within it accepted", () => {
    const { body, header, jwks } = signTestWebhook(event, { now });
    const at = (seconds: number) => ({ now: new Date(now.getTime() + seconds * 1000) });
    expect(reason(() => verifyWebhook(body, header, jwks, at(300)))).toBeUndefined();
    expect(reason(() => verifyWebhook(body, header, jwks, at(301)))).toBe("TIMESTAMP_OUT_OF_TOLERANCE");
    expect(reason(() => verifyWebhook(body, header, jwks, at(-301)))).toBe("TIMESTAMP_OUT_OF_TOLERANCE");
    expect(
      reason(() => verifyWebhook(body, header, jwks, { ...at(1000), toleranceSeconds: 1200 })),
    ).toBeUndefined();
  });

  test("an unknown kid is rejected as UNKNOWN_KEY", () => {
    const { body, header } = signTestWebhook(event, { now });
    expect(reason(() => verifyWebhook(body, header, createTestWebhookKey().jwks, { now }))).toBe(
      "UNKNOWN_KEY",
    );
  });

  test("a changed body, a changed t or a forged signature is rejected as BAD_SIGNATURE", () => {
    const { body, header, jwks } = signTestWebhook(event, { now });
    expect(reason(() => verifyWebhook(`${body} `, header, jwks, { now }))).toBe("BAD_SIGNATURE");
    const t = Math.floor(now.getTime() / 1000);
    expect(reason(() => verifyWebhook(body, header.replace(`t=${t}`, `t=${t + 1}`), jwks, { now }))).toBe(
      "BAD_SIGNATURE",
    );
    expect(reason(() => verifyWebhook(body, header.replace(/v1=[^,]+/, "v1=AAAA"), jwks, { now }))).toBe(
      "BAD_SIGNATURE",
    );
  });

  test.each([[""], ["t=1,kid=x"], ["v1=abc,kid=x"], ["t=abc,v1=x,kid=y"], [undefined]])(
    "a malformed header %j is rejected as MALFORMED_HEADER",
    (header) => {
      const { body, jwks } = signTestWebhook(event, { now });
      expect(reason(() => verifyWebhook(body, header, jwks, { now }))).toBe("MALFORMED_HEADER");
    },
  );

  test("WebhookKeyCache refetches the JWKS once on an unknown kid, then verifies", async () => {
    const oldKey = createTestWebhookKey();
    const newKey = createTestWebhookKey();
    const served = [oldKey.jwks, { keys: [...oldKey.jwks.keys, ...newKey.jwks.keys] }];
    let fetches = 0;
    const cache = new WebhookKeyCache(async () => served[Math.min(fetches++, 1)] ?? newKey.jwks);
    const first = signTestWebhook(event, { key: oldKey, now });
    await expect(cache.verify(first.body, first.header, { now })).resolves.toEqual(event);
    const rotated = signTestWebhook(event, { key: newKey, now });
    await expect(cache.verify(rotated.body, rotated.header, { now })).resolves.toEqual(event);
    expect(fetches).toBe(2);
    const stranger = signTestWebhook(event, { now });
    await expect(cache.verify(stranger.body, stranger.header, { now })).rejects.toMatchObject({
      reason: "UNKNOWN_KEY",
    });
    expect(fetches).toBe(3);
  });
});
