import { p256 } from "@noble/curves/nist.js";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../src/core/clock.js";
import type { Caller } from "../../src/core/http/context.js";
import { oauthIdentity, verifyOauth } from "../../src/wallet-auth/oauth.js";
import { useKeySetTargets } from "../../src/wallet-auth/oidc.js";
import type { AuthMethodRow } from "../../src/wallet-auth/store.js";
import { type Credentials, startServer, type TestServer } from "../harness.js";
import {
  apiError,
  callerOf,
  clientKeyPair,
  heldSession,
  newWalletAccount,
  openSessionKey,
  setWalletAuthConfig,
  signedRequest,
  storeMethod,
} from "./oauth-passkey-fixtures.js";
import { sha256Hex, startTestIssuer, type TestIssuer, unsignedToken } from "./oidc-issuer.js";

// OAUTH credentials (conventions §5.7): production checks the signature against the configured provider's
// JWKS (served here from a loopback server), sandbox skips only the signature; every claim check is a
// 401 naming the claim, a malformed token a 400; verify binds the nonce to clientPublicKey as sent and
// takes each token once.

let server: TestServer;
let issuer: TestIssuer;
let sandbox: Caller;
let production: Caller;
let productionCredentials: Credentials;
// The test issuer serves its key set from loopback, which production key-set fetches refuse
// (ssrf-jwks.test.ts): this file lets them reach it, and puts the policy back when done.
let restoreKeySetTargets: () => void = () => undefined;

beforeAll(async () => {
  restoreKeySetTargets = useKeySetTargets({ allowPrivate: true });
  server = await startServer();
  issuer = await startTestIssuer();
  sandbox = callerOf(server.platform, "SANDBOX");
  productionCredentials = await server.newPlatform("PRODUCTION");
  production = callerOf(productionCredentials, "PRODUCTION");
  await setWalletAuthConfig(server, production.platformId, {
    oidcProviders: [
      { issuer: issuer.issuer, audiences: ["other-client", issuer.audience], jwksUri: issuer.jwksUri },
    ],
  });
});
afterAll(async () => {
  restoreKeySetTargets();
  await issuer?.close();
  await server.close();
});

const identity = (caller: Caller, token: string, now = new Date()) =>
  oauthIdentity(server.deps, caller, token, now);

const nowS = () => Math.floor(Date.now() / 1000);

