import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import {
  BadRequestError,
  type BeneficialOwnerPersonalInfo,
  ConflictError,
  NotFoundError,
  PaysvcClient,
} from "../src/index.js";

let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer();
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
});
afterAll(() => server.close());

const address = { line1: "1 Main St", city: "Austin", postalCode: "78701", country: "US" };
const personalInfo = (lastName: string): BeneficialOwnerPersonalInfo => ({
  firstName: "Jane",
  lastName,
  birthDate: "1978-06-15",
  nationality: "US",
  address,
  idType: "SSN",
  identifier: "123-45-6789",
});
describe("beneficial owners through the SDK", () => {
  test("create, get, update and list an owner of a business", async () => {
    const customer = await paysvc.customers.create({ customerType: "BUSINESS" });
    const owner = await paysvc.beneficialOwners.create({
      customerId: customer.id,
      roles: ["UBO"],
      ownershipPercentage: 60,
      personalInfo: personalInfo("Smith"),
    });
    expect(owner.lastResponse.status).toBe(201);
    expect(owner).toMatchObject({ customerId: customer.id, kycStatus: "UNVERIFIED" });
    expect(owner.personalInfo.identifier).toBe("*******6789");
    expect(await paysvc.beneficialOwners.get(owner.id)).toEqual({ ...owner });
    const updated = await paysvc.beneficialOwners.update(owner.id, { personalInfo: { lastName: "Jones" } });
    expect(updated.personalInfo).toEqual({ ...owner.personalInfo, lastName: "Jones" });
    await paysvc.beneficialOwners.create({
      customerId: customer.id,
      roles: ["DIRECTOR"],
      ownershipPercentage: 0,
      personalInfo: personalInfo("Brown"),
    });
    const all = [];
    for await (const o of paysvc.beneficialOwners.listAll({ customerId: customer.id, limit: 1 })) all.push(o);
    expect(all.map((o) => o.personalInfo.lastName)).toEqual(["Jones", "Brown"]);
  });

  test("an INDIVIDUAL customer -> BadRequestError; an unknown owner -> NotFoundError", async () => {
    const individual = await paysvc.customers.create({ customerType: "INDIVIDUAL" });
    const bad = paysvc.beneficialOwners.create({
      customerId: individual.id,
      roles: ["UBO"],
      ownershipPercentage: 10,
      personalInfo: personalInfo("Smith"),
    });
    await expect(bad).rejects.toBeInstanceOf(BadRequestError);
    const missing = paysvc.beneficialOwners.get("BeneficialOwner:0190d2a1-7c4e-7b3a-9f00-1234567890ab");
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("verifications through the SDK", () => {
  test("an owner's lastName suffix 002 rejects the business; get and list return the verification", async () => {
    const customer = await paysvc.customers.create({
      customerType: "BUSINESS",
      businessInfo: { legalName: "Acme LLC", country: "US", incorporatedOn: "2018-03-14", taxId: "47-1" },
      address,
    });
    const first = await paysvc.verifications.create({ customerId: customer.id });
    expect(first.lastResponse.status).toBe(200);
    expect(first.verificationStatus).toBe("RESOLVE_ERRORS");
    expect(first.errors.map((e) => e.type)).toEqual([
      "MISSING_LEGAL_PRESENCE_DOCUMENT",
      "MISSING_BENEFICIAL_OWNER",
    ]);
    await paysvc.config.update({ sandboxSkipVerificationPaperwork: true });
    const fresh = await paysvc.customers.create({ customerType: "BUSINESS" });
    await paysvc.beneficialOwners.create({
      customerId: fresh.id,
      roles: ["UBO"],
      ownershipPercentage: 100,
      personalInfo: personalInfo("Li002"),
    });
    const rejected = await paysvc.verifications.create({ customerId: fresh.id });
    expect(rejected.verificationStatus).toBe("REJECTED");
    expect(await paysvc.verifications.get(rejected.id)).toEqual({ ...rejected });
    const page = await paysvc.verifications.list({ customerId: fresh.id, verificationStatus: "REJECTED" });
    expect(page.data.map((v) => v.id)).toEqual([rejected.id]);
    expect((await paysvc.customers.get(fresh.id)).kybStatus).toBe("REJECTED");
    await paysvc.config.update({ sandboxSkipVerificationPaperwork: false });
  });

  test("an unknown verification -> NotFoundError VERIFICATION_NOT_FOUND", async () => {
    const missing = paysvc.verifications.get("Verification:0190d2a1-7c4e-7b3a-9f00-1234567890ab");
    await expect(missing).rejects.toMatchObject({ code: "VERIFICATION_NOT_FOUND" });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
  });

  test("createKycLink returns a hosted link that opens; a final customer -> ConflictError", async () => {
    const customer = await paysvc.customers.create({ customerType: "INDIVIDUAL", fullName: "Jane Doe 457" });
    const link = await paysvc.verifications.createKycLink(customer.id, {
      redirectUri: "https://app.example.com/done",
    });
    expect(link.lastResponse.status).toBe(201);
    expect(link.provider).toBe("SANDBOX");
    expect((await fetch(link.kycUrl)).status).toBe(200);
    await paysvc.config.update({ sandboxSkipVerificationPaperwork: true });
    const approved = await paysvc.customers.create({ customerType: "INDIVIDUAL", fullName: "Jane Doe 457" });
    await paysvc.config.update({ sandboxSkipVerificationPaperwork: false });
    expect(approved.kycStatus).toBe("APPROVED");
    await expect(paysvc.verifications.createKycLink(approved.id)).rejects.toBeInstanceOf(ConflictError);
  });
});
