import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Verification } from "../../src/kyc/schemas.js";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";

/** The error body with its FieldErrors, as these tests read it. */
type ErrorBody = { code: string; reason: string; details: { errors: { field: string; message: string }[] } };

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
const idPattern = /^Verification:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const profile = (fullName: string) => ({ fullName, birthDate: "1990-01-31", nationality: "US", address });
const individual = (fullName: string) => ({ customerType: "INDIVIDUAL", ...profile(fullName) });
const businessInfo = (registrationNumber?: string) => ({
  legalName: "Acme LLC",
  country: "US",
  incorporatedOn: "2018-03-14",
  taxId: "47-1234567",
  ...(registrationNumber === undefined ? {} : { registrationNumber }),
});
/** A business whose profile is complete; its beneficial owners are added with `addOwner`. */
const business = (registrationNumber?: string) => ({
  customerType: "BUSINESS",
  businessInfo: businessInfo(registrationNumber),
  address,
});
const ownerBody = (customerId: string, lastName: string) => ({
  customerId,
  roles: ["UBO"],
  ownershipPercentage: 25,
  personalInfo: {
    firstName: "Ann",
    lastName,
    birthDate: "1980-02-29",
    nationality: "US",
    address,
    idType: "SSN",
    identifier: "123-45-6789",
  },
});

async function createCustomer(c: TestClient, body: Record<string, unknown>, ownerLastNames: string[] = []) {
  const res = await c.post<{ id: string; kycStatus: string; updatedAt: string }>("/customers", body);
  expect(res.status).toBe(201);
  for (const lastName of ownerLastNames) await addOwner(c, res.body.id, lastName);
  return res.body;
}

