import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type CreateCustomerBody,
  NotFoundError,
  PaysvcClient,
  PaysvcError,
  PermissionError,
} from "../src/index.js";

let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer();
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...server.platform });
});
afterAll(() => server.close());

/** The rejection of a call that must fail. */
async function failure(call: Promise<unknown>): Promise<PaysvcError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaysvcError);
  return error as PaysvcError;
}

describe("errors are typed by status and carry code, reason and request id", () => {
  test("wrong secret → AuthenticationError UNAUTHORIZED with the request id", async () => {
    const wrong = new PaysvcClient({
      baseUrl: server.baseUrl,
      clientId: server.platform.clientId,
      clientSecret: "nope",
    });
    const error = await failure(wrong.customers.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED", name: "AuthenticationError" });
    expect(error.reason).toEqual(expect.any(String));
    expect(error.requestId).toMatch(/^req_/);
  });

  test("invalid body → BadRequestError INVALID_INPUT with one fieldError per bad field", async () => {
    const body = { customerType: "ROBOT", email: "not-an-email", region: "XX", colour: "blue" };
    const error = await failure(paysvc.customers.create(body as unknown as CreateCustomerBody));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.fieldErrors.map((e) => e.field).sort()).toEqual([
      "colour",
      "customerType",
      "email",
      "region",
    ]);
    for (const fieldError of error.fieldErrors) expect(fieldError.message).toEqual(expect.any(String));
    expect(error.requestId).toMatch(/^req_/);
  });

  test("fieldErrors is empty for errors without details.errors", async () => {
    const error = await failure(paysvc.customers.get("Customer:00000000-0000-4000-8000-000000000000"));
    expect(error.fieldErrors).toEqual([]);
  });

  test.each([
    ["a well-formed unknown id", "Customer:0199a0a0-0000-7000-8000-000000000abc"],
    ["a malformed id", "not-a-customer"],
    ["another type's id", "Token:0199a0a0-0000-7000-8000-000000000abc"],
  ])("unknown customer (%s) → NotFoundError CUSTOMER_NOT_FOUND", async (_label, id) => {
    const error = await failure(paysvc.customers.get(id));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: "CUSTOMER_NOT_FOUND" });
  });

  test("duplicate platformCustomerId → ConflictError CONFLICT", async () => {
    await paysvc.customers.create({ customerType: "INDIVIDUAL", platformCustomerId: "dup-1" });
    const error = await failure(
      paysvc.customers.create({ customerType: "INDIVIDUAL", platformCustomerId: "dup-1" }),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: "CONFLICT" });
  });

  test("a VIEW-only token writing → PermissionError FORBIDDEN", async () => {
    const token = await paysvc.tokens.create({ name: "read only", permissions: ["VIEW"] });
    const viewer = new PaysvcClient({ baseUrl: server.baseUrl, ...token });
    await expect(viewer.customers.list()).resolves.toMatchObject({ data: expect.any(Array) });
    const error = await failure(viewer.customers.create({ customerType: "INDIVIDUAL" }));
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ status: 403, code: "FORBIDDEN" });
  });

  test("a 4xx answer is not retried", async () => {
    let calls = 0;
    const counting = new PaysvcClient({
      baseUrl: server.baseUrl,
      ...server.platform,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    await failure(counting.customers.get("Customer:0199a0a0-0000-7000-8000-000000000abc"));
    expect(calls).toBe(1);
  });
});
