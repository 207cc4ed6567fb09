import { describe, expect, test } from "vitest";
import { parseRetryAfter, retryDelayMs } from "../src/core/retry.js";
import {
  ApiServerError,
  ConflictError,
  ConnectionError,
  PaysvcClient,
  RateLimitError,
} from "../src/index.js";

const connection = new ConnectionError({ code: "CONNECTION_ERROR", reason: "refused" });
const server = (status: number) => new ApiServerError({ code: "INTERNAL_ERROR", reason: "x", status });

describe("retry policy", () => {
  test("backoff is jittered exponential from 0.5 s, each delay within [ceiling/2, ceiling], capped at 5 s", () => {
    const ceilings = [500, 1000, 2000, 4000, 5000, 5000];
    ceilings.forEach((ceiling, attempt) => {
      for (let i = 0; i < 50; i++) {
        const delay = retryDelayMs(connection, false, attempt) ?? -1;
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    });
  });

  test("a 5xx is retried only when the request is safe to repeat", () => {
    expect(retryDelayMs(server(503), true, 0)).toBeGreaterThan(0);
    expect(retryDelayMs(server(500), false, 0)).toBeUndefined();
  });

  test("Retry-After is honoured exactly up to 60 s; beyond that the error goes to the caller", () => {
    const limited = (seconds: number | undefined) =>
      new RateLimitError({ code: "RATE_LIMITED", reason: "x", status: 429, retryAfterSeconds: seconds });
    expect(retryDelayMs(limited(0), false, 0)).toBe(0);
    expect(retryDelayMs(limited(60), false, 0)).toBe(60_000);
    expect(retryDelayMs(limited(61), false, 0)).toBeUndefined();
    expect(retryDelayMs(limited(undefined), false, 0)).toBeGreaterThan(0);
  });

  test("409 is retried only for NOT_YET_AVAILABLE", () => {
    const conflict = (code: string) =>
      new ConflictError({ code, reason: "x", status: 409, retryAfterSeconds: 1 });
    expect(retryDelayMs(conflict("NOT_YET_AVAILABLE"), false, 0)).toBe(1000);
    expect(retryDelayMs(conflict("CONFLICT"), true, 0)).toBeUndefined();
  });

  test("Retry-After is read as integer seconds or an HTTP date", () => {
    expect(parseRetryAfter("7")).toBe(7);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    expect(parseRetryAfter(inTenSeconds)).toBeGreaterThanOrEqual(9);
  });
});

describe("client-side checks, before any request", () => {
  const paysvc = new PaysvcClient({
    baseUrl: "http://127.0.0.1:9/2025-10-13",
    clientId: "a",
    clientSecret: "b",
  });

  test("an empty id is refused rather than reading the list route", async () => {
    await expect(paysvc.customers.get("")).rejects.toThrow(TypeError);
  });

  test("an idempotency key outside 1–255 printable ASCII is refused", async () => {
    await expect(
      paysvc.customers.create({ customerType: "INDIVIDUAL" }, { idempotencyKey: "é" }),
    ).rejects.toThrow(TypeError);
  });

  test("options are checked at construction", () => {
    expect(() => new PaysvcClient({ baseUrl: "127.0.0.1", clientId: "a", clientSecret: "b" })).toThrow(
      TypeError,
    );
    expect(
      () => new PaysvcClient({ baseUrl: "http://x", clientId: "a", clientSecret: "b", maxRetries: -1 }),
    ).toThrow(TypeError);
  });
});
