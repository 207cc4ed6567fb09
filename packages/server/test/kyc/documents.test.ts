import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Document } from "../../src/kyc/schemas.js";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";

let server: TestServer;
let client: TestClient;
let other: Credentials;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
  other = await server.newPlatform();
});
afterAll(() => server.close());

const MiB = 1024 * 1024;
const idPattern = /^Document:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const unknownId = "Document:0190d2a1-7c4e-7b3a-9f00-1234567890ab";
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const passport = Buffer.from("passport scan");

async function newCustomer(c: TestClient = client, customerType = "INDIVIDUAL"): Promise<string> {
  const res = await c.post("/customers", { customerType });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function upload(customerId: string, documentType = "PASSPORT", bytes = passport, c = client) {
  return c.post<Document>("/documents", {
    customerId,
    documentType,
    fileName: "scan.pdf",
    content: bytes.toString("base64"),
  });
}

describe("POST /documents", () => {
  test("upload -> 201 Document with size and sha256 of the decoded content", async () => {
    const customerId = await newCustomer();
    const res = await upload(customerId);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(idPattern),
      customerId,
      documentType: "PASSPORT",
      fileName: "scan.pdf",
      sizeBytes: passport.length,
      sha256: sha256(passport),
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    });
  });

  test("only the hash and size are stored, never the content", async () => {
    const res = await upload(await newCustomer());
    const rows = await server.db.query("SELECT * FROM documents WHERE id = $1", [res.body.id]);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual([
      "content_sha256",
      "created_at",
      "customer_id",
      "document_type",
      "file_name",
      "id",
      "platform_id",
      "size_bytes",
      "updated_at",
    ]);
    expect(JSON.stringify(rows)).not.toContain(passport.toString("base64"));
  });

  test("a second document of the same type -> 409 DOCUMENT_ALREADY_EXISTS", async () => {
    const customerId = await newCustomer();
    expect((await upload(customerId)).status).toBe(201);
    const res = await upload(customerId, "PASSPORT", Buffer.from("another scan"));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: "DOCUMENT_ALREADY_EXISTS",
      reason: `Customer ${customerId} already has a PASSPORT document; replace it with PUT /documents/{documentId}.`,
    });
    expect((await upload(customerId, "NATIONAL_ID")).status).toBe(201);
  });

  test("a document type the customer type does not use -> 400 UNSUITABLE_DOCUMENT", async () => {
    const res = await upload(await newCustomer(), "CERTIFICATE_OF_INCORPORATION");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "UNSUITABLE_DOCUMENT",
      reason: "A INDIVIDUAL customer cannot submit a CERTIFICATE_OF_INCORPORATION document.",
      details: {
        field: "documentType",
        acceptedDocumentTypes: ["PASSPORT", "DRIVERS_LICENSE", "NATIONAL_ID", "PROOF_OF_ADDRESS"],
      },
    });
    const business = await newCustomer(client, "BUSINESS");
    expect((await upload(business, "PASSPORT")).body).toMatchObject({ code: "UNSUITABLE_DOCUMENT" });
    expect((await upload(business, "CERTIFICATE_OF_INCORPORATION")).status).toBe(201);
  });

  test.each([
    ["unknown", "Customer:0190d2a1-7c4e-7b3a-9f00-1234567890ab"],
    ["malformed", "Customer:xyz"],
  ])("%s customerId -> 404 CUSTOMER_NOT_FOUND", async (_, customerId) => {
    const res = await upload(customerId);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "CUSTOMER_NOT_FOUND", reason: `No customer ${customerId}.` });
  });

  test("another platform's customerId -> 404 CUSTOMER_NOT_FOUND", async () => {
    const customerId = await newCustomer(client.as(other));
    const res = await upload(customerId);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "CUSTOMER_NOT_FOUND", reason: `No customer ${customerId}.` });
  });

  test("content of exactly 1 MiB decoded is accepted", async () => {
    const res = await upload(await newCustomer(), "PASSPORT", Buffer.alloc(MiB, 1));
    expect(res.status).toBe(201);
    expect(res.body.sizeBytes).toBe(MiB);
  });

  test("content over 1 MiB decoded -> 400 INVALID_INPUT on content", async () => {
    const res = await upload(await newCustomer(), "PASSPORT", Buffer.alloc(MiB + 1, 1));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_INPUT",
      reason: "Invalid content: must decode to at most 1048576 bytes",
      details: { errors: [{ field: "content", message: "must decode to at most 1048576 bytes" }] },
    });
  });

  test.each(["not base64!", "YWJj\nZGVm", "YWJjZA", "YWJjZA=", "-_-_"])(
    "content %j that is not padded standard base64 -> 400 INVALID_INPUT on content",
    async (content) => {
      const customerId = await newCustomer();
      const res = await client.post("/documents", {
        customerId,
        documentType: "PASSPORT",
        fileName: "a",
        content,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: "INVALID_INPUT",
        details: { errors: [{ field: "content", message: "does not match the required pattern" }] },
      });
    },
  );

  test("invalid body -> 400 INVALID_INPUT listing every bad field", async () => {
    const res = await client.post("/documents", {
      customerId: 1,
      documentType: "SELFIE",
      fileName: "",
      content: "%%%",
      note: "x",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", reason: "5 fields are invalid." });
    const errors = (res.body.details as { errors: { field: string }[] }).errors;
    expect(errors.map((e) => e.field).sort()).toEqual([
      "content",
      "customerId",
      "documentType",
      "fileName",
      "note",
    ]);
    expect(errors).toContainEqual({
      field: "documentType",
      constraint: {
        enum: [
          "PASSPORT",
          "DRIVERS_LICENSE",
          "NATIONAL_ID",
          "PROOF_OF_ADDRESS",
          "CERTIFICATE_OF_INCORPORATION",
          "PROOF_OF_OWNERSHIP",
        ],
      },
      message:
        "must be one of PASSPORT, DRIVERS_LICENSE, NATIONAL_ID, PROOF_OF_ADDRESS, CERTIFICATE_OF_INCORPORATION, PROOF_OF_OWNERSHIP",
    });
  });

  test("empty body -> 400 INVALID_INPUT naming each required field", async () => {
    const res = await client.post("/documents", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_INPUT",
      reason: "4 fields are invalid.",
      details: {
        errors: [
          { field: "customerId", message: "is required" },
          { field: "documentType", message: "is required" },
          { field: "fileName", message: "is required" },
          { field: "content", message: "is required" },
        ],
      },
    });
  });

  test("a token without MANAGE -> 403 FORBIDDEN", async () => {
    const token = await client.post("/tokens", { name: "viewer", permissions: ["VIEW"] });
    const viewer = {
      ...server.platform,
      clientId: String(token.body.clientId),
      clientSecret: String(token.body.clientSecret),
    };
    const res = await client.as(viewer).post("/documents", {});
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
  });
});

