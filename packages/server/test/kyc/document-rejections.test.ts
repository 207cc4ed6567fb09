import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Document } from "../../src/kyc/schemas.js";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";

type ErrorBody = { code: string; reason: string; details?: unknown };

let server: TestServer;
let client: TestClient;
let production: Credentials;
beforeAll(async () => {
  server = await startServer();
  client = server.client;
  production = await server.newPlatform("PRODUCTION");
});
afterAll(() => server.close());

const content = Buffer.from("passport scan").toString("base64");

async function newCustomer(auth?: Credentials): Promise<string> {
  const res = await client.post<{ id: string }>(
    "/customers",
    { customerType: "INDIVIDUAL" },
    auth ? { auth } : {},
  );
  expect(res.status).toBe(201);
  return res.body.id;
}

const upload = (customerId: string, fileName: string, auth?: Credentials) =>
  client.post<Document & ErrorBody>(
    "/documents",
    { customerId, documentType: "PASSPORT", fileName, content },
    auth ? { auth } : {},
  );

async function documentsOf(customerId: string): Promise<number> {
  const rows = await server.db.query("SELECT id FROM documents WHERE customer_id = $1", [customerId]);
  return rows.length;
}

const rejections = [
  ["011", "LOW_QUALITY"],
  ["012", "DATA_MISMATCH"],
  ["013", "EXPIRED"],
  ["014", "SUSPECTED_FRAUD"],
  ["015", "INCOMPLETE"],
] as const;

describe("sandbox document rejections (file name suffix, extension ignored)", () => {
  test.each(rejections)(
    "POST /documents with a file name ending %s -> 400 %s, nothing stored",
    async (suffix, code) => {
      const customerId = await newCustomer();
      const res = await upload(customerId, `passport-${suffix}.pdf`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.reason).toContain(`passport-${suffix}.pdf`);
      expect(await documentsOf(customerId)).toBe(0);
    },
  );

  test("a file name without an extension reads its own last three characters", async () => {
    const res = await upload(await newCustomer(), "scan013");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("EXPIRED");
  });

  test("the extension is not read: scan.011 is accepted", async () => {
    expect((await upload(await newCustomer(), "scan.011")).status).toBe(201);
  });

  test("after a rejected upload the same type can be uploaded (no 409 DOCUMENT_ALREADY_EXISTS)", async () => {
    const customerId = await newCustomer();
    expect((await upload(customerId, "passport-014.jpg")).status).toBe(400);
    const res = await upload(customerId, "passport.jpg");
    expect(res.status).toBe(201);
    expect(await documentsOf(customerId)).toBe(1);
  });

  test.each(rejections)(
    "PUT /documents/{id} with a file name ending %s -> 400 %s, the stored file unchanged",
    async (suffix, code) => {
      const created = await upload(await newCustomer(), "passport.pdf");
      const res = await client.request<ErrorBody>("PUT", `/documents/${created.body.id}`, {
        fileName: `new-${suffix}.png`,
        content: Buffer.from("another scan").toString("base64"),
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      expect((await client.get<Document>(`/documents/${created.body.id}`)).body).toEqual(created.body);
    },
  );

  test("PUT on an unknown document is 404 NOT_FOUND before any rejection", async () => {
    const res = await client.request<ErrorBody>(
      "PUT",
      "/documents/Document:0190d2a1-7c4e-7b3a-9f00-1234567890ab",
      {
        fileName: "new-011.png",
        content,
      },
    );
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("NOT_FOUND");
  });

  test("UNSUITABLE_DOCUMENT comes before the provider's verdict", async () => {
    const res = await client.post<ErrorBody>("/documents", {
      customerId: await newCustomer(),
      documentType: "CERTIFICATE_OF_INCORPORATION",
      fileName: "cert-011.pdf",
      content,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("UNSUITABLE_DOCUMENT");
  });

  test("production platforms have no document provider: the suffixes are not read", async () => {
    const customerId = await newCustomer(production);
    expect((await upload(customerId, "passport-011.pdf", production)).status).toBe(201);
  });
});
