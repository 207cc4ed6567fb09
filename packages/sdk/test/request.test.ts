import { afterEach, describe, expect, test } from "vitest";
import {
  ApiServerError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  PaysvcClient,
  type PaysvcClientOptions,
  PaysvcError,
  RateLimitError,
} from "../src/index.js";
import { type Answer, closedPort, type Peer, startPeer } from "./peer.js";

const credentials = { clientId: "0123456789abcdef0123456789abcdef", clientSecret: "s3cret:with/colon" };
const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const customer = { id: "Customer:0199a0a0-0000-7000-8000-000000000abc", customerType: "INDIVIDUAL" };

let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

async function clientFor(script: Answer[], options: Partial<PaysvcClientOptions> = {}) {
  peer = await startPeer(script);
  return { paysvc: new PaysvcClient({ baseUrl: peer.baseUrl, ...credentials, ...options }), peer };
}

async function failure(call: Promise<unknown>): Promise<PaysvcError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaysvcError);
  return error as PaysvcError;
}

describe("what every request sends", () => {
  test("HTTP Basic carries clientId:clientSecret, and ids are percent-encoded in the path", async () => {
    const { paysvc, peer } = await clientFor([{ status: 200, body: customer }]);
    await paysvc.customers.get(customer.id);
    const [request] = peer.requests;
    const expected = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64");
    expect(request?.headers.authorization).toBe(`Basic ${expected}`);
    expect(request?.url).toBe("/2025-10-13/customers/Customer%3A0199a0a0-0000-7000-8000-000000000abc");
  });

  test("every POST carries a fresh UUID v4 Idempotency-Key; GET, PATCH and DELETE carry none", async () => {
    const { paysvc, peer } = await clientFor([{ status: 201, body: customer }]);
    await paysvc.customers.create({ customerType: "INDIVIDUAL" });
    await paysvc.customers.create({ customerType: "INDIVIDUAL" });
    await paysvc.customers.get(customer.id);
    await paysvc.customers.update(customer.id, { fullName: "X" });
    const [first, second, get, patch] = peer.requests;
    expect(first?.headers["idempotency-key"]).toMatch(uuidV4);
    expect(second?.headers["idempotency-key"]).toMatch(uuidV4);
    expect(second?.headers["idempotency-key"]).not.toBe(first?.headers["idempotency-key"]);
    expect(get?.headers).not.toHaveProperty("idempotency-key");
    expect(patch?.headers).not.toHaveProperty("idempotency-key");
  });

  test("a caller's Idempotency-Key is sent as given", async () => {
    const { paysvc, peer } = await clientFor([{ status: 201, body: customer }]);
    await paysvc.customers.create({ customerType: "INDIVIDUAL" }, { idempotencyKey: "order-42" });
    expect(peer.requests[0]?.headers["idempotency-key"]).toBe("order-42");
  });

  test("a JSON body is sent with Content-Type application/json; a bodiless request has no Content-Type", async () => {
    const { paysvc, peer } = await clientFor([{ status: 201, body: customer }, { status: 204 }]);
    await paysvc.customers.create({ customerType: "BUSINESS" });
    await paysvc.customers.delete(customer.id);
    const [post, del] = peer.requests;
    expect(post?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(post?.body ?? "")).toEqual({ customerType: "BUSINESS" });
    expect(del?.headers).not.toHaveProperty("content-type");
    expect(del?.body).toBe("");
  });

  test("list filters go in the query string; undefined ones are left out", async () => {
    const { paysvc, peer } = await clientFor([
      { status: 200, body: { data: [], hasMore: false, totalCount: 0 } },
    ]);
    await paysvc.customers.list({ kycStatus: "APPROVED", limit: 5, cursor: undefined });
    expect(peer.requests[0]?.url).toBe("/2025-10-13/customers?kycStatus=APPROVED&limit=5");
  });
});

