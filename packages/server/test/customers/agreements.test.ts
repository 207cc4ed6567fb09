import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";

type Consent = {
  type: string;
  acceptedAt: string;
  termsVersion: string;
  acceptanceMethod: string;
  ipAddress?: string;
};
type Customer = { id: string; agreementConsents: Consent[]; endUserTermsConsent?: Omit<Consent, "type"> };
type ErrorBody = {
  code: string;
  reason: string;
  details?: Record<string, unknown> & { errors?: { field: string }[] };
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const terms = (acceptedAt: string, termsVersion = "2025-10-01") => ({
  type: "SERVICE_END_USER_TERMS",
  termsVersion,
  acceptedAt,
  ipAddress: "203.0.113.9",
  acceptanceMethod: "CLICKWRAP",
});

describe("agreementConsents (interface: Customer agreementConsents; conventions §2.1)", () => {
  test("responses hold an empty list before the first acceptance", async () => {
    const res = await server.client.post<Customer>("/customers", { customerType: "INDIVIDUAL" });
    expect(res.body.agreementConsents).toEqual([]);
    expect(res.body).not.toHaveProperty("endUserTermsConsent");
  });

  test("each entry has type, acceptedAt, ipAddress, termsVersion, acceptanceMethod", async () => {
    const res = await server.client.post<Customer>("/customers", {
      customerType: "INDIVIDUAL",
      agreementConsents: [
        terms("2026-01-02T03:04:05.000Z"),
        {
          type: "PRIVACY_POLICY",
          termsVersion: "2024-06-01",
          acceptedAt: "2026-01-02T03:04:05-06:00",
          ipAddress: "2001:db8::7",
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.agreementConsents).toEqual([
      {
        type: "PRIVACY_POLICY",
        termsVersion: "2024-06-01",
        acceptedAt: "2026-01-02T09:04:05.000Z",
        ipAddress: "2001:db8::7",
        acceptanceMethod: "CLICKWRAP",
      },
      {
        type: "SERVICE_END_USER_TERMS",
        termsVersion: "2025-10-01",
        acceptedAt: "2026-01-02T03:04:05.000Z",
        ipAddress: "203.0.113.9",
        acceptanceMethod: "CLICKWRAP",
      },
    ]);
  });

  test("at most one entry per type in a request: a second entry of a type -> 400 INVALID_INPUT naming it", async () => {
    const res = await server.client.post<ErrorBody>("/customers", {
      customerType: "INDIVIDUAL",
      agreementConsents: [terms("2026-01-02T03:04:05Z"), terms("2026-01-03T03:04:05Z")],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors?.map((e) => e.field)).toEqual(["agreementConsents[1].type"]);
  });

  test("responses hold the most recent acceptance per type", async () => {
    const created = await server.client.post<Customer>("/customers", {
      customerType: "INDIVIDUAL",
      agreementConsents: [terms("2026-02-01T00:00:00Z", "2024-06-01")],
    });
    const newer = await server.client.patch<Customer>(`/customers/${created.body.id}`, {
      agreementConsents: [terms("2026-03-01T00:00:00Z")],
    });
    expect(newer.body.agreementConsents).toHaveLength(1);
    expect(newer.body.agreementConsents[0]).toMatchObject({
      termsVersion: "2025-10-01",
      acceptedAt: "2026-03-01T00:00:00.000Z",
    });
    const older = await server.client.patch<Customer>(`/customers/${created.body.id}`, {
      agreementConsents: [terms("2026-01-01T00:00:00Z", "2024-06-01")],
    });
    expect(older.body.agreementConsents[0]).toMatchObject({ acceptedAt: "2026-03-01T00:00:00.000Z" });
  });

  test("deprecated endUserTermsConsent is equivalent to one SERVICE_END_USER_TERMS entry", async () => {
    const res = await server.client.post<Customer>("/customers", {
      customerType: "INDIVIDUAL",
      endUserTermsConsent: {
        termsVersion: "2025-10-01",
        acceptedAt: "2026-01-02T03:04:05Z",
        ipAddress: "198.51.100.1",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.agreementConsents).toEqual([
      {
        type: "SERVICE_END_USER_TERMS",
        termsVersion: "2025-10-01",
        acceptedAt: "2026-01-02T03:04:05.000Z",
        ipAddress: "198.51.100.1",
        acceptanceMethod: "CLICKWRAP",
      },
    ]);
    expect(res.body.endUserTermsConsent).toEqual({
      termsVersion: "2025-10-01",
      acceptedAt: "2026-01-02T03:04:05.000Z",
      ipAddress: "198.51.100.1",
      acceptanceMethod: "CLICKWRAP",
    });
  });

  test("sending endUserTermsConsent together with agreementConsents is rejected (400 INVALID_INPUT), nothing written", async () => {
    const before = await server.client.get<{ totalCount: number }>("/customers");
    const res = await server.client.post<ErrorBody>("/customers", {
      customerType: "INDIVIDUAL",
      endUserTermsConsent: {
        termsVersion: "2025-10-01",
        acceptedAt: "2026-01-02T03:04:05Z",
        ipAddress: "198.51.100.1",
      },
      agreementConsents: [terms("2026-01-02T03:04:05Z")],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors?.map((e) => e.field)).toEqual(["endUserTermsConsent"]);
    expect((await server.client.get<{ totalCount: number }>("/customers")).body.totalCount).toBe(
      before.body.totalCount,
    );
  });

  test("an unsupported termsVersion -> 400 END_USER_TERMS_VERSION_NOT_FOUND", async () => {
    const res = await server.client.post<ErrorBody>("/customers", {
      customerType: "INDIVIDUAL",
      agreementConsents: [terms("2026-01-02T03:04:05Z", "1999-01-01")],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("END_USER_TERMS_VERSION_NOT_FOUND");
    expect(res.body.details).toMatchObject({ type: "SERVICE_END_USER_TERMS", termsVersion: "1999-01-01" });
  });

  test("acceptedAt without an offset -> 400 INVALID_INPUT with constraint.format date-time", async () => {
    const res = await server.client.post<ErrorBody>("/customers", {
      customerType: "INDIVIDUAL",
      agreementConsents: [
        {
          type: "PRIVACY_POLICY",
          termsVersion: "2025-10-01",
          acceptedAt: "2026-01-02T03:04:05",
          ipAddress: "198.51.100.1",
        },
      ],
    });
    expect(res.body.details?.errors).toEqual([
      {
        field: "agreementConsents[0].acceptedAt",
        constraint: { format: "date-time" },
        message: "must be a valid date-time",
      },
    ]);
  });
});

describe("each agreementConsents entry has ipAddress (interface: Customer agreementConsents)", () => {
  test("an entry without ipAddress -> 400 INVALID_INPUT naming it; nothing written", async () => {
    const created = await server.client.post<Customer>("/customers", { customerType: "INDIVIDUAL" });
    const { ipAddress: _, ...withoutIp } = terms("2026-01-02T03:04:05Z");
    const res = await server.client.patch<ErrorBody>(`/customers/${created.body.id}`, {
      agreementConsents: [withoutIp],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [{ field: "agreementConsents[0].ipAddress", message: expect.any(String) }] },
    });
    const after = await server.client.get<Customer>(`/customers/${created.body.id}`);
    expect(after.body.agreementConsents).toEqual([]);
  });

  test("deprecated endUserTermsConsent without ipAddress -> 400 INVALID_INPUT naming it", async () => {
    const res = await server.client.post<ErrorBody>("/customers", {
      customerType: "INDIVIDUAL",
      endUserTermsConsent: { termsVersion: "2025-10-01", acceptedAt: "2026-01-02T03:04:05Z" },
    });
    expect(res.status).toBe(400);
    expect(res.body.details?.errors?.map((e) => e.field)).toEqual(["endUserTermsConsent.ipAddress"]);
  });

  test.each([["not-an-ip"], ["256.1.1.1"], [""]])(
    "ipAddress %j that is not an IPv4 or IPv6 address -> 400 INVALID_INPUT",
    async (ipAddress) => {
      const res = await server.client.post<ErrorBody>("/customers", {
        customerType: "INDIVIDUAL",
        agreementConsents: [{ ...terms("2026-01-02T03:04:05Z"), ipAddress }],
      });
      expect(res.status).toBe(400);
      expect(res.body.details?.errors?.map((e) => e.field)).toEqual(["agreementConsents[0].ipAddress"]);
    },
  );
});

describe("agreement catalogue endpoints", () => {
  test("GET /customers/agreements lists each agreement type with its current version and url", async () => {
    const res = await server.client.get<{ data: { type: string; version: string; url: string }[] }>(
      "/customers/agreements",
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(7);
    expect(new Set(res.body.data.map((a) => a.type)).size).toBe(7);
    expect(res.body.data.find((a) => a.type === "SERVICE_END_USER_TERMS")).toMatchObject({
      version: "2025-10-01",
    });
    for (const agreement of res.body.data) expect(agreement.url).toMatch(/^https:\/\//);
  });

  test("deprecated GET /customers/end-user-terms returns {version, url} of SERVICE_END_USER_TERMS", async () => {
    const agreements = await server.client.get<{ data: { type: string; version: string; url: string }[] }>(
      "/customers/agreements",
    );
    const current = agreements.body.data.find((a) => a.type === "SERVICE_END_USER_TERMS");
    const res = await server.client.get("/customers/end-user-terms");
    expect(res.body).toEqual({ version: current?.version, url: current?.url });
  });
});
