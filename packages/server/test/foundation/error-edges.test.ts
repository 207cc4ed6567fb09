import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_BODY_DEPTH } from "../../src/core/http/input-walk.js";
import { startServer, type TestClient, type TestServer, testLogger } from "../harness.js";
import { connect, parseAnswer, sendAllThenRead } from "./raw-http.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const requestId = /^req_[0-9a-f]{32}$/;
const customerCount = async () =>
  (await server.client.get<{ totalCount: number }>("/customers")).body.totalCount;

/** POSTs raw bytes as application/json with the file's credentials. */
async function postBytes(path: string, body: Buffer) {
  const { clientId, clientSecret } = server.platform;
  const res = await fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: new Uint8Array(body),
  });
  return { status: res.status, requestId: res.headers.get("x-request-id"), body: await res.json() };
}

/** A POST /quotes body that passes validation, with `senderCustomerInfo` as given. */
const quoteWith = (senderCustomerInfo: string) =>
  `{"source":{"sourceType":"ACCOUNT","accountId":"InternalAccount:01a20df9-a2dc-7522-91ed-e6014c49c687"},` +
  `"destination":{"destinationType":"ACCOUNT","accountId":"InternalAccount:01a20df9-a2dc-7522-91ed-e6014c49c688"},` +
  `"lockedCurrencySide":"SENDING","lockedCurrencyAmount":100,"senderCustomerInfo":${senderCustomerInfo}}`;

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("the error contract at the edges (conventions §1.1, §1.3, §1.4; issue 15)", () => {
  test.each([
    ["/customers/%00", "CUSTOMER_NOT_FOUND"],
    ["/customers/Customer%3A%00", "CUSTOMER_NOT_FOUND"],
    ["/internal-accounts/%00", "ACCOUNT_NOT_FOUND"],
    ["/transactions/%00", "TRANSACTION_NOT_FOUND"],
    ["/quotes/%00", "QUOTE_NOT_FOUND"],
    ["/tokens/%00", "TOKEN_NOT_FOUND"],
    ["/cards/%00", "NOT_FOUND"],
  ])("a path id holding U+0000 (%s) gets the same 404 as a missing one: %s", async (path, code) => {
    const res = await server.client.get(path);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code });
    expect(Object.keys(res.body as object).sort()).toEqual(["code", "reason"]);
  });

  test.each([
    ["a lone continuation byte", [0x80]],
    ["an invalid byte", [0xff]],
    ["an overlong encoding of '/'", [0xc0, 0xaf]],
    ["an encoded UTF-16 surrogate", [0xed, 0xa0, 0x80]],
    ["a truncated sequence", [0xe2, 0x82]],
  ])(
    "a body that is not valid UTF-8 (%s) is 400 INVALID_REQUEST_FORMAT and nothing is stored",
    async (_name, bytes) => {
      const before = await customerCount();
      const body = Buffer.concat([
        Buffer.from('{"customerType":"INDIVIDUAL","fullName":"Ada'),
        Buffer.from(bytes),
        Buffer.from('"}'),
      ]);
      const res = await postBytes("/customers", body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "INVALID_REQUEST_FORMAT",
        reason: "The request body is not valid UTF-8.",
      });
      expect(res.requestId).toMatch(requestId);
      expect(await customerCount()).toBe(before);
    },
  );

  test("members named __proto__ or constructor are unknown fields: 400 INVALID_INPUT, one FieldError each, nothing stored", async () => {
    const before = await customerCount();
    const res = await server.client.post("/customers", undefined, {
      rawBody:
        '{"customerType":"INDIVIDUAL","__proto__":{"fullName":"x"},"constructor":{"prototype":{"y":1}},"nickname":1}',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_INPUT",
      reason: "3 fields are invalid.",
      details: {
        errors: [
          { field: "__proto__", message: "is not a recognized field" },
          { field: "constructor", message: "is not a recognized field" },
          { field: "nickname", message: "is not a recognized field" },
        ],
      },
    });
    expect(await customerCount()).toBe(before);
  });

  test("members named __proto__ or constructor inside an open object are unknown fields too", async () => {
    const res = await server.client.post("/quotes", undefined, {
      rawBody: quoteWith('{"__proto__":{"admin":true},"constructor":1,"name":"Ada"}'),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_INPUT",
      reason: "2 fields are invalid.",
      details: {
        errors: [
          { field: "senderCustomerInfo.__proto__", message: "is not a recognized field" },
          { field: "senderCustomerInfo.constructor", message: "is not a recognized field" },
        ],
      },
    });
  });

  test.each([
    ["an open object 6,000 levels deep", "/quotes", quoteWith(nested(6_000)), "senderCustomerInfo"],
    [
      "arrays 10,000 levels deep in a string field",
      "/customers",
      `{"customerType":"INDIVIDUAL","fullName":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
      "fullName",
    ],
  ])("%s is 400 INVALID_INPUT naming the member, never a 500", async (_name, path, rawBody, field) => {
    const res = await server.client.post(path, undefined, {
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    const message = `must not nest objects or arrays more than ${MAX_BODY_DEPTH} levels deep`;
    expect(res.body).toEqual({
      code: "INVALID_INPUT",
      reason: `Invalid ${field}: ${message}`,
      details: { errors: [{ field, message }] },
    });
  });

  test.each([
    ["Content-Length", "content-length"],
    ["chunked", "transfer-encoding"],
  ])(
    "an oversized body (%s) gets its 400 even when the client sends all of it before reading",
    async (_name, framing) => {
      const body = Buffer.alloc(10 * 1024 * 1024, "y");
      const auth = Buffer.from(`${server.platform.clientId}:${server.platform.clientSecret}`).toString(
        "base64",
      );
      const head = (length: string) =>
        `POST /2025-10-13/customers HTTP/1.1\r\nHost: paysvc\r\nAuthorization: Basic ${auth}\r\n` +
        `Content-Type: application/json\r\n${length}\r\n\r\n`;
      const request =
        framing === "content-length"
          ? [head(`Content-Length: ${body.length}`), body]
          : [head("Transfer-Encoding: chunked"), `${body.length.toString(16)}\r\n`, body, "\r\n0\r\n\r\n"];
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => sendAllThenRead(server.origin, request)),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(400);
        expect(answer.headers["x-request-id"]).toMatch(requestId);
        expect(JSON.parse(answer.body)).toEqual({
          code: "INVALID_REQUEST_FORMAT",
          reason: "The request body is too large.",
        });
      }
    },
  );

  test.each([
    [
      "a header block over 16 KB",
      `GET /2025-10-13/customers HTTP/1.1\r\nHost: paysvc\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`,
      "The request line and headers exceed 16 KB.",
    ],
    [
      "bytes that are not HTTP",
      "\u0016\u0003\u0001\u0000\u00a5 hello\r\n\r\n",
      "The request could not be parsed as HTTP.",
    ],
    [
      "Content-Length together with Transfer-Encoding",
      "POST /2025-10-13/customers HTTP/1.1\r\nHost: paysvc\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "The request's Transfer-Encoding is invalid or sent with Content-Length.",
    ],
    [
      "a path that is not valid percent-encoding",
      "GET /2025-10-13/customers/%E0%A4%A HTTP/1.1\r\nHost: paysvc\r\n\r\n",
      "The request path is not valid percent-encoding.",
    ],
  ])("a parser-level 400 (%s) has the catalogue body and an X-Request-Id", async (_name, request, reason) => {
    const answer = await sendAllThenRead(server.origin, [Buffer.from(request, "latin1")]);
    expect(answer.status).toBe(400);
    expect(answer.headers["x-request-id"]).toMatch(requestId);
    expect(answer.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(answer.body)).toEqual({ code: "INVALID_REQUEST_FORMAT", reason });
  });

  test("a credit that would take a balance past 9,000,000,000,000,000 is 400 AMOUNT_OUT_OF_RANGE and writes nothing", async () => {
    const { accountId, externalId } = await customerWithBankAccount(server.client);
    const credit = { source: { accountId: externalId }, destination: { accountId }, amount: 9e15 };
    expect((await server.client.post("/transfer-in", credit)).status).toBe(201);
    const written = async () =>
      server.db.query<{ n: string }>(
        `SELECT (SELECT count(*) FROM transactions WHERE account_id = $1)::text || '/' ||
                (SELECT count(*) FROM balance_changes WHERE account_id = $1)::text AS n`,
        [accountId],
      );
    const before = await written();
    const res = await server.client.post("/transfer-in", { ...credit, amount: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "AMOUNT_OUT_OF_RANGE",
      reason: `The posting would take account ${accountId}'s balance past 9000000000000000 minor units, the largest amount.`,
    });
    expect(await written()).toEqual(before);
    const account = await server.client.get<{ totalBalance: { amount: number } }>(
      `/internal-accounts/${accountId}`,
    );
    expect(account.body.totalBalance.amount).toBe(9e15);
  });
});

