import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("HTTP conventions (conventions §1.1, §1.7)", () => {
  test("every response carries an X-Request-Id, success and error alike, each one distinct", async () => {
    const ok = await server.client.get("/customers");
    const unauthorized = await server.client.get("/customers", { auth: null });
    const missing = await server.client.get("/nope");
    const ids = [ok, unauthorized, missing].map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(3);
  });

  test("a body that is not valid JSON is 400 INVALID_REQUEST_FORMAT", async () => {
    const res = await server.client.post("/customers", undefined, {
      rawBody: '{"customerType": "INDIVIDUAL",',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_REQUEST_FORMAT",
      reason: "The request body is not valid JSON.",
    });
  });

  test.each([["[]"], ["42"], ['"text"'], ["null"]])(
    "a JSON body that is not an object (%s) is 400 INVALID_REQUEST_FORMAT",
    async (raw) => {
      const res = await server.client.post("/customers", undefined, {
        rawBody: raw,
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "INVALID_REQUEST_FORMAT" });
    },
  );

  test("a body sent as another content type is 400 INVALID_REQUEST_FORMAT", async () => {
    const res = await server.client.post("/customers", undefined, {
      rawBody: "customerType=INDIVIDUAL",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_REQUEST_FORMAT",
      reason: "The request body must be sent as application/json.",
    });
  });

  test("a write with no body where one is required is 400 INVALID_REQUEST_FORMAT", async () => {
    const res = await server.client.post("/customers");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_REQUEST_FORMAT",
      reason: "The request body must be a JSON object.",
    });
  });

  test("an optional-body POST accepts an empty body with no Content-Type", async () => {
    const res = await server.client.post("/sandbox/webhooks/test");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "WEBHOOK_ENDPOINT_NOT_SET" });
  });

  test("an unknown route is 404 NOT_FOUND in the error body", async () => {
    const res = await server.client.get("/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "NOT_FOUND", reason: "No route GET /2025-10-13/no-such-thing." });
  });

  test("a route outside the version segment is 404 NOT_FOUND", async () => {
    const res = await server.client.get(`${server.origin}/customers`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "NOT_FOUND" });
  });

  test("a known path with another method is 405 METHOD_NOT_ALLOWED with an Allow header", async () => {
    const res = await server.client.request("PUT", "/customers");
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ code: "METHOD_NOT_ALLOWED" });
    expect(res.headers.get("allow")).toBe("GET, POST, HEAD");
  });

  test("path ids may be raw or with ':' percent-encoded", async () => {
    const created = await server.client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" });
    const raw = await server.client.get<{ id: string }>(`/customers/${created.body.id}`);
    const encoded = await server.client.get<{ id: string }>(
      `/customers/${encodeURIComponent(created.body.id)}`,
    );
    expect(raw.body.id).toBe(created.body.id);
    expect(encoded.status).toBe(200);
    expect(encoded.body.id).toBe(created.body.id);
  });

  test("error bodies are exactly {code, reason, details?}", async () => {
    const res = await server.client.post("/customers", { customerType: "ROBOT" });
    expect(Object.keys(res.body).sort()).toEqual(["code", "details", "reason"]);
    const notFound = await server.client.get("/customers/Customer:nope");
    expect(Object.keys(notFound.body).sort()).toEqual(["code", "reason"]);
  });
});

describe("health and documentation", () => {
  test("GET /healthz and /readyz answer without credentials, outside the version", async () => {
    const health = await server.client.get(`${server.origin}/healthz`, { auth: null });
    const ready = await server.client.get(`${server.origin}/readyz`, { auth: null });
    expect([health.status, health.body]).toEqual([200, { status: "ok" }]);
    expect([ready.status, ready.body]).toEqual([200, { status: "ready", checks: { database: "up" } }]);
  });

  test("the OpenAPI 3.1 document is served at /2025-10-13/openapi.json from the validating schemas", async () => {
    type BodySchema = { properties: Record<string, unknown>; additionalProperties: boolean };
    const res = await server.client.get<{
      openapi: string;
      components: { schemas: Record<string, BodySchema> };
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<
                string,
                { schema: { properties: Record<string, unknown>; additionalProperties: boolean } }
              >;
            };
          }
        >
      >;
    }>("/openapi.json", { auth: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(["/customers", "/customers/{customerId}", "/tokens", "/config"]),
    );
    expect(Object.keys(res.body.paths)).not.toContain("/openapi.json");
    const body = res.body.paths["/customers"]?.post?.requestBody?.content["application/json"]?.schema;
    // Bodies are named components (issue 22 §4): follow the $ref.
    const ref = (body as { $ref?: string } | undefined)?.$ref?.replace("#/components/schemas/", "");
    const create = ref ? res.body.components.schemas[ref] : body;
    expect(create?.additionalProperties).toBe(false);
    expect(Object.keys(create?.properties ?? {})).toEqual(
      expect.arrayContaining(["customerType", "agreementConsents", "email"]),
    );
  });

  test("a readable API reference page is served at /docs", async () => {
    const res = await server.client.get(`${server.origin}/docs/`, { auth: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain("Swagger UI");
  });
});
