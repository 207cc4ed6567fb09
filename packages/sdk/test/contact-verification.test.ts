import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  PaysvcClient,
  type PaysvcError,
} from "../src/index.js";
import { withEndUserTerms } from "./end-user-terms.js";

// Contact verification through the SDK (issue 21 item 1): the hosted API's four operations.

const OTP = "000000";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function platform(): Promise<PaysvcClient> {
  return new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
}

/** A customer with e-mail and phone, in Germany (an SCA region) unless told. */
async function customer(paysvc: PaysvcClient, region = "DE") {
  return paysvc.customers.create({
    customerType: "INDIVIDUAL",
    ...withEndUserTerms,
    region,
    email: `cv-${crypto.randomUUID()}@example.com`,
    phoneNumber: "+4915112345678",
  });
}

/** The error a call rejects with (a call that resolves fails the test). */
async function rejection(promise: Promise<unknown>): Promise<PaysvcError> {
  try {
    await promise;
  } catch (error) {
    return error as PaysvcError;
  }
  throw new Error("the call resolved; a rejection was expected");
}

describe("contact verification through the SDK", () => {
  test("sendEmailVerification resolves with the empty 204; confirmEmailVerification returns the Customer with email VERIFIED", async () => {
    const paysvc = await platform();
    const { id } = await customer(paysvc);
    const sent = await paysvc.sca.sendEmailVerification(id);
    expect(sent.lastResponse.status).toBe(204);
    expect(sent).toEqual({});
    const confirmed = await paysvc.sca.confirmEmailVerification(id, { code: OTP });
    expect(confirmed.lastResponse.status).toBe(200);
    expect(confirmed).toMatchObject({ id, contactVerification: { email: "VERIFIED", phone: "PENDING" } });
    expect(await paysvc.customers.get(id)).toEqual({ ...confirmed });
  });

  test("sendPhoneVerification and confirmPhoneVerification prove the phone", async () => {
    const paysvc = await platform();
    const { id, contactVerification } = await customer(paysvc);
    expect(contactVerification).toEqual({ email: "PENDING", phone: "PENDING" });
    expect((await paysvc.sca.sendPhoneVerification(id)).lastResponse.status).toBe(204);
    const confirmed = await paysvc.sca.confirmPhoneVerification(id, { code: OTP });
    expect(confirmed.contactVerification).toEqual({ email: "PENDING", phone: "VERIFIED" });
  });

  test("a wrong code is BadRequestError INVALID_INPUT naming the code field", async () => {
    const paysvc = await platform();
    const { id } = await customer(paysvc);
    await paysvc.sca.sendEmailVerification(id);
    const error = await rejection(paysvc.sca.confirmEmailVerification(id, { code: "123123" }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details).toEqual({ errors: [expect.objectContaining({ field: "code" })] });
  });

  test("confirming with no code sent is ConflictError CONFLICT", async () => {
    const paysvc = await platform();
    const { id } = await customer(paysvc);
    const error = await rejection(paysvc.sca.confirmPhoneVerification(id, { code: OTP }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe("CONFLICT");
  });

  test("a customer outside the regions that require contact verification is ConflictError CONFLICT", async () => {
    const paysvc = await platform();
    const { id, contactVerification } = await customer(paysvc, "US");
    expect(contactVerification).toBeUndefined();
    const error = await rejection(paysvc.sca.sendEmailVerification(id));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.reason).toMatch(/region/);
  });

  test("another platform's customer is NotFoundError CUSTOMER_NOT_FOUND", async () => {
    const paysvc = await platform();
    const { id } = await customer(await platform());
    const error = await rejection(paysvc.sca.sendPhoneVerification(id));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe("CUSTOMER_NOT_FOUND");
  });
});
