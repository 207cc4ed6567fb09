import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  cachedKeySetCount,
  checkOidcToken,
  MAX_CACHED_KEY_SETS,
  useKeySetTargets,
} from "../../src/wallet-auth/oidc.js";
import { startServer, type TestServer } from "../harness.js";
import { newWalletAccount, setWalletAuthConfig } from "./oauth-passkey-fixtures.js";
import { startTestIssuer, type TestIssuer } from "./oidc-issuer.js";

// Issue 16 item 2 for `walletAuthConfig.oidcProviders[].jwksUri`: the same refusals as a webhook
// endpoint at PATCH /config, the same check of the resolved address when a production platform's key
// set is fetched, and a bounded key-set cache.

type Failure = { code: string; reason: string; details?: { errors: { field: string; message: string }[] } };

let server: TestServer;
let issuer: TestIssuer;
beforeAll(async () => {
  server = await startServer();
  issuer = await startTestIssuer();
});
afterAll(async () => {
  await issuer?.close();
  await server.close();
});

const field = "walletAuthConfig.oidcProviders[0].jwksUri";

describe("jwksUri at PATCH /config (issue 16)", () => {
  test.each([
    ["loopback 127.0.0.1", "https://127.0.0.1/jwks.json"],
    ["loopback over http", "http://127.0.0.1:9/jwks.json"],
    ["localhost", "https://localhost/jwks.json"],
    ["IPv6 loopback [::1]", "https://[::1]/jwks.json"],
    ["the cloud metadata address 169.254.169.254", "https://169.254.169.254/latest/meta-data/"],
    ["private 10.x", "https://10.1.2.3/jwks.json"],
    ["private 172.16.x", "https://172.16.5.4/jwks.json"],
    ["private 192.168.x", "https://192.168.0.10/jwks.json"],
    ["CGNAT 100.64.x", "https://100.64.1.1/jwks.json"],
    ["IPv6 ULA fc00::/7", "https://[fc00::1]/jwks.json"],
    ["IPv4-mapped ::ffff:127.0.0.1", "https://[::ffff:127.0.0.1]/jwks.json"],
    ["the unspecified 0.0.0.0", "https://0.0.0.0/jwks.json"],
    ["userinfo", "https://user:secret@login.example.test/jwks.json"],
  ])("a production platform's jwksUri at %s -> 400 INVALID_INPUT on the jwksUri", async (_name, jwksUri) => {
    const client = server.client.as(await server.newPlatform("PRODUCTION"));
    const res = await client.patch<Failure>("/config", {
      walletAuthConfig: {
        oidcProviders: [{ issuer: "https://login.example.test", audiences: ["a"], jwksUri }],
      },
    });
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual([field]);
  });

  test("a production platform's jwksUri at a public https name is accepted", async () => {
    const client = server.client.as(await server.newPlatform("PRODUCTION"));
    const provider = {
      issuer: "https://login.example.test",
      audiences: ["a"],
      jwksUri: "https://login.example.test/jwks",
    };
    const res = await client.patch("/config", { walletAuthConfig: { oidcProviders: [provider] } });
    expect(res.status).toBe(200);
  });
});

describe("key-set fetch of a production platform (issue 16)", () => {
  /** POST /auth/credentials (OAUTH) checks the token, and so fetches the key set, on the first call. */
  async function registerWith(jwksUri: string) {
    const platform = await server.newPlatform("PRODUCTION");
    const client = server.client.as(platform);
    await setWalletAuthConfig(server, platform.platformId, {
      oidcProviders: [{ issuer: issuer.issuer, audiences: [issuer.audience], jwksUri }],
    });
    const accountId = await newWalletAccount(client);
    return client.post<Failure>("/auth/credentials", {
      type: "OAUTH",
      accountId,
      oidcToken: await issuer.token(),
    });
  }

  test.each([
    ["a loopback address stored before the rule", (port: string) => `http://127.0.0.1:${port}/jwks.json`],
    ["localhost, stored before the rule", (port: string) => `http://localhost:${port}/jwks.json`],
  ])("a key set at %s is never fetched: 401 UNAUTHORIZED (signature)", async (_name, uri) => {
    const before = issuer.fetches();
    const res = await registerWith(uri(new URL(issuer.jwksUri).port));
    expect([res.status, res.body.code]).toEqual([401, "UNAUTHORIZED"]);
    expect(res.body.reason).toMatch(/key set could not be fetched/);
    expect(issuer.fetches()).toBe(before);
  });
});

describe("the OIDC key-set cache is bounded (issue 16)", () => {
  const verifyWith = async (jwksUri: string) =>
    checkOidcToken(await issuer.token(), {
      environment: "PRODUCTION",
      config: { oidcProviders: [{ issuer: issuer.issuer, audiences: [issuer.audience], jwksUri }] },
      now: new Date(),
    });

  test("the key-set cache holds at most MAX_CACHED_KEY_SETS sets and evicts the least recently used", async () => {
    // The issuer is on loopback: widened for this test only. A fragment makes each URI its own cache
    // entry while every fetch reaches the same document.
    const restore = useKeySetTargets({ allowPrivate: true });
    try {
      const uri = (n: number) => `${issuer.jwksUri}#cache-${n}`;
      const start = issuer.fetches();
      for (let n = 0; n < MAX_CACHED_KEY_SETS; n++) await verifyWith(uri(n));
      await verifyWith(uri(0)); // a hit: set 0 becomes the most recently used
      await verifyWith(uri(MAX_CACHED_KEY_SETS)); // one more set: the least recently used (1) goes
      expect(issuer.fetches() - start).toBe(MAX_CACHED_KEY_SETS + 1);
      expect(cachedKeySetCount()).toBe(MAX_CACHED_KEY_SETS);
      await verifyWith(uri(0));
      expect(issuer.fetches() - start).toBe(MAX_CACHED_KEY_SETS + 1);
      await verifyWith(uri(1));
      expect(issuer.fetches() - start).toBe(MAX_CACHED_KEY_SETS + 2);
    } finally {
      restore();
    }
  });
});
