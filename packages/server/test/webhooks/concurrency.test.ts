import { describe, expect, test } from "vitest";
import {
  INITIAL_SENDS_PER_PLATFORM,
  MAX_SENDS_PER_PLATFORM,
  PlatformConcurrency,
  SLOW_ANSWER_MS,
} from "../../src/webhooks/concurrency.js";
import type { SendResult } from "../../src/webhooks/sender.js";

// How many deliveries of one platform a runner sends at once (issue 20): adapted to the receiver.

const answer = (status: number, latencyMs = 5): SendResult => ({ ok: true, status, body: "", latencyMs });
const P = "Platform:p";

/** `n` sends of P that end with `result`. */
function sendsEnding(concurrency: PlatformConcurrency, n: number, result: SendResult) {
  for (let i = 0; i < n; i++) {
    concurrency.started(P);
    concurrency.ended(P, result);
  }
}

describe("sends in flight per platform adapt to its receiver", () => {
  test("a platform starts with a few sends at once and gains one per quick 2xx or 409", () => {
    const concurrency = new PlatformConcurrency();
    expect(concurrency.room(P)).toBe(INITIAL_SENDS_PER_PLATFORM);
    sendsEnding(concurrency, 3, answer(200));
    sendsEnding(concurrency, 1, answer(409));
    expect(concurrency.room(P)).toBe(INITIAL_SENDS_PER_PLATFORM + 4);
  });

  test("sends in flight use up the platform's room until they end", () => {
    const concurrency = new PlatformConcurrency();
    for (let i = 0; i < INITIAL_SENDS_PER_PLATFORM; i++) concurrency.started(P);
    expect(concurrency.room(P)).toBe(0);
    expect(concurrency.rooms()).toEqual(new Map([[P, 0]]));
    concurrency.ended(P, undefined);
    expect(concurrency.room(P)).toBe(1);
  });

  test.each([
    ["a 503", answer(503)],
    ["a 429", answer(429)],
    ["a timeout", { ok: false, error: "TIMEOUT", latencyMs: 15_000 } satisfies SendResult],
    ["a refused connection", { ok: false, error: "CONNECTION_REFUSED", latencyMs: 1 } satisfies SendResult],
    ["a 2xx slower than SLOW_ANSWER_MS", answer(200, SLOW_ANSWER_MS)],
  ])("%s halves the platform's sends at once (never below one)", (_name, result) => {
    const concurrency = new PlatformConcurrency();
    sendsEnding(concurrency, 8, answer(200));
    sendsEnding(concurrency, 1, result);
    expect(concurrency.room(P)).toBe(Math.floor((INITIAL_SENDS_PER_PLATFORM + 8) / 2));
    sendsEnding(concurrency, 10, result);
    expect(concurrency.room(P)).toBe(1);
  });

  test("a 4xx other than 409 and 429 leaves the platform's sends as they are", () => {
    const concurrency = new PlatformConcurrency();
    sendsEnding(concurrency, 5, answer(400));
    expect(concurrency.room(P)).toBe(INITIAL_SENDS_PER_PLATFORM);
  });

  test(`however quick its receiver, a platform never has more than ${MAX_SENDS_PER_PLATFORM} sends at once`, () => {
    const concurrency = new PlatformConcurrency();
    sendsEnding(concurrency, 2 * MAX_SENDS_PER_PLATFORM, answer(204));
    expect(concurrency.room(P)).toBe(MAX_SENDS_PER_PLATFORM);
  });
});
