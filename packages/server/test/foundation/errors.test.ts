import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { startServer, testLogger } from "../harness.js";

function captureLogs(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
  };
}

describe("unexpected failures and logs", () => {
  test("an unexpected exception is 500 INTERNAL_ERROR with a log line and no stack, message or SQL to the client", async () => {
    const logs = captureLogs();
    // A database of its own: this test closes it.
    const server = await startServer({ logger: testLogger(logs.stream), ownDatabase: true });
    const customer = await server.client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" });
    await server.jobs.stop();
    // A real fault: the database goes away under a running server.
    await server.db.close();
    const res = await server.client.get(`/customers/${customer.body.id}`);
    await server.app.close();
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: "INTERNAL_ERROR", reason: "Internal server error." });
    const requestId = res.headers.get("x-request-id");
    const errorLine = logs.lines().find((line) => line.msg === "request failed");
    expect(errorLine).toMatchObject({ level: 50, reqId: requestId, code: "INTERNAL_ERROR" });
    expect(errorLine?.err).toBeDefined();
  });

  test("logs never contain the Authorization header or the API secret", async () => {
    const logs = captureLogs();
    const server = await startServer({ logger: testLogger(logs.stream) });
    server.app.log.info(
      { req: { headers: { authorization: "Basic c2VjcmV0" } }, token: { clientSecret: "s3cr3t" } },
      "probe",
    );
    await server.client.post("/tokens", { name: "ci", permissions: ["VIEW"] });
    await server.client.get("/customers");
    await server.close();
    const text = JSON.stringify(logs.lines());
    expect(text).toContain("[redacted]");
    expect(text).not.toContain(server.platform.clientSecret);
    expect(text).not.toContain("c2VjcmV0");
    expect(text).not.toContain("s3cr3t");
    expect(logs.lines().some((line) => line.msg === "request completed")).toBe(true);
  });
});