describe("retries: only when repeating is safe, with backoff or the server's Retry-After", () => {
  test("429 with Retry-After: 0 is retried once, then the 200 is returned", async () => {
    const { paysvc, peer } = await clientFor([
      { status: 429, headers: { "retry-after": "0" }, body: { code: "RATE_LIMITED", reason: "Slow down." } },
      { status: 200, body: customer },
    ]);
    const result = await paysvc.customers.get(customer.id);
    expect(result).toEqual(customer);
    expect(result.lastResponse.requestId).toBe("req_peer2");
    expect(peer.requests).toHaveLength(2);
  });

  test("409 NOT_YET_AVAILABLE with Retry-After is retried; another 409 is not", async () => {
    const notYet = { code: "NOT_YET_AVAILABLE", reason: "Later." };
    const { paysvc, peer } = await clientFor([
      { status: 409, headers: { "retry-after": "0" }, body: notYet },
      { status: 409, body: { code: "CONFLICT", reason: "Taken." } },
    ]);
    const error = await failure(paysvc.customers.get(customer.id));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe("CONFLICT");
    expect(peer.requests).toHaveLength(2);
  });

  test("a Retry-After beyond 60 s is not waited for: RateLimitError with retryAfterSeconds", async () => {
    const { paysvc, peer } = await clientFor([
      {
        status: 429,
        headers: { "retry-after": "3600" },
        body: { code: "DAILY_VOLUME_LIMIT_EXCEEDED", reason: "x" },
      },
    ]);
    const error = await failure(paysvc.customers.get(customer.id));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 3600, requestId: "req_peer1" });
    expect(peer.requests).toHaveLength(1);
  });

  test("a GET is retried on 503", async () => {
    const { paysvc, peer } = await clientFor([
      { status: 503, body: { code: "INTERNAL_ERROR", reason: "Down." } },
      { status: 200, body: customer },
    ]);
    await expect(paysvc.customers.get(customer.id)).resolves.toEqual(customer);
    expect(peer.requests).toHaveLength(2);
  });

  test("a POST is retried on 500 because it carries an idempotency key, and the retry reuses the key", async () => {
    const { paysvc, peer } = await clientFor([
      { status: 500, body: { code: "INTERNAL_ERROR", reason: "Oops." } },
      { status: 201, body: customer },
    ]);
    await expect(paysvc.customers.create({ customerType: "INDIVIDUAL" })).resolves.toEqual(customer);
    const [first, retry] = peer.requests;
    expect(retry?.headers["idempotency-key"]).toBe(first?.headers["idempotency-key"]);
    expect(retry?.body).toBe(first?.body);
  });

  test("a PATCH (no idempotency key) is not retried on 500", async () => {
    const { paysvc, peer } = await clientFor([
      { status: 500, body: { code: "INTERNAL_ERROR", reason: "Oops." } },
    ]);
    const error = await failure(paysvc.customers.update(customer.id, { fullName: "Y" }));
    expect(error).toBeInstanceOf(ApiServerError);
    expect(error).toMatchObject({ status: 500, code: "INTERNAL_ERROR", requestId: "req_peer1" });
    expect(peer.requests).toHaveLength(1);
  });

  test("maxRetries bounds the attempts: 1 + maxRetries, then the last error", async () => {
    const { paysvc, peer } = await clientFor(
      [{ status: 503, body: { code: "INTERNAL_ERROR", reason: "Down." } }],
      {
        maxRetries: 1,
      },
    );
    await expect(paysvc.config.get()).rejects.toBeInstanceOf(ApiServerError);
    expect(peer.requests).toHaveLength(2);
  });

  test("a 400 is never retried", async () => {
    const { paysvc, peer } = await clientFor([
      { status: 400, body: { code: "INVALID_INPUT", reason: "Bad." } },
    ]);
    await expect(paysvc.config.get()).rejects.toBeInstanceOf(BadRequestError);
    expect(peer.requests).toHaveLength(1);
  });

  test("a non-JSON error body keeps its status: HTTP_502 ApiServerError", async () => {
    const { paysvc } = await clientFor([{ status: 502, headers: { "content-type": "text/html" } }], {
      maxRetries: 0,
    });
    const error = await failure(paysvc.config.get());
    expect(error).toBeInstanceOf(ApiServerError);
    expect(error).toMatchObject({ status: 502, code: "HTTP_502" });
  });
});

describe("no response at all", () => {
  test("connection refused → ConnectionError after maxRetries retries", async () => {
    const port = await closedPort();
    let calls = 0;
    const paysvc = new PaysvcClient({
      baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
      ...credentials,
      maxRetries: 2,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    const error = await failure(paysvc.customers.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: "CONNECTION_ERROR", status: undefined, requestId: undefined });
    expect(error.cause).toBeDefined();
    expect(calls).toBe(3);
  });

  test("an answer slower than timeoutMs → ConnectionError TIMEOUT", async () => {
    const { paysvc, peer } = await clientFor([{ status: 200, body: customer, delayMs: 1_000 }], {
      timeoutMs: 100,
      maxRetries: 0,
    });
    const error = await failure(paysvc.customers.get(customer.id));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.code).toBe("TIMEOUT");
    expect(peer.requests).toHaveLength(1);
  });
});
