import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { KYC_LINK_TTL_MS } from "../../src/kyc/kyc-link.js";
import type { KycLink } from "../../src/kyc/kyc-link-schemas.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";

/** The error body with its FieldErrors, as these tests read it. */
type ErrorBody = { code: string; reason: string; details: { errors: { field: string; message: string }[] } };

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
});
afterAll(() => server.close());

const address = { line1: "1 Main St", city: "Austin", postalCode: "78701", country: "US" };
const pdf = Buffer.from("%PDF-1.7 test").toString("base64");
const visit = (url: string, init?: RequestInit) =>
  fetch(url, init).then(async (res) => ({ res, html: await res.text() }));
const submitForm = (url: string) =>
  visit(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "submit=1",
  });

async function individual(c: TestClient, fullName: string, complete = true) {
  const body = complete
    ? { customerType: "INDIVIDUAL", fullName, birthDate: "1990-01-31", nationality: "US", address }
    : { customerType: "INDIVIDUAL", fullName };
  const res = await c.post<{ id: string }>("/customers", body);
  expect(res.status).toBe(201);
  if (complete) {
    const doc = { customerId: res.body.id, documentType: "PASSPORT", fileName: "p.pdf", content: pdf };
    expect((await c.post("/documents", doc)).status).toBe(201);
  }
  return res.body.id;
}

async function link(c: TestClient, customerId: string, body?: Record<string, unknown>) {
  const res = await c.post<KycLink>(`/customers/${customerId}/kyc-link`, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("POST /customers/{customerId}/kyc-link", () => {
  test("returns 201 {kycUrl, expiresAt, provider} with a link to the hosted page, valid 24 hours", async () => {
    const customerId = await individual(client, "Jane Doe 457");
    const now = Date.parse((await client.get<{ now: string }>("/sandbox/clock")).body.now);
    const res = await client.post<KycLink>(`/customers/${customerId}/kyc-link`, {
      redirectUri: "https://app.example.com/onboarding/completed",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      kycUrl: expect.stringMatching(new RegExp(`^${server.baseUrl}/kyc/[A-Za-z0-9_-]{43}$`)),
      expiresAt: expect.any(String),
      provider: "SANDBOX",
    });
    const ttl = Date.parse(res.body.expiresAt) - now;
    expect(ttl).toBeGreaterThanOrEqual(KYC_LINK_TTL_MS);
    expect(ttl).toBeLessThan(KYC_LINK_TTL_MS + 60_000);
  });

  test("the body is optional: no body at all -> 201", async () => {
    const customerId = await individual(client, "Jane Doe 457");
    const res = await client.post(`/customers/${customerId}/kyc-link`);
    expect(res.status, res.text).toBe(201);
  });

  test("a redirectUri that is not an http(s) URI -> 400 INVALID_INPUT", async () => {
    const customerId = await individual(client, "Jane Doe 457");
    const res = await client.post(`/customers/${customerId}/kyc-link`, {
      redirectUri: "javascript:alert(1)",
    });
    expect(res.status).toBe(400);
    expect((res.body as ErrorBody).details.errors[0]?.field).toBe("redirectUri");
  });

  test("unknown customer -> 404 CUSTOMER_NOT_FOUND", async () => {
    const id = "Customer:0190d2a1-7c4e-7b3a-9f00-1234567890ab";
    const res = await client.post(`/customers/${id}/kyc-link`, {});
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("CUSTOMER_NOT_FOUND");
  });

  test("a customer already APPROVED or REJECTED -> 409 CONFLICT", async () => {
    const customerId = await individual(client, "Jane Doe 002");
    expect((await client.post("/verifications", { customerId })).body.verificationStatus).toBe("REJECTED");
    const res = await client.post(`/customers/${customerId}/kyc-link`, {});
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: "CONFLICT",
      reason: `Customer ${customerId} is already REJECTED: its verification is final.`,
    });
  });

  test("a PRODUCTION platform has no KYC provider -> 501 NOT_IMPLEMENTED", async () => {
    const production = client.as(await server.newPlatform("PRODUCTION"));
    const customerId = await individual(production, "Jane Doe 457", false);
    const res = await production.post(`/customers/${customerId}/kyc-link`, {});
    expect(res.status).toBe(501);
    expect(res.body.code).toBe("NOT_IMPLEMENTED");
  });
});

describe("the hosted KYC page", () => {
  test("GET shows the customer and a submit form; no auth needed", async () => {
    const customerId = await individual(client, "Jane Doe 457");
    const { kycUrl } = await link(client, customerId);
    const { res, html } = await visit(kycUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(html).toContain("Verify your identity");
    expect(html).toContain("Jane Doe 457");
    expect(html).toContain('<form method="post">');
  });

  test("submitting the form submits the verification: the sandbox suffix decides, as on POST /verifications", async () => {
    const customerId = await individual(client, "Jane Doe 002");
    const { kycUrl } = await link(client, customerId, {
      redirectUri: "https://app.example.com/done?x=1&y=2",
    });
    const { res, html } = await submitForm(kycUrl);
    expect(res.status).toBe(200);
    expect(html).toContain('<strong id="result">REJECTED</strong>');
    expect(html).toContain('href="https://app.example.com/done?x=1&#38;y=2"');
    expect((await client.get(`/customers/${customerId}`)).body.kycStatus).toBe("REJECTED");
    const list = await client.get<{ data: { verificationStatus: string }[] }>(
      `/verifications?customerId=${customerId}`,
    );
    expect(list.body.data.map((v) => v.verificationStatus)).toEqual(["REJECTED"]);
  });

  test("an incomplete packet submitted from the page lists what is missing; the customer stays UNVERIFIED", async () => {
    const customerId = await individual(client, "Jane Doe 457", false);
    const { kycUrl } = await link(client, customerId);
    const { html } = await submitForm(kycUrl);
    expect(html).toContain('<strong id="result">RESOLVE_ERRORS</strong>');
    expect(html).toContain("birthDate is required for verification.");
    expect((await client.get(`/customers/${customerId}`)).body.kycStatus).toBe("UNVERIFIED");
  });

  test("an expired link (platform clock) -> 410 page, and the form submits nothing", async () => {
    const c = client.as(await server.newPlatform());
    const customerId = await individual(c, "Jane Doe 457");
    const { kycUrl, expiresAt } = await link(c, customerId);
    expect((await c.post("/sandbox/clock/advance", { to: expiresAt })).status).toBe(200);
    expect((await visit(kycUrl)).res.status).toBe(410);
    const { res, html } = await submitForm(kycUrl);
    expect(res.status).toBe(410);
    expect(html).toContain("This verification link has expired.");
    expect((await c.get(`/verifications?customerId=${customerId}`)).body.totalCount).toBe(0);
  });

  test("the link of a customer deleted since -> 410 page", async () => {
    const customerId = await individual(client, "Jane Doe 457");
    const { kycUrl } = await link(client, customerId);
    expect((await client.delete(`/customers/${customerId}`)).status).toBeLessThan(300);
    const { res, html } = await submitForm(kycUrl);
    expect(res.status).toBe(410);
    expect(html).toContain("This verification link is not valid.");
  });

  test("an unknown token -> 410 page", async () => {
    const { res, html } = await visit(`${server.baseUrl}/kyc/${"A".repeat(43)}`);
    expect(res.status).toBe(410);
    expect(html).toContain("This verification link is not valid.");
  });
});
