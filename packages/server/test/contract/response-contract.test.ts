import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION } from "../../src/core/http/version.js";
import { startServer, TestClient, type TestServer } from "../harness.js";
import { type OpenApiDocument, ResponseContract } from "./response-contract.js";

/** Issue 9 part 1: the response contract itself (the harness applies it to every TestClient response). */
let server: TestServer;
let contract: ResponseContract;
const json = "application/json; charset=utf-8";

beforeAll(async () => {
  server = await startServer();
  contract = new ResponseContract(server.app.swagger() as unknown as OpenApiDocument);
});

afterAll(async () => {
  await server.close();
});

const card = "/cards/Card:00000000-0000-4000-8000-000000000000";

describe("response contract", () => {
  it("a declared status with a body matching its schema keeps the contract", async () => {
    const customer = await server.client.post("/customers", { customerType: "INDIVIDUAL" });
    expect(customer.status).toBe(201);
    const observed = {
      method: "POST",
      path: "/customers",
      status: 201,
      contentType: json,
      text: customer.text,
    };
    expect(contract.check(observed)).toBeNull();
  });

  it("a status the operation does not declare breaks it, naming the operation and the status", () => {
    const text = JSON.stringify({ code: "ACCOUNT_LOCKED", reason: "locked" });
    const broken = contract.check({ method: "GET", path: card, status: 423, contentType: json, text });
    expect(broken).toContain("GET /cards/{cardId}: status 423 is not declared");
  });

  it("a body that does not match the declared schema breaks it, naming the schema path", () => {
    const broken = contract.check({ method: "GET", path: card, status: 200, contentType: json, text: "{}" });
    expect(broken).toMatch(
      /GET \/cards\/\{cardId\}: status 200 body does not match the declared schema: .*\(schema [\w-]*#\/[^)]+\)/,
    );
  });

  it("a content type other than the declared one breaks it", () => {
    const broken = contract.check({
      method: "GET",
      path: card,
      status: 200,
      contentType: "text/html",
      text: "<p>",
    });
    expect(broken).toContain('declares application/json, got content type "text/html"');
  });

  it("an error body with a key beyond {code, reason, details} breaks it", () => {
    const text = JSON.stringify({ code: "NOT_FOUND", reason: "no", message: "x" });
    const broken = contract.check({ method: "GET", path: card, status: 404, contentType: json, text });
    expect(broken).toContain("additionalProperties");
  });

  it("a catalogue code answered with another status than the catalogue's breaks it", () => {
    const text = JSON.stringify({ code: "CONFLICT", reason: "no" });
    const broken = contract.check({ method: "GET", path: card, status: 404, contentType: json, text });
    expect(broken).toContain("CONFLICT");
  });

  it("a 204 with a body breaks it", () => {
    const path = "/tokens/Token:00000000-0000-4000-8000-000000000000";
    const broken = contract.check({ method: "DELETE", path, status: 204, contentType: json, text: "{}" });
    expect(broken).toContain("status 204 declares no body");
  });

  it("an unknown path's 404 and another method's 405 are the catalogue's error body", async () => {
    const unknown = await server.client.get("/no-such-route");
    expect(unknown.status).toBe(404);
    const other = await server.client.request("PUT", "/customers");
    expect(other.status).toBe(405);
    const html = {
      method: "GET",
      path: "/no-such-route",
      status: 404,
      contentType: "text/html",
      text: "<h1>",
    };
    expect(contract.check(html)).toContain("(no operation): error 404 is not JSON");
  });

  it("a mismatching response fails the test that made the request (TestClient throws)", async () => {
    // A stand-in server answering a documented path with a body the document does not allow.
    const fake: Server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": json });
      res.end(JSON.stringify({ id: 1 }));
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    const { port } = fake.address() as AddressInfo;
    const client = new TestClient(`http://127.0.0.1:${port}/${API_VERSION}`, server.platform);
    await expect(client.get(card)).rejects.toThrow(
      /response contract: GET \/cards\/\{cardId\}: status 200 body/,
    );
    await new Promise((resolve) => fake.close(resolve));
  });
});
