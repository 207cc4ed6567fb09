import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OtpMessage } from "../../src/core/otp-sender.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { advanceBy, type ErrorBody, platformClient, scaCustomer } from "./helpers.js";

// Contact verification in the hosted API's operations (issue 21 item 1): POST /customers/{customerId}/
// verify-email and /verify-phone send a code (204, no body); .../confirm {code} proves the value (200 Customer).

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type ContactStatus = "PENDING" | "VERIFIED";
type Customer = {
  id: string;
  email?: string;
  phoneNumber?: string;
  contactVerification?: { email?: ContactStatus; phone?: ContactStatus };
};

const OTP = "000000";
const send = (client: TestClient, customerId: string, what: "email" | "phone") =>
  client.post<ErrorBody>(`/customers/${customerId}/verify-${what}`);
const confirm = (client: TestClient, customerId: string, what: "email" | "phone", code: unknown = OTP) =>
  client.post<Customer & ErrorBody>(`/customers/${customerId}/verify-${what}/confirm`, { code });
const customerOf = async (client: TestClient, customerId: string) =>
  (await client.get<Customer>(`/customers/${customerId}`)).body;

describe("contact verification (SCA regions): send → 204, confirm → 200 Customer", () => {
  test("a customer in an SCA region shows contactVerification: its email and phone PENDING until proven", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    expect((await customerOf(client, customerId)).contactVerification).toEqual({
      email: "PENDING",
      phone: "PENDING",
    });
  });

  test("POST /customers/{customerId}/verify-email answers 204 with no body", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const sent = await send(client, customerId, "email");
    expect(sent.status).toBe(204);
    expect(sent.text).toBe("");
  });

  test("confirming the e-mail with its code answers 200 Customer with email VERIFIED; the phone stays PENDING", async () => {
    const client = await platformClient(server);
    const email = `cv-${crypto.randomUUID()}@example.com`;
    const { customerId } = await scaCustomer(client, { email, funds: 0 });
    expect((await send(client, customerId, "email")).status).toBe(204);
    const done = await confirm(client, customerId, "email");
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      id: customerId,
      email,
      contactVerification: { email: "VERIFIED", phone: "PENDING" },
    });
    expect(await customerOf(client, customerId)).toEqual(done.body);
  });

  test("confirming the phone with its code marks the phone VERIFIED", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    expect((await send(client, customerId, "phone")).status).toBe(204);
    const done = await confirm(client, customerId, "phone");
    expect(done.status).toBe(200);
    expect(done.body.contactVerification).toEqual({ email: "PENDING", phone: "VERIFIED" });
  });

  test("the customer list shows the same contactVerification", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await send(client, customerId, "email");
    await confirm(client, customerId, "email");
    const list = await client.get<{ data: Customer[] }>("/customers?limit=100");
    expect(list.body.data.find((c) => c.id === customerId)?.contactVerification).toEqual({
      email: "VERIFIED",
      phone: "PENDING",
    });
  });

  test("a changed phone number reads PENDING again", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await send(client, customerId, "phone");
    expect((await confirm(client, customerId, "phone")).body.contactVerification?.phone).toBe("VERIFIED");
    const changed = await client.patch<Customer>(`/customers/${customerId}`, {
      phoneNumber: "+4915199999999",
    });
    expect(changed.status).toBe(200);
    expect(changed.body.contactVerification).toEqual({ email: "PENDING", phone: "PENDING" });
  });

  test("the code proves the value it was sent to: a phone number changed before the confirm stays PENDING", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await send(client, customerId, "phone");
    const changed = await client.patch(`/customers/${customerId}`, { phoneNumber: "+4915188888888" });
    expect(changed.status).toBe(200);
    const done = await confirm(client, customerId, "phone");
    expect(done.status).toBe(200);
    expect(done.body.contactVerification?.phone).toBe("PENDING");
  });

  test("only the contact values the customer has are listed", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0, phoneNumber: null });
    expect((await customerOf(client, customerId)).contactVerification).toEqual({ email: "PENDING" });
  });

  test("a wrong code is 400 INVALID_INPUT on code and nothing is verified", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await send(client, customerId, "email");
    const wrong = await confirm(client, customerId, "email", "123123");
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("INVALID_INPUT");
    expect(wrong.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
    expect((await customerOf(client, customerId)).contactVerification?.email).toBe("PENDING");
    // The code stays open after a wrong try: the right one still proves the e-mail.
    expect((await confirm(client, customerId, "email")).body.contactVerification?.email).toBe("VERIFIED");
  });

  test("five wrong codes in a row lock the customer: 423 ACCOUNT_LOCKED, and the right code is refused while locked", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await send(client, customerId, "phone");
    for (let i = 0; i < 4; i++)
      expect((await confirm(client, customerId, "phone", "123123")).status).toBe(400);
    const fifth = await confirm(client, customerId, "phone", "123123");
    expect(fifth.status).toBe(423);
    expect(fifth.body.code).toBe("ACCOUNT_LOCKED");
    await send(client, customerId, "phone");
    const locked = await confirm(client, customerId, "phone");
    expect(locked.status).toBe(423);
    expect(locked.body.code).toBe("ACCOUNT_LOCKED");
  });

  test("a code is good for 5 minutes: a confirm after that is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await send(client, customerId, "email");
    await advanceBy(client, 5 * 60_000 + 1_000);
    const late = await confirm(client, customerId, "email");
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: "CONFLICT", reason: expect.stringMatching(/expired/) });
    expect((await customerOf(client, customerId)).contactVerification?.email).toBe("PENDING");
  });

  test("a code confirms once: confirming again is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await send(client, customerId, "email");
    expect((await confirm(client, customerId, "email")).status).toBe(200);
    const again = await confirm(client, customerId, "email");
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CONFLICT");
  });

  test("confirming with nothing sent is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const res = await confirm(client, customerId, "email");
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT", reason: expect.stringMatching(/verify-email/) });
  });

  test("the e-mail and the phone are separate: a code sent to the phone does not confirm the e-mail", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    await send(client, customerId, "phone");
    expect((await confirm(client, customerId, "email")).status).toBe(409);
    expect((await confirm(client, customerId, "phone")).status).toBe(200);
  });

  test("sending to a phone the customer does not have is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0, phoneNumber: null });
    const res = await send(client, customerId, "phone");
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT", reason: expect.stringMatching(/phoneNumber/) });
  });

  test("sending for a deleted customer is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    expect((await client.delete(`/customers/${customerId}`)).status).toBeLessThan(300);
    const res = await send(client, customerId, "email");
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });

  test("a send takes an empty JSON object as well as no body", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    expect((await client.post(`/customers/${customerId}/verify-email`, {})).status).toBe(204);
    expect((await confirm(client, customerId, "email")).status).toBe(200);
  });

  test("a send replayed with its Idempotency-Key answers the same 204", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const headers = { "idempotency-key": `cv-${crypto.randomUUID()}` };
    const first = await client.post(`/customers/${customerId}/verify-phone`, undefined, { headers });
    const replay = await client.post(`/customers/${customerId}/verify-phone`, undefined, { headers });
    expect([first.status, replay.status]).toEqual([204, 204]);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });

  test("the invented /contact-verification paths are gone: 404 NOT_FOUND", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const res = await client.post<ErrorBody>("/contact-verification", { customerId, channel: "EMAIL" });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("NOT_FOUND");
  });
});

