import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseSettings } from "../../src/config.js";
import { startServer, type TestServer } from "../harness.js";
import { type OutboundApp, startOutboundApp } from "./ssrf-helpers.js";

// Issue 16 item 2, at PATCH /config: a webhook endpoint that names a loopback, private, link-local,
// CGNAT, ULA, IPv4-mapped or unspecified address is refused for production platforms, and for sandbox
// platforms unless the service allows private targets; credentials in the URL are refused everywhere.

type Failure = { code: string; details?: { errors: { field: string; message: string }[] } };

let server: TestServer;
let privateOff: OutboundApp;
beforeAll(async () => {
  server = await startServer();
  privateOff = await startOutboundApp(server, { allowPrivateTargets: false });
});
afterAll(async () => {
  await privateOff?.close();
  await server.close();
});

async function patchEndpoint(environment: "SANDBOX" | "PRODUCTION", webhookEndpoint: string) {
  const client = server.client.as(await server.newPlatform(environment));
  return client.patch<Failure & { webhookEndpoint?: string }>("/config", { webhookEndpoint });
}

const refusedHosts = [
  ["loopback 127.0.0.1", "https://127.0.0.1/hooks"],
  ["localhost", "https://localhost:8443/hooks"],
  ["a subdomain of localhost", "https://api.localhost/hooks"],
  ["IPv6 loopback [::1]", "https://[::1]/hooks"],
  ["the cloud metadata address 169.254.169.254", "https://169.254.169.254/latest/meta-data/"],
  ["private 10.x", "https://10.0.0.5/hooks"],
  ["private 172.16.x", "https://172.16.0.1/hooks"],
  ["private 192.168.x", "https://192.168.1.1/hooks"],
  ["CGNAT 100.64.x", "https://100.64.0.1/hooks"],
  ["IPv6 ULA fc00::/7", "https://[fd12:3456::1]/hooks"],
  ["IPv4-mapped ::ffff:127.0.0.1", "https://[::ffff:127.0.0.1]/hooks"],
  ["the unspecified 0.0.0.0", "https://0.0.0.0/hooks"],
  ["loopback written as one number (2130706433)", "https://2130706433/hooks"],
  ["loopback written in hex (0x7f.1)", "https://0x7f.1/hooks"],
] as const;

describe("webhookEndpoint at PATCH /config (issue 16: no server-side request forgery)", () => {
  test.each(refusedHosts)(
    "a production platform's webhook endpoint at %s -> 400 INVALID_INPUT on webhookEndpoint",
    async (_name, url) => {
      const res = await patchEndpoint("PRODUCTION", url);
      expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
      expect(res.body.details?.errors.map((e) => e.field)).toEqual(["webhookEndpoint"]);
      expect(res.body.details?.errors[0]?.message).toMatch(/public address/);
    },
  );

  test("a production platform's webhook endpoint at a public name is accepted (its address is checked at connect time)", async () => {
    const res = await patchEndpoint("PRODUCTION", "https://hooks.example.test/paysvc");
    expect([res.status, res.body.webhookEndpoint]).toEqual([200, "https://hooks.example.test/paysvc"]);
  });

  test.each([
    ["PRODUCTION", "https://user:secret@hooks.example.test/hooks"],
    ["PRODUCTION", "https://token@hooks.example.test/hooks"],
    ["SANDBOX", "http://user:secret@127.0.0.1:9/hooks"],
  ] as const)(
    "userinfo in a webhook URL is refused (%s: %s) -> 400 INVALID_INPUT",
    async (environment, url) => {
      const res = await patchEndpoint(environment, url);
      expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
      expect(res.body.details?.errors).toEqual([
        { field: "webhookEndpoint", message: expect.stringMatching(/credentials/) },
      ]);
    },
  );

  test("a sandbox platform may target loopback while the service allows private targets (the default on loopback)", async () => {
    // Loopback only: the TEST event each change sends must not leave this machine.
    for (const url of ["http://127.0.0.1:9/hooks", "http://localhost:9/hooks", "http://[::1]:9/hooks"]) {
      const res = await patchEndpoint("SANDBOX", url);
      expect([res.status, res.body.webhookEndpoint]).toEqual([200, url]);
    }
  });

  test("a sandbox platform may not target link-local (metadata) or 0.0.0.0 even while private targets are allowed", async () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://0.0.0.0:9/hooks"]) {
      const res = await patchEndpoint("SANDBOX", url);
      expect([res.status, res.body.details?.errors[0]?.field]).toEqual([400, "webhookEndpoint"]);
    }
  });

  test("a sandbox platform may not target loopback while the service does not allow private targets", async () => {
    const { client } = await privateOff.newPlatform("SANDBOX");
    for (const url of ["http://127.0.0.1:9/hooks", "http://localhost:9/hooks", "http://[::1]:9/hooks"]) {
      const res = await client.patch<Failure>("/config", { webhookEndpoint: url });
      expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
      expect(res.body.details?.errors.map((e) => e.field)).toEqual(["webhookEndpoint"]);
    }
  });
});

describe("PAYSVC_ALLOW_PRIVATE_TARGETS (issue 16)", () => {
  const allow = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
    parseSettings(["start", ...argv], env).allowPrivateTargets;

  test("allow-private-targets defaults to on when the service listens on loopback, off otherwise", () => {
    expect(allow([])).toBe(true);
    expect(allow(["--host", "127.0.0.1"])).toBe(true);
    expect(allow(["--host", "localhost"])).toBe(true);
    expect(allow([], { HOST: "::1" })).toBe(true);
    expect(allow(["--host", "0.0.0.0"])).toBe(false);
    expect(allow(["--host", "10.1.2.3"])).toBe(false);
  });

  test("an explicit PAYSVC_ALLOW_PRIVATE_TARGETS overrides the default; anything but a boolean is refused", () => {
    expect(allow([], { PAYSVC_ALLOW_PRIVATE_TARGETS: "false" })).toBe(false);
    expect(allow(["--host", "0.0.0.0"], { PAYSVC_ALLOW_PRIVATE_TARGETS: "true" })).toBe(true);
    expect(() => allow([], { PAYSVC_ALLOW_PRIVATE_TARGETS: "maybe" })).toThrow(/allowPrivateTargets/);
  });
});