describe("OIDC token at registration, sandbox (conventions §5.7)", () => {
  test("a JWT-shaped token from an accepted issuer gives nickname (email), issuer, audience, subject; no nonce needed", async () => {
    await expect(identity(sandbox, unsignedToken({}))).resolves.toEqual({
      nickname: "wallet.user@example.com",
      issuer: "https://accounts.google.com",
      audience: "sandbox-client",
      subject: "oidc-subject-1",
    });
  });

  test.each(["https://accounts.google.com", "accounts.google.com", "https://appleid.apple.com"])(
    "sandbox accepts issuer %s",
    async (iss) => {
      await expect(identity(sandbox, unsignedToken({ iss }))).resolves.toMatchObject({ issuer: iss });
    },
  );

  test("without an email claim the nickname is the subject", async () => {
    await expect(identity(sandbox, unsignedToken({ email: undefined }))).resolves.toMatchObject({
      nickname: "oidc-subject-1",
    });
  });

  test("aud may be a one-element array", async () => {
    await expect(identity(sandbox, unsignedToken({ aud: ["only-one"] }))).resolves.toMatchObject({
      audience: "only-one",
    });
  });

  const part = (v: unknown) =>
    Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");
  test.each([
    ["two segments", `${part({ alg: "RS256" })}.${part({ iss: "x" })}`],
    ["four segments", `${part({ alg: "RS256" })}.${part({})}.x.y`],
    ["a payload that is not JSON", `${part({ alg: "RS256" })}.${part("not json")}.sig`],
    ["a header that is not JSON", `${part("nope")}.${part({})}.sig`],
    ["a header without alg", `${part({ typ: "JWT" })}.${part({})}.sig`],
    ["a payload that is a JSON array", `${part({ alg: "RS256" })}.${part([1])}.sig`],
    ["not base64url", "a.b!.c"],
  ])("a malformed token (%s) -> 400 INVALID_INPUT on oidcToken", async (_name, token) => {
    const error = await apiError(() => identity(sandbox, token));
    expect([error.status, error.code]).toEqual([400, "INVALID_INPUT"]);
    expect(error.details?.errors).toEqual([expect.objectContaining({ field: "oidcToken" })]);
  });

  test.each([
    ["iss not an accepted issuer", () => ({ iss: "https://login.example.com" }), /iss/],
    ["iss missing", () => ({ iss: undefined }), /iss/],
    ["aud with two audiences", () => ({ aud: ["a", "b"] }), /aud/],
    ["aud empty", () => ({ aud: "" }), /aud/],
    ["aud missing", () => ({ aud: undefined }), /aud/],
    ["sub empty", () => ({ sub: "" }), /sub/],
    ["sub missing", () => ({ sub: undefined }), /sub/],
    ["iat 61 s old", () => ({ iat: nowS() - 61 }), /iat .*60 s old/],
    // Well past the 5 s allowed: a token minted in one second and checked in the next must still be ahead
    // (the boundary itself is the controlled-clock test below).
    ["iat 60 s ahead", () => ({ iat: nowS() + 60 }), /iat .*future/],
    ["iat missing", () => ({ iat: undefined }), /iat/],
    ["iat not numeric", () => ({ iat: "1700000000" }), /iat/],
    ["exp passed", () => ({ exp: nowS() - 1 }), /exp/],
    ["exp missing", () => ({ exp: undefined }), /exp/],
    ["exp not numeric", () => ({ exp: "soon" }), /exp/],
  ])("%s -> 401 UNAUTHORIZED naming the claim", async (_name, claims, reason) => {
    const error = await apiError(() => identity(sandbox, unsignedToken(claims())));
    expect([error.status, error.code]).toEqual([401, "UNAUTHORIZED"]);
    expect(error.reason).toMatch(reason);
  });

  test("iat up to 60 s old and up to 5 s ahead is fresh (service clock)", async () => {
    const now = new Date("2026-03-01T12:00:00.000Z");
    const deps = { ...server.deps, clock: new ControlledClock(now) };
    const t = now.getTime() / 1000;
    for (const iat of [t - 60, t + 5])
      await expect(
        oauthIdentity(deps, sandbox, unsignedToken({ iat, exp: t + 600 }), now),
      ).resolves.toHaveProperty("subject");
    for (const iat of [t - 60.001, t + 5.001])
      await expect(oauthIdentity(deps, sandbox, unsignedToken({ iat, exp: t + 600 }), now)).rejects.toThrow(
        /iat/,
      );
  });

  test("a sandbox platform's configured provider adds its issuer, with its audiences only", async () => {
    const platform = await server.newPlatform("SANDBOX");
    const caller = callerOf(platform, "SANDBOX");
    await setWalletAuthConfig(server, platform.platformId, {
      oidcProviders: [{ issuer: "https://login.example.com", audiences: ["app-1"], jwksUri: issuer.jwksUri }],
    });
    await expect(
      identity(caller, unsignedToken({ iss: "https://login.example.com", aud: "app-1" })),
    ).resolves.toMatchObject({
      issuer: "https://login.example.com",
    });
    const error = await apiError(() =>
      identity(caller, unsignedToken({ iss: "https://login.example.com", aud: "app-2" })),
    );
    expect(error.reason).toMatch(/aud/);
  });
});

