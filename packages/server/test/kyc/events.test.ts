import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Db } from "../../src/core/db/db.js";
import { submitVerification } from "../../src/kyc/verifications.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";

let server: TestServer;
let client: TestClient;
let skip: TestClient;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
  skip = client.as(await server.newPlatform());
  expect((await skip.patch("/config", { sandboxSkipVerificationPaperwork: true })).status).toBe(200);
});
afterAll(() => server.close());

const address = { line1: "1 Main St", city: "Austin", postalCode: "78701", country: "US" };
const pdf = Buffer.from("%PDF-1.7 test").toString("base64");
const individual = (fullName: string) => ({
  customerType: "INDIVIDUAL",
  fullName,
  birthDate: "1990-01-31",
  nationality: "US",
  address,
});
const business = (registrationNumber: string) => ({
  customerType: "BUSINESS",
  businessInfo: {
    legalName: "Acme LLC",
    registrationNumber,
    country: "US",
    incorporatedOn: "2018-03-14",
    taxId: "47",
  },
  address,
});
const owner = (customerId: string) => ({
  customerId,
  roles: ["UBO"],
  ownershipPercentage: 100,
  personalInfo: {
    firstName: "Ann",
    lastName: "Smith",
    birthDate: "1980-02-29",
    nationality: "US",
    address,
    idType: "SSN",
    identifier: "123-45-6789",
  },
});