describe("reading and replacing documents", () => {
  let customerId: string;
  let created: Document[];
  beforeAll(async () => {
    customerId = await newCustomer();
    created = [];
    for (const type of ["PASSPORT", "DRIVERS_LICENSE", "PROOF_OF_ADDRESS"]) {
      created.push((await upload(customerId, type)).body);
    }
  });

  test("GET /documents/{id} returns the document", async () => {
    const res = await client.get(`/documents/${created[0]?.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created[0]);
  });

  test("GET /documents/{id} accepts the id with ':' percent-encoded", async () => {
    const res = await client.get(`/documents/${created[0]?.id.replace(":", "%3A")}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created[0]);
  });

  test("PUT /documents/{id} replaces the file, keeping id, customer, type and createdAt", async () => {
    const customer = await newCustomer();
    const original = (await upload(customer)).body;
    const bytes = Buffer.from("a clearer scan");
    const res = await client.request<Document>("PUT", `/documents/${original.id}`, {
      fileName: "clear.png",
      content: bytes.toString("base64"),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...original,
      fileName: "clear.png",
      sizeBytes: bytes.length,
      sha256: sha256(bytes),
      updatedAt: expect.any(String),
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(original.updatedAt));
    expect((await client.get(`/documents/${original.id}`)).body).toEqual(res.body);
  });

  test("PUT /documents/{id} with an invalid body -> 400 INVALID_INPUT listing every bad field", async () => {
    const res = await client.request("PUT", `/documents/${created[0]?.id}`, {
      documentType: "PASSPORT",
      content: "*",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", reason: "3 fields are invalid." });
    const fields = (res.body.details as { errors: { field: string }[] }).errors.map((e) => e.field).sort();
    expect(fields).toEqual(["content", "documentType", "fileName"]);
  });

  test("GET /documents?customerId= pages through the customer's documents", async () => {
    const first = await client.get(`/documents?customerId=${customerId}&limit=2&sortOrder=asc`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ data: created.slice(0, 2), hasMore: true, totalCount: 3 });
    const second = await client.get(
      `/documents?customerId=${customerId}&limit=2&sortOrder=asc&cursor=${first.body.nextCursor}`,
    );
    expect(second.body).toEqual({ data: created.slice(2), hasMore: false, totalCount: 3 });
    const newestFirst = await client.get(`/documents?customerId=${customerId}`);
    expect(newestFirst.body).toEqual({ data: [...created].reverse(), hasMore: false, totalCount: 3 });
  });

  test("GET /documents with a cursor from another filter -> 400 INVALID_INPUT on cursor", async () => {
    const first = await client.get(`/documents?customerId=${customerId}&limit=1`);
    const res = await client.get(`/documents?limit=1&cursor=${first.body.nextCursor}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "cursor" }] } });
  });

  describe.each([
    ["unknown", () => unknownId],
    ["malformed", () => "Document:123"],
    ["wrong prefix", () => customerId],
    ["another platform's", () => created[0]?.id ?? ""],
  ])("%s document id", (label, id) => {
    const as = () => (label === "another platform's" ? client.as(other) : client);

    test("GET -> 404 NOT_FOUND", async () => {
      const res = await as().get(`/documents/${id()}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "NOT_FOUND", reason: `No document ${id()}.` });
    });

    test("PUT -> 404 NOT_FOUND", async () => {
      const res = await as().request("PUT", `/documents/${id()}`, { fileName: "a.pdf", content: "YQ==" });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "NOT_FOUND", reason: `No document ${id()}.` });
    });
  });

  test("another platform's lists do not show the document", async () => {
    const mine = await client.as(other).get(`/documents?customerId=${customerId}`);
    expect(mine.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const all = await client.as(other).get("/documents");
    expect(all.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });
});