describe("contact verification: bad input is 400 INVALID_INPUT with one FieldError per field", () => {
  const cases: [string, string, unknown, string[]][] = [
    ["confirm without code", "verify-email/confirm", {}, ["code"]],
    ["confirm with a code of 2 digits", "verify-phone/confirm", { code: "12" }, ["code"]],
    ["confirm with a code that is not a string", "verify-email/confirm", { code: 123456 }, ["code"]],
    ["confirm with letters in the code", "verify-phone/confirm", { code: "12a456" }, ["code"]],
    [
      "confirm with an unknown field",
      "verify-email/confirm",
      { code: OTP, requestId: "Request:x" },
      ["requestId"],
    ],
    ["send with a field (it takes none)", "verify-email", { channel: "EMAIL" }, ["channel"]],
    [
      "send with two fields",
      "verify-phone",
      { channel: "PHONE", customerId: "x" },
      ["channel", "customerId"],
    ],
  ];
  test.each(cases)("%s", async (_name, path, body, fields) => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const res = await client.post<ErrorBody>(`/customers/${customerId}/${path}`, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field).sort()).toEqual(fields);
  });

  test.each(["verify-email", "verify-email/confirm", "verify-phone", "verify-phone/confirm"])(
    "POST …/%s with a body that is not a JSON object is 400 INVALID_REQUEST_FORMAT",
    async (path) => {
      const client = await platformClient(server);
      const { customerId } = await scaCustomer(client, { funds: 0 });
      const res = await client.post<ErrorBody>(`/customers/${customerId}/${path}`, undefined, {
        rawBody: "[1,",
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_REQUEST_FORMAT");
    },
  );

  test("the body is checked before the customer: a bad body for an unknown customer is 400", async () => {
    const client = await platformClient(server);
    const res = await client.post<ErrorBody>(
      "/customers/Customer:00000000-0000-4000-8000-000000000000/verify-email/confirm",
      { code: "x" },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
  });
});

describe("contact verification: unknown, malformed and other platforms' customers are 404 CUSTOMER_NOT_FOUND", () => {
  const operations: [string, unknown][] = [
    ["verify-email", undefined],
    ["verify-email/confirm", { code: OTP }],
    ["verify-phone", undefined],
    ["verify-phone/confirm", { code: OTP }],
  ];
  test.each(operations)("POST /customers/{customerId}/%s", async (path, body) => {
    const client = await platformClient(server);
    const other = await platformClient(server);
    const foreign = (await scaCustomer(other, { funds: 0 })).customerId;
    await send(other, foreign, "email");
    await send(other, foreign, "phone");
    const ids = ["Customer:00000000-0000-4000-8000-000000000000", "Customer:nope", "nope", foreign];
    for (const id of ids) {
      const res = await client.post<ErrorBody>(`/customers/${encodeURIComponent(id)}/${path}`, body);
      expect(res.status, id).toBe(404);
      expect(res.body.code).toBe("CUSTOMER_NOT_FOUND");
    }
    // The other platform's verification is untouched.
    expect((await customerOf(other, foreign)).contactVerification).toEqual({
      email: "PENDING",
      phone: "PENDING",
    });
  });
});

describe("contact verification on a production platform (codes are random and delivered)", () => {
  let production: TestServer;
  const sent: OtpMessage[] = [];
  beforeAll(async () => {
    production = await startServer({ otpSender: { send: async (message) => void sent.push(message) } });
  });
  afterAll(() => production?.close());

  async function productionCustomer() {
    const client = production.client.as(await production.newPlatform("PRODUCTION"));
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const customer = await customerOf(client, customerId);
    return { client, customerId, email: customer.email ?? "", phone: customer.phoneNumber ?? "" };
  }
  const lastTo = (to: string) => sent.filter((m) => m.to === to).at(-1);

  test("the code goes by e-mail to the customer's email and by SMS to its phoneNumber", async () => {
    const { client, customerId, email, phone } = await productionCustomer();
    expect((await send(client, customerId, "email")).status).toBe(204);
    expect((await send(client, customerId, "phone")).status).toBe(204);
    expect(lastTo(email)).toMatchObject({
      channel: "EMAIL",
      accountId: customerId,
      code: expect.stringMatching(/^\d{6}$/),
    });
    const sms = lastTo(phone);
    expect(sms).toMatchObject({ channel: "SMS", accountId: customerId });
    const done = await confirm(client, customerId, "phone", sms?.code);
    expect(done.body.contactVerification).toEqual({ email: "PENDING", phone: "VERIFIED" });
  });

  test("a new send replaces the open code: the older code no longer confirms", async () => {
    const { client, customerId, email } = await productionCustomer();
    await send(client, customerId, "email");
    const first = lastTo(email)?.code;
    let second = first;
    // Codes are random: send until the new one differs (once, all but one time in a million).
    while (second === first) {
      await send(client, customerId, "email");
      second = lastTo(email)?.code;
    }
    const old = await confirm(client, customerId, "email", first);
    expect(old.status).toBe(400);
    expect(old.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
    expect((await confirm(client, customerId, "email", second)).body.contactVerification?.email).toBe(
      "VERIFIED",
    );
  });
});
