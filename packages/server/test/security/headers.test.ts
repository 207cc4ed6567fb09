import { generateP256KeyPair } from "@turnkey/crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { sessionFor, signedCall, walletCustomer } from "../wallet-auth/session-fixture.js";

// Issue 16 item 9: the docs page cannot be framed or run foreign scripts; answers that carry a secret
// are never cached.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("security headers", () => {
  test("/docs carries a Content-Security-Policy with frame-ancestors 'none', and X-Frame-Options DENY", async () => {
    for (const path of ["/docs", "/docs/static/index.html"]) {
      const res = await fetch(`${server.origin}${path}`, { redirect: "manual" });
      expect(res.status, path).toBeLessThan(400);
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      if (res.status === 200) {
        const csp = res.headers.get("content-security-policy") ?? "";
        expect(csp, path).toContain("frame-ancestors 'none'");
        expect(csp, path).not.toContain("frame-ancestors 'self'");
        expect(csp, path).toMatch(/script-src [^;]*'self'/);
      }
    }
  });

  test("POST /tokens, whose answer holds the client secret, is Cache-Control: no-store", async () => {
    const res = await server.client.post<{ clientSecret: string }>("/tokens", {
      name: "ci",
      permissions: ["VIEW"],
    });
    expect(res.status).toBe(201);
    expect(res.body.clientSecret).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  test("the wallet export, whose answer holds the encrypted credentials, is Cache-Control: no-store", async () => {
    const { accountId } = await walletCustomer(server.client);
    const session = await sessionFor(server, accountId);
    const body = { clientPublicKey: generateP256KeyPair().publicKeyUncompressed };
    const { result } = await signedCall(
      server.client,
      "POST",
      `/internal-accounts/${accountId}/export`,
      body,
      session,
    );
    expect(result.status).toBe(200);
    expect(result.headers.get("cache-control")).toBe("no-store");
  });
});