describe("OIDC token at registration, production (conventions §5.7)", () => {
  test("a token signed by the configured provider's key verifies against its JWKS", async () => {
    const before = issuer.fetches();
    await expect(identity(production, await issuer.token())).resolves.toEqual({
      nickname: "wallet.user@example.com",
      issuer: issuer.issuer,
      audience: issuer.audience,
      subject: "oidc-subject-1",
    });
    // The key set is cached across calls (jose refetches only for an unknown kid, at most every 30 s).
    await identity(production, await issuer.token());
    expect(issuer.fetches() - before).toBeLessThanOrEqual(1);
  });

  test("aud is matched against the provider's audiences (any of the token's)", async () => {
    await expect(
      identity(production, await issuer.token({ aud: ["x", issuer.audience] })),
    ).resolves.toMatchObject({
      audience: issuer.audience,
    });
    const error = await apiError(async () =>
      identity(production, await issuer.token({ aud: "someone-else" })),
    );
    expect([error.code, error.reason]).toEqual([
      "UNAUTHORIZED",
      expect.stringMatching(/aud is not an allowed audience/),
    ]);
  });

  test.each([
    [
      "signed by another key under the provider's kid",
      { key: "stranger" as const },
      /signature does not verify/,
    ],
    ["a kid the key set does not hold", { kid: "unknown-kid" }, /no key .* matches/],
  ])("%s -> 401 UNAUTHORIZED (signature)", async (_name, signing, reason) => {
    const error = await apiError(async () => identity(production, await issuer.token({}, signing)));
    expect([error.status, error.code]).toEqual([401, "UNAUTHORIZED"]);
    expect(error.reason).toMatch(reason);
  });

  test("an unsigned (sandbox-style) token from the configured issuer -> 401 (signature)", async () => {
    const token = unsignedToken({ iss: issuer.issuer, aud: issuer.audience });
    const error = await apiError(() => identity(production, token));
    expect(error.reason).toMatch(/signature/);
  });

  test("alg none and HS256 are refused -> 401 (signature)", async () => {
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const claims = { iss: issuer.issuer, aud: issuer.audience, sub: "s", iat: nowS(), exp: nowS() + 60 };
    const none = `${part({ alg: "none" })}.${part(claims)}.`;
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: "test-key-1" })
      .sign(new Uint8Array(32));
    for (const token of [none, hs]) {
      const error = await apiError(() => identity(production, token));
      expect([error.code, error.reason]).toEqual(["UNAUTHORIZED", expect.stringMatching(/signature/)]);
    }
  });

  test("only configured issuers: a Google token on a production platform without Google configured -> 401 (iss)", async () => {
    const error = await apiError(() => identity(production, unsignedToken({})));
    expect(error.reason).toMatch(/iss "https:\/\/accounts.google.com" is not an allowed issuer/);
  });

  test("an unreachable key set -> 401 (signature), not a 500", async () => {
    const platform = await server.newPlatform("PRODUCTION");
    await setWalletAuthConfig(server, platform.platformId, {
      oidcProviders: [
        { issuer: "https://down.example", audiences: ["a"], jwksUri: "http://127.0.0.1:9/jwks.json" },
      ],
    });
    const token = await issuer.token({ iss: "https://down.example", aud: "a" });
    const error = await apiError(() => identity(callerOf(platform, "PRODUCTION"), token));
    expect([error.code, error.reason]).toEqual([
      "UNAUTHORIZED",
      expect.stringMatching(/key set could not be fetched/),
    ]);
  });

  test("claims are still checked after the signature: an old iat -> 401 (iat)", async () => {
    const error = await apiError(async () => identity(production, await issuer.token({ iat: nowS() - 120 })));
    expect(error.reason).toMatch(/iat/);
  });
});

