import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

// Found by `npm run fuzz` (docs/reliability.md): inputs that used to escape the error contract.
describe("inputs at the edges answer in the error catalogue's body", () => {
  test("a U+0000 character in a body string is 400 INVALID_INPUT naming the field, and nothing is written", async () => {
    const before = (await server.client.get<{ totalCount: number }>("/customers")).body.totalCount;
    const res = await server.client.post("/customers", { customerType: "INDIVIDUAL", fullName: "a\u0000b" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", details: { errors: [{ field: "fullName" }] } });
    expect((await server.client.get<{ totalCount: number }>("/customers")).body.totalCount).toBe(before);
  });

  test("a U+0000 character in a query value is 400 INVALID_INPUT naming the parameter", async () => {
    const res = await server.client.get("/customers?platformCustomerId=a%00b");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { errors: [{ field: "platformCustomerId" }] },
    });
  });

  test("a request line and headers over 16 KB is 400 INVALID_REQUEST_FORMAT with the catalogue body", async () => {
    const res = await server.client.get(`/customers?platformCustomerId=${"x".repeat(20_000)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_REQUEST_FORMAT",
      reason: "The request line and headers exceed 16 KB.",
    });
  });

  test("an over-long path id is the resource's own 404, like any malformed id", async () => {
    const res = await server.client.get(`/customers/${"x".repeat(300)}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "CUSTOMER_NOT_FOUND" });
  });

  test("a path that is not valid percent-encoding is 400 INVALID_REQUEST_FORMAT", async () => {
    const res = await server.client.get("/customers/%E0%A4%A");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_REQUEST_FORMAT" });
  });
});