describe("requests during the shutdown drain (issue 15)", () => {
  test("a request arriving while the service drains is 503 SERVICE_UNAVAILABLE in the catalogue's body, with Retry-After and X-Request-Id; the one in flight completes", async () => {
    // An app of its own (a logger makes one): this test closes it.
    const draining = await startServer({ logger: testLogger() });
    const { socket, answers } = await connect(draining.origin);
    const auth = Buffer.from(`${draining.platform.clientId}:${draining.platform.clientSecret}`).toString(
      "base64",
    );
    const body = JSON.stringify({ customerType: "INDIVIDUAL" });
    const head = (length: number) =>
      `POST /2025-10-13/customers HTTP/1.1\r\nHost: paysvc\r\nAuthorization: Basic ${auth}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    // In flight: headers received, body still to come.
    const received = new Promise((resolve) => draining.app.server.once("request", resolve));
    socket.write(head(body.length));
    await received;
    const closing = draining.close();
    while (draining.app.server.listening) await new Promise((resolve) => setImmediate(resolve));
    // The first request's body, then a second request on the same connection.
    socket.write(`${body}${head(body.length)}${body}`);
    const text = await answers(2);
    socket.destroy();
    await closing;
    const first = parseAnswer(text);
    const second = parseAnswer(text.slice(text.indexOf("HTTP/1.1", 1)));
    expect(first.status).toBe(201);
    expect(second.status).toBe(503);
    expect(second.headers["retry-after"]).toBe("5");
    expect(second.headers.connection).toBe("close");
    expect(second.headers["x-request-id"]).toMatch(requestId);
    expect(JSON.parse(second.body)).toEqual({
      code: "SERVICE_UNAVAILABLE",
      reason: "The service is shutting down; retry after the Retry-After interval.",
    });
  });
});

/** A customer with the end-user terms accepted, its USD account and a USD bank account. */
async function customerWithBankAccount(client: TestClient) {
  const terms = await client.get<{ version: string }>("/customers/end-user-terms");
  const customer = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    agreementConsents: [
      {
        type: "SERVICE_END_USER_TERMS",
        termsVersion: terms.body.version,
        acceptedAt: "2026-01-01T00:00:00Z",
        ipAddress: "203.0.113.10",
      },
    ],
  });
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&currency=USD&type=INTERNAL_FIAT`,
  );
  const external = await client.post<{ id: string }>("/customers/external-accounts", {
    customerId: customer.body.id,
    currency: "USD",
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: "1234567000",
      routingNumber: "021000021",
      bankAccountType: "CHECKING",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" },
    },
  });
  expect(external.status).toBe(201);
  return { accountId: accounts.body.data[0]?.id as string, externalId: external.body.id };
}