async function addOwner(c: TestClient, customerId: string, lastName: string) {
  const res = await c.post<{ id: string }>("/beneficial-owners", ownerBody(customerId, lastName));
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function upload(c: TestClient, customerId: string, documentType: string) {
  const res = await c.post("/documents", { customerId, documentType, fileName: "doc.pdf", content: pdf });
  expect(res.status).toBe(201);
}

/** A customer with a complete packet: profile fields plus the required document. */
async function completeCustomer(c: TestClient, body: Record<string, unknown>, ownerLastNames = ["Smith"]) {
  const customer = await createCustomer(c, body, body.customerType === "BUSINESS" ? ownerLastNames : []);
  const document = body.customerType === "INDIVIDUAL" ? "PASSPORT" : "CERTIFICATE_OF_INCORPORATION";
  await upload(c, customer.id, document);
  return customer;
}

async function submit(c: TestClient, customerId: string) {
  const res = await c.post<Verification>("/verifications", { customerId });
  expect(res.status).toBe(200);
  return res.body;
}

/** Submits and checks both the verification status and the customer's resulting kycStatus. */
async function expectOutcome(c: TestClient, customerId: string, status: string, kycStatus: string) {
  const verification = await submit(c, customerId);
  expect(verification.verificationStatus).toBe(status);
  expect((await c.get(`/customers/${customerId}`)).body.kycStatus).toBe(kycStatus);
  return verification;
}

const missing = (resourceId: string, field: string) => ({
  resourceId,
  type: "MISSING_FIELD",
  field,
  reason: `${field} is required for verification.`,
});

const suffixRows = [
  { suffix: "001", status: "PENDING_MANUAL_REVIEW", kycStatus: "PENDING" },
  { suffix: "002", status: "REJECTED", kycStatus: "REJECTED" },
  { suffix: "003", status: "APPROVED", kycStatus: "APPROVED" },
  { suffix: "457", status: "APPROVED", kycStatus: "APPROVED" },
];

describe("sandbox outcome of a complete packet", () => {
  test.each(suffixRows)("complete packet, fullName suffix $suffix -> $status", async (row) => {
    const customer = await completeCustomer(client, individual(`Jane Doe ${row.suffix}`));
    const verification = await expectOutcome(client, customer.id, row.status, row.kycStatus);
    expect(verification).toEqual({
      id: expect.stringMatching(idPattern),
      customerId: customer.id,
      verificationStatus: row.status,
      errors: [],
      createdAt: expect.any(String),
      updatedAt: verification.createdAt,
    });
  });

  test.each(suffixRows)("complete packet, registrationNumber suffix $suffix -> $status", async (row) => {
    const customer = await completeCustomer(client, business(`RN-${row.suffix}`));
    await expectOutcome(client, customer.id, row.status, row.kycStatus);
  });

  test.each(suffixRows)("complete packet, owner lastName suffix $suffix -> $status", async (row) => {
    const customer = await completeCustomer(client, business(), ["Jones", `Smith${row.suffix}`]);
    await expectOutcome(client, customer.id, row.status, row.kycStatus);
  });

  test("PRODUCTION platform: complete packet -> PENDING_MANUAL_REVIEW, kycStatus PENDING", async () => {
    const production = client.as(await server.newPlatform("PRODUCTION"));
    const customer = await completeCustomer(production, individual("Jane Doe 457"));
    await expectOutcome(production, customer.id, "PENDING_MANUAL_REVIEW", "PENDING");
  });
});

describe("incomplete packet", () => {
  test("incomplete individual packet -> RESOLVE_ERRORS per missing field and document; customer unchanged", async () => {
    const customer = await createCustomer(client, { customerType: "INDIVIDUAL", fullName: "Jane Doe 002" });
    await upload(client, customer.id, "PROOF_OF_ADDRESS");
    const verification = await expectOutcome(client, customer.id, "RESOLVE_ERRORS", "UNVERIFIED");
    expect(verification.errors).toEqual([
      missing(customer.id, "birthDate"),
      missing(customer.id, "nationality"),
      missing(customer.id, "address"),
      {
        resourceId: customer.id,
        type: "MISSING_IDENTITY_DOCUMENT",
        acceptedDocumentTypes: ["PASSPORT", "DRIVERS_LICENSE", "NATIONAL_ID"],
        reason: "One identity document (passport, driver's license or national id) is required.",
      },
    ]);
    expect((await client.get(`/customers/${customer.id}`)).body.updatedAt).toBe(customer.updatedAt);
  });

  test("incomplete business packet -> RESOLVE_ERRORS per missing businessInfo field, certificate and owner", async () => {
    const customer = await createCustomer(client, {
      customerType: "BUSINESS",
      businessInfo: { legalName: "A" },
    });
    const verification = await expectOutcome(client, customer.id, "RESOLVE_ERRORS", "UNVERIFIED");
    expect(verification.errors).toEqual([
      missing(customer.id, "businessInfo.country"),
      missing(customer.id, "businessInfo.incorporatedOn"),
      missing(customer.id, "businessInfo.taxId"),
      missing(customer.id, "address"),
      {
        resourceId: customer.id,
        type: "MISSING_LEGAL_PRESENCE_DOCUMENT",
        acceptedDocumentTypes: ["CERTIFICATE_OF_INCORPORATION"],
        reason: "A certificate of incorporation is required.",
      },
      {
        resourceId: customer.id,
        type: "MISSING_BENEFICIAL_OWNER",
        reason: "At least one beneficial owner (POST /beneficial-owners) is required for verification.",
      },
    ]);
  });

  test("business packet without a beneficial owner -> RESOLVE_ERRORS; adding one resolves by its lastName", async () => {
    const customer = await completeCustomer(client, business(), []);
    const verification = await expectOutcome(client, customer.id, "RESOLVE_ERRORS", "UNVERIFIED");
    expect(verification.errors.map((e) => e.type)).toEqual(["MISSING_BENEFICIAL_OWNER"]);
    await addOwner(client, customer.id, "Li002");
    await expectOutcome(client, customer.id, "REJECTED", "REJECTED");
  });

  test("a business's beneficial owners take its new status; one added later starts UNVERIFIED", async () => {
    const customer = await completeCustomer(client, business("RN-001"), ["Smith", "Jones"]);
    await expectOutcome(client, customer.id, "PENDING_MANUAL_REVIEW", "PENDING");
    const later = await addOwner(client, customer.id, "Brown");
    const owners = await client.get<{ data: { id: string; kycStatus: string }[] }>(
      `/beneficial-owners?customerId=${customer.id}`,
    );
    expect(owners.body.data.map((o) => o.kycStatus)).toEqual(["PENDING", "PENDING", "UNVERIFIED"]);
    expect(owners.body.data[2]?.id).toBe(later.id);
  });

  test("RESOLVE_ERRORS, then the missing fields and document are added -> resolves by suffix", async () => {
    const customer = await createCustomer(client, { customerType: "INDIVIDUAL", fullName: "Jane Doe 002" });
    await expectOutcome(client, customer.id, "RESOLVE_ERRORS", "UNVERIFIED");
    expect((await client.patch(`/customers/${customer.id}`, profile("Jane Doe 002"))).status).toBe(200);
    await upload(client, customer.id, "DRIVERS_LICENSE");
    await expectOutcome(client, customer.id, "REJECTED", "REJECTED");
  });
});

describe("terminal statuses are final", () => {
  test.each([
    { from: "APPROVED", suffix: "457", renamed: "Jane Doe 002" },
    { from: "REJECTED", suffix: "002", renamed: "Jane Doe 457" },
  ])("$from is not overwritten by rename + resubmission", async ({ from, suffix, renamed }) => {
    const customer = await completeCustomer(client, individual(`Jane Doe ${suffix}`));
    await expectOutcome(client, customer.id, from, from);
    const rename = await client.patch(`/customers/${customer.id}`, { fullName: renamed });
    expect(rename.body).toMatchObject({ fullName: renamed, kycStatus: from });
    expect(await submit(client, customer.id)).toMatchObject({
      customerId: customer.id,
      verificationStatus: from,
      errors: [],
    });
    expect((await client.get(`/customers/${customer.id}`)).body).toEqual(rename.body);
  });

  test("APPROVED business: renaming its owner to a 002 lastName and resubmitting changes nothing", async () => {
    const customer = await completeCustomer(client, business("RN-457"), ["Smith"]);
    await expectOutcome(client, customer.id, "APPROVED", "APPROVED");
    const owners = await client.get<{ data: { id: string }[] }>(
      `/beneficial-owners?customerId=${customer.id}`,
    );
    const ownerId = owners.body.data[0]?.id;
    const rename = await client.patch(`/beneficial-owners/${ownerId}`, {
      personalInfo: { lastName: "Li002" },
    });
    expect(rename.body).toMatchObject({ personalInfo: { lastName: "Li002" }, kycStatus: "APPROVED" });
    await expectOutcome(client, customer.id, "APPROVED", "APPROVED");
  });

  test("PENDING (suffix 001) stays PENDING on resubmission", async () => {
    const customer = await completeCustomer(client, individual("Jane Doe 001"));
    await expectOutcome(client, customer.id, "PENDING_MANUAL_REVIEW", "PENDING");
    await expectOutcome(client, customer.id, "PENDING_MANUAL_REVIEW", "PENDING");
  });

  test("concurrent submissions for one customer are serialized and all answered", async () => {
    const customer = await completeCustomer(client, individual("Jane Doe 457"));
    const post = () => client.post("/verifications", { customerId: customer.id });
    const results = await Promise.all([post(), post(), post()]);
    expect(results.map((r) => `${r.status} ${r.body.verificationStatus}`)).toEqual(
      Array(3).fill("200 APPROVED"),
    );
  });
});

describe("skip-paperwork (sandboxSkipVerificationPaperwork)", () => {
  test.each([
    { suffix: "001", kycStatus: "UNVERIFIED" },
    { suffix: "002", kycStatus: "REJECTED" },
    { suffix: "003", kycStatus: "UNVERIFIED" },
    { suffix: "457", kycStatus: "APPROVED" },
  ])("skip-paperwork, individual fullName suffix $suffix -> $kycStatus at create", async (row) => {
    const body = { customerType: "INDIVIDUAL", fullName: `Jane Doe ${row.suffix}` };
    expect((await createCustomer(skip, body)).kycStatus).toBe(row.kycStatus);
  });

  test.each([
    { suffix: "001", status: "PENDING_MANUAL_REVIEW", kycStatus: "PENDING" },
    { suffix: "003", status: "APPROVED", kycStatus: "APPROVED" },
  ])("skip-paperwork, individual suffix $suffix still needs a complete packet -> $status", async (row) => {
    const name = `Jane ${row.suffix}`;
    const customer = await createCustomer(skip, { customerType: "INDIVIDUAL", fullName: name });
    await expectOutcome(skip, customer.id, "RESOLVE_ERRORS", "UNVERIFIED");
    expect((await skip.patch(`/customers/${customer.id}`, profile(name))).status).toBe(200);
    await upload(skip, customer.id, "NATIONAL_ID");
    await expectOutcome(skip, customer.id, row.status, row.kycStatus);
  });

  const reg = (registrationNumber: string) => ({ businessInfo: { legalName: "Acme", registrationNumber } });
  test.each([
    { rule: "registrationNumber suffix 002", status: "REJECTED", fields: reg("RN-002"), owners: [] },
    { rule: "registrationNumber other suffix", status: "APPROVED", fields: reg("RN-457"), owners: [] },
    { rule: "owner lastName suffix 002", status: "REJECTED", fields: {}, owners: ["Li002"] },
    { rule: "owner lastName other suffix", status: "APPROVED", fields: {}, owners: ["Li457"] },
  ])("skip-paperwork, business first submission, $rule -> $status without documents", async (row) => {
    const customer = await createCustomer(skip, { customerType: "BUSINESS", ...row.fields }, row.owners);
    expect(customer.kycStatus).toBe("UNVERIFIED");
    const verification = await expectOutcome(skip, customer.id, row.status, row.status);
    expect(verification.errors).toEqual([]);
  });

  test.each(["001", "003"])("skip-paperwork, business suffix %s -> normal packet rules", async (suffix) => {
    const customer = await createCustomer(skip, { customerType: "BUSINESS", ...reg(`RN-${suffix}`) });
    const verification = await expectOutcome(skip, customer.id, "RESOLVE_ERRORS", "UNVERIFIED");
    expect(verification.errors.map((e) => e.field ?? e.type)).toEqual([
      "businessInfo.country",
      "businessInfo.incorporatedOn",
      "businessInfo.taxId",
      "address",
      "MISSING_LEGAL_PRESENCE_DOCUMENT",
      "MISSING_BENEFICIAL_OWNER",
    ]);
  });

  test("skip-paperwork applies to a business's first submission only", async () => {
    const customer = await createCustomer(skip, { customerType: "BUSINESS", ...reg("RN-001") });
    await expectOutcome(skip, customer.id, "RESOLVE_ERRORS", "UNVERIFIED");
    expect((await skip.patch(`/customers/${customer.id}`, reg("RN-457"))).status).toBe(200);
    await expectOutcome(skip, customer.id, "RESOLVE_ERRORS", "UNVERIFIED");
  });
});

describe("reading verifications", () => {
  let other: Credentials;
  let customerId: string;
  const ids: string[] = [];
  beforeAll(async () => {
    other = await server.newPlatform();
    customerId = (await createCustomer(client, { customerType: "INDIVIDUAL" })).id;
    for (let i = 0; i < 3; i++) ids.push((await submit(client, customerId)).id);
  });

  test("GET /verifications/{id} returns the submission", async () => {
    const res = await client.get<Verification>(`/verifications/${ids[0]}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ids[0], customerId, verificationStatus: "RESOLVE_ERRORS" });
    expect(res.body.errors).toHaveLength(5);
  });

  test("GET /verifications?customerId= pages through the customer's verifications", async () => {
    const query = `/verifications?customerId=${customerId}&limit=2&sortOrder=asc`;
    const first = await client.get<{ data: Verification[]; nextCursor: string }>(query);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(first.body.data.map((v) => v.id)).toEqual(ids.slice(0, 2));
    const second = await client.get(`${query}&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({
      data: [expect.objectContaining({ id: ids[2] })],
      hasMore: false,
      totalCount: 3,
    });
  });

  test.each([
    ["unknown", () => "Verification:0190d2a1-7c4e-7b3a-9f00-1234567890ab", () => client],
    ["malformed", () => "Verification:nope", () => client],
    ["wrong prefix", () => "Document:0190d2a1-7c4e-7b3a-9f00-1234567890ab", () => client],
    ["another platform's", () => ids[0] ?? "", () => client.as(other)],
  ])("%s verification id -> 404 VERIFICATION_NOT_FOUND", async (_, id, as) => {
    const res = await as().get(`/verifications/${id()}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "VERIFICATION_NOT_FOUND", reason: `No verification ${id()}.` });
  });

  test("GET /verifications?verificationStatus= lists only verifications with that status", async () => {
    const errors = await client.get<{ data: Verification[] }>(
      `/verifications?customerId=${customerId}&verificationStatus=RESOLVE_ERRORS`,
    );
    expect(errors.body.data.map((v) => v.id).sort()).toEqual([...ids].sort());
    const approved = await client.get(`/verifications?customerId=${customerId}&verificationStatus=APPROVED`);
    expect(approved.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  test("GET /verifications with an unknown verificationStatus -> 400 INVALID_INPUT", async () => {
    const res = await client.get("/verifications?verificationStatus=DONE");
    expect(res.status).toBe(400);
    expect((res.body as ErrorBody).details.errors).toEqual([
      expect.objectContaining({
        field: "verificationStatus",
        constraint: expect.objectContaining({ enum: expect.any(Array) }),
      }),
    ]);
  });

  test("another platform's list filtered by this customer is empty", async () => {
    const list = await client.as(other).get(`/verifications?customerId=${customerId}`);
    expect(list.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });
});

describe("POST /verifications input", () => {
  test.each([
    ["unknown", async () => "Customer:0190d2a1-7c4e-7b3a-9f00-1234567890ab"],
    ["malformed", async () => "not-an-id"],
    ["another platform's", async () => (await createCustomer(skip, { customerType: "INDIVIDUAL" })).id],
  ])("%s customerId -> 404 CUSTOMER_NOT_FOUND", async (_, makeId) => {
    const customerId = await makeId();
    const res = await client.post("/verifications", { customerId });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "CUSTOMER_NOT_FOUND", reason: `No customer ${customerId}.` });
  });

  test.each([
    {
      body: { customerId: 7, documents: [] },
      errors: [
        { field: "documents", message: "is not a recognized field" },
        { field: "customerId", message: "must be string" },
      ],
    },
    { body: {}, errors: [{ field: "customerId", message: "is required" }] },
  ])("invalid body $body -> 400 INVALID_INPUT listing every bad field", async ({ body, errors }) => {
    const res = await client.post("/verifications", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "INVALID_INPUT", reason: expect.any(String), details: { errors } });
  });
});