describe("DELETE /documents/{id}", () => {
  test("deleting a document of an UNVERIFIED customer -> 204; it is gone from reads and lists", async () => {
    const customerId = await newCustomer();
    const id = (await upload(customerId)).body.id;
    const res = await client.request("DELETE", `/documents/${id}`);
    expect(res.status).toBe(204);
    expect((await client.get(`/documents/${id}`)).status).toBe(404);
    expect((await client.get(`/documents?customerId=${customerId}`)).body).toMatchObject({
      data: [],
      totalCount: 0,
    });
    // The type is free again: the customer can upload a new passport.
    expect((await upload(customerId)).status).toBe(201);
  });

  test("a document of a customer whose verification was submitted and decided -> 409 CONFLICT, kept", async () => {
    const customer = await client.post<{ id: string }>("/customers", {
      customerType: "INDIVIDUAL",
      fullName: "Jane Doe 457",
      birthDate: "1990-01-31",
      nationality: "US",
      address: { line1: "1 Main St", city: "Austin", postalCode: "78701", country: "US" },
    });
    const id = (await upload(customer.body.id)).body.id;
    await upload(customer.body.id, "PROOF_OF_ADDRESS");
    const submitted = await client.post("/verifications", { customerId: customer.body.id });
    expect(submitted.body).toMatchObject({ verificationStatus: "APPROVED" });
    const res = await client.request("DELETE", `/documents/${id}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT" });
    expect((await client.get(`/documents/${id}`)).status).toBe(200);
  });

  test("an unknown, malformed or another platform's document -> 404 NOT_FOUND", async () => {
    const id = (await upload(await newCustomer())).body.id;
    for (const [c, target] of [
      [client, unknownId],
      [client, "not-an-id"],
      [client.as(other), id],
    ] as const) {
      const res = await c.request("DELETE", `/documents/${encodeURIComponent(target)}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "NOT_FOUND", reason: `No document ${target}.` });
    }
    expect((await client.get(`/documents/${id}`)).status).toBe(200);
  });

  test("a token without MANAGE -> 403 FORBIDDEN", async () => {
    const id = (await upload(await newCustomer())).body.id;
    const token = await client.post("/tokens", { name: "viewer", permissions: ["VIEW"] });
    const viewer = {
      ...server.platform,
      clientId: String(token.body.clientId),
      clientSecret: String(token.body.clientSecret),
    };
    const res = await client.as(viewer).request("DELETE", `/documents/${id}`);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "FORBIDDEN" });
  });
});