describe("OAUTH verify (conventions §5.7, flow 2)", () => {
  let accountId: string;
  let prodAccountId: string;
  beforeAll(async () => {
    accountId = await newWalletAccount(server.client);
    prodAccountId = await newWalletAccount(server.client.as(productionCredentials));
  });

  async function oauthMethod(caller: Caller, account: string, token: string): Promise<AuthMethodRow> {
    const id = await identity(caller, token);
    return storeMethod(server, {
      platform_id: caller.platformId,
      account_id: account,
      type: "OAUTH",
      nickname: id.nickname,
      oidc_issuer: id.issuer,
      oidc_audience: id.audience,
      oidc_subject: id.subject,
    });
  }

  const verify = (
    caller: Caller,
    method: AuthMethodRow,
    oidcToken: string,
    clientPublicKey: string,
    now = new Date(),
  ) =>
    server.db.transaction((tx) =>
      verifyOauth(tx, server.deps, caller, method, { oidcToken, clientPublicKey }, now),
    );

  test("a fresh token whose nonce is sha256(clientPublicKey) opens a session sealed to that key", async () => {
    const method = await oauthMethod(sandbox, accountId, unsignedToken({}));
    const key = clientKeyPair();
    const session = await verify(
      sandbox,
      method,
      unsignedToken({ nonce: sha256Hex(key.compressed) }),
      key.compressed,
    );
    expect(session).toMatchObject({ accountId, type: "OAUTH", nickname: "wallet.user@example.com" });
    const secret = await openSessionKey(session.encryptedSessionSigningKey as string, key.secretKey);
    const [row] = await server.db.query<{ public_key: string }>(
      "SELECT public_key FROM auth_sessions WHERE id = $1",
      [session.id],
    );
    expect(row?.public_key).toBe(Buffer.from(p256.getPublicKey(secret, true)).toString("hex"));
  });

  test("production: a signed token of the provider, nonce bound to an uncompressed key", async () => {
    const method = await oauthMethod(production, prodAccountId, await issuer.token());
    const key = clientKeyPair();
    const token = await issuer.token({ nonce: sha256Hex(key.uncompressed) });
    const session = await verify(production, method, token, key.uncompressed);
    await expect(
      openSessionKey(session.encryptedSessionSigningKey as string, key.secretKey),
    ).resolves.toHaveLength(32);
    const forged = await issuer.token({ nonce: sha256Hex(key.uncompressed) }, { key: "stranger" });
    const error = await apiError(() => verify(production, method, forged, key.uncompressed));
    expect(error.reason).toMatch(/signature/);
  });

  test("the nonce hashes clientPublicKey exactly as sent: an upper-case key needs the hash of the upper-case text", async () => {
    const method = await oauthMethod(sandbox, accountId, unsignedToken({}));
    const key = clientKeyPair();
    const upper = key.compressed.toUpperCase();
    const wrong = await apiError(() =>
      verify(sandbox, method, unsignedToken({ nonce: sha256Hex(key.compressed) }), upper),
    );
    expect([wrong.code, wrong.reason]).toEqual(["UNAUTHORIZED", expect.stringMatching(/nonce/)]);
    const session = await verify(sandbox, method, unsignedToken({ nonce: sha256Hex(upper) }), upper);
    await expect(
      openSessionKey(session.encryptedSessionSigningKey as string, key.secretKey),
    ).resolves.toHaveLength(32);
  });

  test.each([
    ["nonce missing", () => ({ nonce: undefined }), /nonce/],
    ["nonce of another key", () => ({ nonce: sha256Hex(clientKeyPair().compressed) }), /nonce/],
    ["iss other than the credential's", () => ({ iss: "https://appleid.apple.com" }), /iss does not match/],
    ["aud other than the credential's", () => ({ aud: "another-app" }), /aud does not include/],
    ["sub other than the credential's", () => ({ sub: "someone-else" }), /sub does not match/],
    ["iat too old", () => ({ iat: nowS() - 61 }), /iat/],
    ["exp passed", () => ({ exp: nowS() - 1 }), /exp/],
  ])("%s -> 401 UNAUTHORIZED", async (_name, claims, reason) => {
    const method = await oauthMethod(sandbox, accountId, unsignedToken({}));
    const key = clientKeyPair();
    const token = unsignedToken({ nonce: sha256Hex(key.compressed), ...claims() });
    const error = await apiError(() => verify(sandbox, method, token, key.compressed));
    expect([error.status, error.code]).toEqual([401, "UNAUTHORIZED"]);
    expect(error.reason).toMatch(reason);
  });

  test("every verify needs a fresh token: the same token again -> 401, even for another key's session", async () => {
    const method = await oauthMethod(sandbox, accountId, unsignedToken({}));
    const key = clientKeyPair();
    const token = unsignedToken({ nonce: sha256Hex(key.compressed) });
    await verify(sandbox, method, token, key.compressed);
    const error = await apiError(() => verify(sandbox, method, token, key.compressed));
    expect([error.code, error.reason]).toEqual(["UNAUTHORIZED", expect.stringMatching(/already used/)]);
    // A failed verify does not use the token up.
    const other = clientKeyPair();
    const second = unsignedToken({ nonce: sha256Hex(other.compressed), jti: "second" });
    await apiError(() => verify(sandbox, method, second, clientKeyPair().compressed));
    await expect(verify(sandbox, method, second, other.compressed)).resolves.toHaveProperty("id");
  });

  test("two verifies racing with one token: exactly one session", async () => {
    const method = await oauthMethod(sandbox, accountId, unsignedToken({}));
    const key = clientKeyPair();
    const token = unsignedToken({ nonce: sha256Hex(key.compressed), jti: "race" });
    const results = await Promise.allSettled([
      verify(sandbox, method, token, key.compressed),
      verify(sandbox, method, token, key.compressed),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  test.each([
    ["not hex", "zz".repeat(33)],
    ["too long", `02${"ab".repeat(33)}`],
    ["not on the curve", `04${"00".repeat(64)}`],
  ])("clientPublicKey %s -> 400 INVALID_INPUT on clientPublicKey", async (_name, clientPublicKey) => {
    const method = await oauthMethod(sandbox, accountId, unsignedToken({}));
    const error = await apiError(() =>
      verify(sandbox, method, unsignedToken({ nonce: sha256Hex(clientPublicKey) }), clientPublicKey),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details?.errors).toEqual([expect.objectContaining({ field: "clientPublicKey" })]);
  });
});

describe("OAUTH over HTTP (flows 2, 5, 6, 8)", () => {
  type Session = {
    id: string;
    accountId: string;
    type: string;
    createdAt?: string;
    encryptedSessionSigningKey?: string;
  };
  type Failure = { code: string; reason: string; details?: { errors: { field: string }[] } };

  async function registerHttp(credentials: Credentials, accountId: string, oidcToken: string) {
    const client = server.client.as(credentials);
    const held = await heldSession(server, accountId);
    return signedRequest<{ id: string; nickname: string; type: string }>(
      client,
      "POST",
      "/auth/credentials",
      { type: "OAUTH", accountId, oidcToken },
      held.secretKey,
    );
  }
  const verifyHttp = (credentials: Credentials, id: string, oidcToken: string, clientPublicKey: string) =>
    server.client.as(credentials).post<Session & Failure>(`/auth/credentials/${id}/verify`, {
      type: "OAUTH",
      oidcToken,
      clientPublicKey,
    });

  test("register (202, signed 201), then verify with a fresh token: the recovered key signs the session's own revocation", async () => {
    const wallet = await newWalletAccount(server.client);
    const created = await registerHttp(
      server.platform,
      wallet,
      unsignedToken({ email: "oauth.user@example.com" }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: "OAUTH",
      nickname: "oauth.user@example.com",
      accountId: wallet,
    });

    const key = clientKeyPair();
    const token = unsignedToken({ nonce: sha256Hex(key.compressed) });
    const verified = await verifyHttp(server.platform, created.body.id, token, key.compressed);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ accountId: wallet, type: "OAUTH" });
    const sessionKey = await openSessionKey(
      verified.body.encryptedSessionSigningKey as string,
      key.secretKey,
    );
    const revoked = await signedRequest(
      server.client,
      "DELETE",
      `/auth/sessions/${verified.body.id}`,
      undefined,
      sessionKey,
    );
    expect(revoked.status).toBe(204);
    const sessions = await server.client.get<{ data: { id: string }[] }>(
      `/auth/sessions?accountId=${wallet}`,
    );
    expect(sessions.body.data.map((s) => s.id)).not.toContain(verified.body.id);

    // Every verify needs a fresh token.
    const again = await verifyHttp(server.platform, created.body.id, token, key.compressed);
    expect([again.status, again.body.code, again.body.reason]).toEqual([
      401,
      "UNAUTHORIZED",
      expect.stringMatching(/already used/),
    ]);
  });

  test("verify: a nonce for another key → 401 UNAUTHORIZED (nonce); a malformed token → 400 INVALID_INPUT", async () => {
    const wallet = await newWalletAccount(server.client);
    const created = await registerHttp(server.platform, wallet, unsignedToken({}));
    const key = clientKeyPair();
    const wrong = await verifyHttp(
      server.platform,
      created.body.id,
      unsignedToken({ nonce: sha256Hex(clientKeyPair().compressed) }),
      key.compressed,
    );
    expect([wrong.status, wrong.body.code, wrong.body.reason]).toEqual([
      401,
      "UNAUTHORIZED",
      expect.stringMatching(/nonce/),
    ]);
    const malformed = await verifyHttp(server.platform, created.body.id, "not.a-jwt", key.compressed);
    expect([malformed.status, malformed.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(malformed.body.details?.errors.map((e) => e.field)).toEqual(["oidcToken"]);
  });

  test("create: a malformed token → 400, a failed claim → 401 UNAUTHORIZED, both on the first call", async () => {
    const wallet = await newWalletAccount(server.client);
    const post = (oidcToken: string) =>
      server.client.post<Failure>("/auth/credentials", { type: "OAUTH", accountId: wallet, oidcToken });
    const malformed = await post("abc");
    expect([malformed.status, malformed.body.code]).toEqual([400, "INVALID_INPUT"]);
    const stale = await post(unsignedToken({ iat: nowS() - 3600 }));
    expect([stale.status, stale.body.code, stale.body.reason]).toEqual([
      401,
      "UNAUTHORIZED",
      expect.stringMatching(/iat/),
    ]);
  });

  test("a sandbox platform whose clock was moved still takes tokens stamped with real time", async () => {
    const platform = await server.newPlatform("SANDBOX");
    const wallet = await newWalletAccount(server.client.as(platform));
    const created = await registerHttp(platform, wallet, unsignedToken({}));
    expect(created.status).toBe(201);
    // The provider's iat knows nothing of the platform clock (3 days ahead now).
    const advanced = await server.client.as(platform).post("/sandbox/clock/advance", {
      to: new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString(),
    });
    expect(advanced.status).toBe(200);
    const key = clientKeyPair();
    const token = unsignedToken({ nonce: sha256Hex(key.compressed) });
    const verified = await verifyHttp(platform, created.body.id, token, key.compressed);
    expect(verified.status, verified.text).toBe(200);
    expect(Date.parse(verified.body.createdAt as string)).toBeGreaterThan(Date.now() + 2 * 24 * 3600 * 1000);
  });

  test("production: registration and verify check the provider's signature", async () => {
    const wallet = await newWalletAccount(server.client.as(productionCredentials));
    const forged = await server.client.as(productionCredentials).post<Failure>("/auth/credentials", {
      type: "OAUTH",
      accountId: wallet,
      oidcToken: await issuer.token({}, { key: "stranger" }),
    });
    expect([forged.status, forged.body.reason]).toEqual([401, expect.stringMatching(/signature/)]);
    const created = await registerHttp(productionCredentials, wallet, await issuer.token());
    expect(created.status).toBe(201);
    const key = clientKeyPair();
    const verified = await verifyHttp(
      productionCredentials,
      created.body.id,
      await issuer.token({ nonce: sha256Hex(key.compressed) }),
      key.compressed,
    );
    expect(verified.status).toBe(200);
    await expect(
      openSessionKey(verified.body.encryptedSessionSigningKey as string, key.secretKey),
    ).resolves.toHaveLength(32);
  });
});