interface Envelope {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The events whose body mentions the id, oldest first (each envelope's type matches the row's type). */
async function eventsFor(id: string): Promise<Envelope[]> {
  const rows = await server.db.query<{ type: string; body: string }>(
    "SELECT type, body FROM webhook_events WHERE body LIKE $1 ORDER BY created_at, id",
    [`%${id}%`],
  );
  return rows.map((row) => {
    const envelope = JSON.parse(row.body) as Envelope;
    expect(envelope.type).toBe(row.type);
    return envelope;
  });
}

async function createCustomer(c: TestClient, body: Record<string, unknown>) {
  const res = await c.post<{ id: string }>("/customers", body);
  expect(res.status).toBe(201);
  if (body.customerType === "BUSINESS")
    expect((await c.post("/beneficial-owners", owner(res.body.id))).status).toBe(201);
  return res.body;
}

async function completeCustomer(c: TestClient, body: Record<string, unknown>) {
  const customer = await createCustomer(c, body);
  const documentType = body.customerType === "INDIVIDUAL" ? "PASSPORT" : "CERTIFICATE_OF_INCORPORATION";
  const res = await c.post("/documents", {
    customerId: customer.id,
    documentType,
    fileName: "d.pdf",
    content: pdf,
  });
  expect(res.status).toBe(201);
  return customer;
}

async function submit(c: TestClient, customerId: string) {
  const res = await c.post<{ id: string; verificationStatus: string }>("/verifications", { customerId });
  expect(res.status).toBe(200);
  return res.body;
}

const types = (events: Envelope[]) => events.map((event) => event.type);

describe("kycStatus changes fire CUSTOMER.KYC_* / KYB_* with the post-change Customer", () => {
  test.each([
    { kind: "INDIVIDUAL", body: individual("Jane Doe 457"), type: "CUSTOMER.KYC_APPROVED", kyc: "APPROVED" },
    { kind: "INDIVIDUAL", body: individual("Jane Doe 002"), type: "CUSTOMER.KYC_REJECTED", kyc: "REJECTED" },
    { kind: "INDIVIDUAL", body: individual("Jane Doe 001"), type: "CUSTOMER.KYC_PENDING", kyc: "PENDING" },
    { kind: "BUSINESS", body: business("RN-457"), type: "CUSTOMER.KYB_APPROVED", kyc: "APPROVED" },
    { kind: "BUSINESS", body: business("RN-002"), type: "CUSTOMER.KYB_REJECTED", kyc: "REJECTED" },
    { kind: "BUSINESS", body: business("RN-001"), type: "CUSTOMER.KYB_PENDING", kyc: "PENDING" },
  ])("$kind customer moving to $kyc fires $type", async ({ body, type, kyc }) => {
    const customer = await completeCustomer(client, body);
    await submit(client, customer.id);
    const events = (await eventsFor(customer.id)).filter((event) => event.type.startsWith("CUSTOMER."));
    expect(types(events)).toEqual([type]);
    const current = (await client.get(`/customers/${customer.id}`)).body;
    expect(current.kycStatus).toBe(kyc);
    expect(events[0]?.data).toEqual(current);
    expect(events[0]?.timestamp).toBe(current.updatedAt);
  });
});

describe("no CUSTOMER event when the status does not change", () => {
  test("resubmission of a terminal customer fires only its VERIFICATION event", async () => {
    const customer = await completeCustomer(client, individual("Jane Doe 457"));
    await submit(client, customer.id);
    expect((await client.patch(`/customers/${customer.id}`, { fullName: "Jane Doe 002" })).status).toBe(200);
    await submit(client, customer.id);
    expect(types(await eventsFor(customer.id))).toEqual([
      "VERIFICATION.APPROVED",
      "CUSTOMER.KYC_APPROVED",
      "VERIFICATION.APPROVED",
    ]);
  });

  test("an incomplete packet fires only VERIFICATION.RESOLVE_ERRORS", async () => {
    const customer = await createCustomer(client, { customerType: "INDIVIDUAL", fullName: "Jane Doe 457" });
    await submit(client, customer.id);
    expect(types(await eventsFor(customer.id))).toEqual(["VERIFICATION.RESOLVE_ERRORS"]);
  });

  test("creating an UNVERIFIED customer fires nothing", async () => {
    const customer = await createCustomer(client, individual("Jane Doe 457"));
    expect(await eventsFor(customer.id)).toEqual([]);
  });
});

describe("every verification created fires VERIFICATION.<status> with the Verification", () => {
  test.each([
    { name: "Jane Doe 457", status: "APPROVED" },
    { name: "Jane Doe 002", status: "REJECTED" },
    { name: "Jane Doe 001", status: "PENDING_MANUAL_REVIEW" },
  ])("complete packet for $name fires VERIFICATION.$status", async ({ name, status }) => {
    const customer = await completeCustomer(client, individual(name));
    const verification = await submit(client, customer.id);
    const [event] = (await eventsFor(verification.id)).filter((e) => e.type.startsWith("VERIFICATION."));
    expect(event?.type).toBe(`VERIFICATION.${status}`);
    expect(event?.data).toEqual((await client.get(`/verifications/${verification.id}`)).body);
  });

  test("incomplete packet fires VERIFICATION.RESOLVE_ERRORS with its errors", async () => {
    const customer = await createCustomer(client, { customerType: "BUSINESS" });
    const verification = await submit(client, customer.id);
    const events = await eventsFor(verification.id);
    expect(types(events)).toEqual(["VERIFICATION.RESOLVE_ERRORS"]);
    expect(events[0]?.data).toEqual(verification);
    expect(verification).toMatchObject({ errors: expect.arrayContaining([expect.anything()]) });
  });
});

describe("skip-paperwork", () => {
  test.each([
    { name: "Jane Doe 457", type: "CUSTOMER.KYC_APPROVED" },
    { name: "Jane Doe 002", type: "CUSTOMER.KYC_REJECTED" },
  ])("individual created already resolved ($name) fires $type at create", async ({ name, type }) => {
    const customer = await createCustomer(skip, { customerType: "INDIVIDUAL", fullName: name });
    const events = await eventsFor(customer.id);
    expect(types(events)).toEqual([type]);
    expect(events[0]?.data).toEqual((await skip.get(`/customers/${customer.id}`)).body);
  });

  test("individual with suffix 001 starts UNVERIFIED and fires nothing at create", async () => {
    const customer = await createCustomer(skip, { customerType: "INDIVIDUAL", fullName: "Jane Doe 001" });
    expect(await eventsFor(customer.id)).toEqual([]);
  });

  test("business first submission without paperwork fires VERIFICATION and CUSTOMER.KYB_APPROVED", async () => {
    const customer = await createCustomer(skip, business("RN-457"));
    await submit(skip, customer.id);
    expect(types(await eventsFor(customer.id))).toEqual(["VERIFICATION.APPROVED", "CUSTOMER.KYB_APPROVED"]);
  });
});

describe("events commit with the change or not at all", () => {
  test("a failing submission (deleted customer) writes no event", async () => {
    const customer = await completeCustomer(client, individual("Jane Doe 457"));
    expect((await client.delete(`/customers/${customer.id}`)).status).toBe(200);
    expect((await client.post("/verifications", { customerId: customer.id })).status).toBe(409);
    expect(await eventsFor(customer.id)).toEqual([]);
  });

  test("a submission rolled back after its events were enqueued writes no event and no status change", async () => {
    const customer = await completeCustomer(client, individual("Jane Doe 457"));
    const failing = {
      ...server.db,
      transaction: (fn: Parameters<Db["transaction"]>[0]) =>
        server.db.transaction(async (tx) => {
          await fn(tx);
          throw new Error("rolled back");
        }),
    } as Db;
    const caller = {
      platformId: server.platform.platformId,
      tokenId: server.platform.tokenId,
      permissions: [],
      environment: "SANDBOX",
      clockOffsetMs: 0,
    } as const;
    await expect(
      submitVerification({ ...server.deps, db: failing }, caller, { customerId: customer.id }),
    ).rejects.toThrow("rolled back");
    expect(await eventsFor(customer.id)).toEqual([]);
    expect((await client.get(`/customers/${customer.id}`)).body.kycStatus).toBe("UNVERIFIED");
  });
});
