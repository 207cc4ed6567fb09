import { afterAll, beforeAll, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

test("smoke", async () => {
  const res = await server.client.post("/customers", { customerType: "INDIVIDUAL", fullName: "A B" });
  expect(res.status).toBe(201);
});
