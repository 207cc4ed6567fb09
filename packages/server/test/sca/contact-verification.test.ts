import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { type ErrorBody, platformClient, type ScaChallenge, scaCustomer } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Status = {
  customerId: string;
  email?: string;
  emailVerified: boolean;
  emailVerifiedAt?: string;
  phoneNumber?: string;
  phoneVerified: boolean;
  phoneVerifiedAt?: string;
};

describe("contact verification (SCA regions)", () => {
  test("verifying the e-mail with its OTP marks that e-mail verified; the phone stays unverified", async () => {
    const client = await platformClient(server);
    const email = `cv-${crypto.randomUUID()}@example.com`;
    const { customerId } = await scaCustomer(client, { email, funds: 0 });
    const before = await client.get<Status>(`/contact-verification/${customerId}`);
    expect(before.body).toEqual({
      customerId,
      email,
      emailVerified: false,
      phoneNumber: "+4915112345678",
      phoneVerified: false,
    });
    const started = await client.post<ScaChallenge>("/contact-verification", {
      customerId,
      channel: "EMAIL",
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ customerId, purpose: "CONTACT_EMAIL", factor: "OTP" });
    const done = await client.post<Status>("/contact-verification/complete", {
      requestId: started.body.requestId,
      code: "000000",
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ email, emailVerified: true, phoneVerified: false });
    expect(done.body.emailVerifiedAt).toBeDefined();
    expect((await client.get<Status>(`/contact-verification/${customerId}`)).body.emailVerified).toBe(true);
  });

  test("verifying the phone with its OTP marks the phone verified", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await client.post<ScaChallenge>("/contact-verification", {
      customerId,
      channel: "PHONE",
    });
    expect(started.body.purpose).toBe("CONTACT_PHONE");
    const done = await client.post<Status>("/contact-verification/complete", {
      requestId: started.body.requestId,
      code: "000000",
    });
    expect(done.body).toMatchObject({ phoneVerified: true, emailVerified: false });
  });

  test("a changed phone number is unverified again", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await client.post<ScaChallenge>("/contact-verification", {
      customerId,
      channel: "PHONE",
    });
    await client.post("/contact-verification/complete", {
      requestId: started.body.requestId,
      code: "000000",
    });
    expect((await client.get<Status>(`/contact-verification/${customerId}`)).body.phoneVerified).toBe(true);
    const changed = await client.patch(`/customers/${customerId}`, { phoneNumber: "+4915199999999" });
    expect(changed.status).toBe(200);
    const after = await client.get<Status>(`/contact-verification/${customerId}`);
    expect(after.body).toMatchObject({ phoneNumber: "+4915199999999", phoneVerified: false });
    expect(after.body.phoneVerifiedAt).toBeUndefined();
  });

  test("a wrong code is 400 INVALID_INPUT on code and nothing is verified", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const started = await client.post<ScaChallenge>("/contact-verification", {
      customerId,
      channel: "EMAIL",
    });
    const wrong = await client.post<ErrorBody>("/contact-verification/complete", {
      requestId: started.body.requestId,
      code: "123123",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
    expect((await client.get<Status>(`/contact-verification/${customerId}`)).body.emailVerified).toBe(false);
  });

  test("verifying a phone the customer does not have is 409 CONFLICT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0, phoneNumber: null });
    const res = await client.post<ErrorBody>("/contact-verification", { customerId, channel: "PHONE" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
  });

  test("a login challenge's requestId is not a contact verification: 404 REQUEST_NOT_FOUND", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const login = await client.post<ScaChallenge>("/sca/login", { customerId });
    const res = await client.post<ErrorBody>("/contact-verification/complete", {
      requestId: login.body.requestId,
      code: "000000",
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("REQUEST_NOT_FOUND");
  });

  test("an unknown channel or a malformed code is 400 INVALID_INPUT", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client, { funds: 0 });
    const channel = await client.post<ErrorBody>("/contact-verification", { customerId, channel: "FAX" });
    expect(channel.status).toBe(400);
    const code = await client.post<ErrorBody>("/contact-verification/complete", {
      requestId: "Request:x",
      code: "12",
    });
    expect(code.status).toBe(400);
    expect(code.body.details?.errors).toEqual([expect.objectContaining({ field: "code" })]);
  });
});
