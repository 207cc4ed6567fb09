import { p256 } from "@noble/curves/nist.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { canonicalJson, sha256Hex } from "../../src/core/hash.js";
import type { Caller } from "../../src/core/http/context.js";
import {
  type PasskeyRegistration,
  passkeyChallenge,
  passkeyFromAttestation,
  verifyPasskey,
} from "../../src/wallet-auth/passkey.js";
import type { AuthSession } from "../../src/wallet-auth/schemas.js";
import type { AuthMethodRow } from "../../src/wallet-auth/store.js";
import { startServer, type TestServer } from "../harness.js";
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
import { type Assertion, b64url, FLAG_AT, FLAG_UV, SoftAuthenticator } from "./webauthn-authenticator.js";

// PASSKEY credentials (conventions §5.6): registration from a `none` attestation, the challenge bound to
// the client key, and each check of the assertion, against the real database and real WebAuthn bytes.

let server: TestServer;
let caller: Caller;
let accountId: string;

beforeAll(async () => {
  server = await startServer();
  caller = callerOf(server.platform, "SANDBOX");
  accountId = await newWalletAccount(server.client);
});
afterAll(() => server.close());

const registrationChallenge = () => b64url(crypto.getRandomValues(new Uint8Array(32)));

function registration(
  authenticator: SoftAuthenticator,
  bend: Parameters<SoftAuthenticator["register"]>[1] = {},
) {
  const challenge = registrationChallenge();
  return { nickname: "Laptop", challenge, attestation: authenticator.register(challenge, bend) };
}

/** A passkey registered through passkeyFromAttestation and stored as the create route stores it. */
async function enrolled(authenticator = new SoftAuthenticator()): Promise<AuthMethodRow> {
  const passkey = await passkeyFromAttestation(server.deps, caller, registration(authenticator));
  return storeMethod(server, {
    platform_id: caller.platformId,
    account_id: accountId,
    type: "PASSKEY",
    nickname: "Laptop",
    credential_id: passkey.credentialId,
    passkey_public_key: passkey.publicKey,
    passkey_counter: passkey.counter,
    passkey_transports: passkey.transports,
  });
}

const challengeFor = (method: AuthMethodRow, clientPublicKey: string, now = new Date()) =>
  server.db.transaction(
    (tx) =>
      passkeyChallenge(tx, server.deps, caller, method, clientPublicKey, now) as Promise<{
        challenge: string;
        requestId: string;
        expiresAt: string;
        [field: string]: unknown;
      }>,
  );

const verify = (
  method: AuthMethodRow,
  assertion: Partial<Assertion>,
  requestId: string | undefined,
  now = new Date(),
) =>
  server.db.transaction(
    (tx): Promise<AuthSession> =>
      verifyPasskey(tx, server.deps, caller, method, { assertion }, requestId, now),
  );

const reloaded = async (method: AuthMethodRow) =>
  (
    await server.db.query<AuthMethodRow>("SELECT * FROM auth_methods WHERE id = $1", [method.id])
  )[0] as AuthMethodRow;

describe("passkey registration (conventions §5.6)", () => {
  test("a none attestation over the body's challenge gives the credential id, COSE key, counter and transports", async () => {
    const authenticator = new SoftAuthenticator();
    const passkey = await passkeyFromAttestation(server.deps, caller, registration(authenticator));
    expect(passkey.credentialId).toBe(authenticator.id);
    expect(Buffer.from(passkey.publicKey, "base64url")).toEqual(Buffer.from(authenticator.coseKey()));
    expect(passkey.counter).toBe(0);
    expect(passkey.transports).toEqual(["internal"]);
  });

  test("the body's challenge must equal clientDataJson.challenge -> 400 INVALID_INPUT on challenge", async () => {
    const reg = registration(new SoftAuthenticator());
    const error = await apiError(() =>
      passkeyFromAttestation(server.deps, caller, { ...reg, challenge: registrationChallenge() }),
    );
    expect(error.status).toBe(400);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details?.errors).toEqual([expect.objectContaining({ field: "challenge" })]);
  });

  const bent: [string, Parameters<SoftAuthenticator["register"]>[1], string, RegExp][] = [
    [
      "clientDataJson type webauthn.get",
      { type: "webauthn.get" },
      "attestation.clientDataJson",
      /webauthn\.create/,
    ],
    [
      "an origin outside localhost (sandbox default)",
      { origin: "https://evil.example" },
      "attestation.clientDataJson",
      /origin/,
    ],
    ["another RP ID", { rpId: "example.com" }, "attestation.attestationObject", /RP ID/],
    ["no user presence", { flags: FLAG_UV | FLAG_AT }, "attestation.attestationObject", /user-presence/],
  ];
  test.each(bent)("%s -> 400 INVALID_INPUT", async (_name, bend, field, message) => {
    const error = await apiError(() =>
      passkeyFromAttestation(server.deps, caller, registration(new SoftAuthenticator(), bend)),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details?.errors).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  test("attestation.credentialId must be the id inside the attestation object", async () => {
    const reg = registration(new SoftAuthenticator());
    const other = new SoftAuthenticator();
    const error = await apiError(() =>
      passkeyFromAttestation(server.deps, caller, {
        ...reg,
        attestation: { ...reg.attestation, credentialId: other.id },
      }),
    );
    expect(error.details?.errors).toEqual([expect.objectContaining({ field: "attestation.credentialId" })]);
  });

  test.each([
    ["clientDataJson", "bm90IGpzb24"],
    ["attestationObject", "AAAA"],
    ["credentialId", "not base64url!"],
  ] as const)("undecodable attestation.%s -> 400 INVALID_INPUT on it", async (field, value) => {
    const reg = registration(new SoftAuthenticator());
    const error = await apiError(() =>
      passkeyFromAttestation(server.deps, caller, {
        ...reg,
        attestation: { ...reg.attestation, [field]: value },
      } as PasskeyRegistration),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details?.errors).toEqual([expect.objectContaining({ field: `attestation.${field}` })]);
  });

  test("an attestation statement that does not verify (fmt none with a statement) -> 400", async () => {
    const authenticator = new SoftAuthenticator();
    const challenge = registrationChallenge();
    const good = authenticator.register(challenge);
    // Re-encode the attestation object with a non-empty attStmt, which `none` forbids.
    const { cbor } = await import("./webauthn-authenticator.js");
    const { decodeAttestationObject } = await import("@simplewebauthn/server/helpers");
    const authData = decodeAttestationObject(
      new Uint8Array(Buffer.from(good.attestationObject, "base64url")),
    ).get("authData");
    const tampered = cbor(
      new Map<never, never>([
        ["fmt" as never, "none" as never],
        ["attStmt" as never, new Map([["sig", new Uint8Array(8)]]) as never],
        ["authData" as never, authData as never],
      ]),
    );
    const error = await apiError(() =>
      passkeyFromAttestation(server.deps, caller, {
        nickname: "x",
        challenge,
        attestation: { ...good, attestationObject: b64url(tampered) },
      }),
    );
    expect(error.details?.errors).toEqual([
      { field: "attestation.attestationObject", message: expect.stringMatching(/does not verify/) },
    ]);
  });

  test("a production platform needs walletAuthConfig.passkey; then its RP ID and origins apply", async () => {
    const production = await server.newPlatform("PRODUCTION");
    const prodCaller = callerOf(production, "PRODUCTION");
    const rp = { rpId: "wallet.example.com", origin: "https://app.wallet.example.com" };
    const reg = () => registration(new SoftAuthenticator(rp));
    const missing = await apiError(() => passkeyFromAttestation(server.deps, prodCaller, reg()));
    expect(missing.details?.errors).toEqual([
      { field: "attestation", message: expect.stringMatching(/walletAuthConfig\.passkey/) },
    ]);
    await setWalletAuthConfig(server, production.platformId, {
      passkey: { rpId: rp.rpId, origins: [rp.origin] },
    });
    await expect(passkeyFromAttestation(server.deps, prodCaller, reg())).resolves.toMatchObject({
      counter: 0,
    });
    // localhost is only the sandbox default
    const local = await apiError(() =>
      passkeyFromAttestation(server.deps, prodCaller, registration(new SoftAuthenticator())),
    );
    expect(local.details?.errors).toEqual([expect.objectContaining({ field: "attestation.clientDataJson" })]);
  });
});

describe("passkey challenge (conventions §5.6)", () => {
  test("challenge = sha256 hex of canonical {accountId, authMethodId, clientPublicKey, expiresAt, requestId}, 5 minutes, single use", async () => {
    const method = await enrolled();
    const key = clientKeyPair();
    const now = new Date("2026-03-01T12:00:00.000Z");
    const upper = key.compressed.toUpperCase();
    const answer = await challengeFor(method, upper, now);
    expect(answer).toMatchObject({
      id: method.id,
      accountId,
      type: "PASSKEY",
      nickname: "Laptop",
      credentialId: method.credential_id,
      requestId: expect.stringMatching(/^Request:[0-9a-f-]{36}$/),
      expiresAt: "2026-03-01T12:05:00.000Z",
    });
    expect(answer.challenge).toBe(
      sha256Hex(
        canonicalJson({
          accountId,
          authMethodId: method.id,
          clientPublicKey: key.compressed,
          expiresAt: answer.expiresAt,
          requestId: answer.requestId,
        }),
      ),
    );
    const [row] = await server.db.query<{
      action: string;
      state: string;
      expires_at: Date;
      context: unknown;
    }>("SELECT action, state, expires_at, context FROM signed_requests WHERE id = $1", [answer.requestId]);
    expect(row).toMatchObject({
      action: "PASSKEY_AUTH",
      state: "ISSUED",
      expires_at: new Date(answer.expiresAt),
    });
    expect(row?.context).toMatchObject({ clientPublicKey: key.compressed, authMethodId: method.id });
  });

  test.each([
    ["missing", undefined],
    ["not hex", "zz".repeat(33)],
    ["wrong prefix", `05${"11".repeat(32)}`],
    ["too short", `02${"11".repeat(31)}`],
    ["not a curve point", `04${"00".repeat(64)}`],
  ])("clientPublicKey %s -> 400 INVALID_INPUT on clientPublicKey", async (_name, value) => {
    const method = await enrolled();
    const error = await apiError(() => challengeFor(method, value as string));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details?.errors).toEqual([expect.objectContaining({ field: "clientPublicKey" })]);
  });
});

describe("passkey verify (conventions §5.6, §5.8)", () => {
  test("a valid assertion opens a session whose key, sealed to clientPublicKey, is the session's key", async () => {
    const authenticator = new SoftAuthenticator();
    const method = await enrolled(authenticator);
    const key = clientKeyPair();
    const { challenge, requestId } = await challengeFor(method, key.uncompressed);
    const session = await verify(method, authenticator.assert(challenge), requestId);
    expect(session).toMatchObject({ accountId, type: "PASSKEY", nickname: "Laptop" });
    const secret = await openSessionKey(session.encryptedSessionSigningKey as string, key.secretKey);
    const [row] = await server.db.query<{ public_key: string; auth_method_id: string }>(
      "SELECT public_key, auth_method_id FROM auth_sessions WHERE id = $1",
      [session.id],
    );
    expect(row?.public_key).toBe(Buffer.from(p256.getPublicKey(secret, true)).toString("hex"));
    expect(row?.auth_method_id).toBe(method.id);
    expect((await reloaded(method)).passkey_counter).toBe(1);
    const [request] = await server.db.query<{ state: string }>(
      "SELECT state FROM signed_requests WHERE id = $1",
      [requestId],
    );
    expect(request?.state).toBe("ANSWERED");
  });

  test("each login needs a new challenge: a used one -> 401 UNAUTHORIZED", async () => {
    const authenticator = new SoftAuthenticator();
    const method = await enrolled(authenticator);
    const { challenge, requestId } = await challengeFor(method, clientKeyPair().compressed);
    await verify(method, authenticator.assert(challenge), requestId);
    const error = await apiError(() =>
      verify(reloadedSync(method, 1), authenticator.assert(challenge), requestId),
    );
    expect([error.status, error.code]).toEqual([401, "UNAUTHORIZED"]);
    expect(error.reason).toMatch(/already used/);
  });

  test("a challenge answered after its 5 minutes -> 401 UNAUTHORIZED (expired)", async () => {
    const authenticator = new SoftAuthenticator();
    const method = await enrolled(authenticator);
    const issued = new Date();
    const { challenge, requestId } = await challengeFor(method, clientKeyPair().compressed, issued);
    const late = new Date(issued.getTime() + 5 * 60 * 1000 + 1);
    const error = await apiError(() => verify(method, authenticator.assert(challenge), requestId, late));
    expect(error.code).toBe("UNAUTHORIZED");
    expect(error.reason).toMatch(/expired/);
    // on time it still works
    const onTime = new Date(issued.getTime() + 5 * 60 * 1000);
    await expect(verify(method, authenticator.assert(challenge), requestId, onTime)).resolves.toHaveProperty(
      "id",
    );
  });

  test("no Request-Id -> 401 REQUEST_ID_MISSING", async () => {
    const authenticator = new SoftAuthenticator();
    const method = await enrolled(authenticator);
    const { challenge } = await challengeFor(method, clientKeyPair().compressed);
    for (const header of [undefined, ""]) {
      const error = await apiError(() => verify(method, authenticator.assert(challenge), header));
      expect([error.status, error.code]).toEqual([401, "REQUEST_ID_MISSING"]);
    }
  });

  test("an unknown, malformed or other credential's Request-Id -> 404 REQUEST_NOT_FOUND", async () => {
    const authenticator = new SoftAuthenticator();
    const method = await enrolled(authenticator);
    const other = await enrolled();
    const { challenge } = await challengeFor(method, clientKeyPair().compressed);
    const foreign = await challengeFor(other, clientKeyPair().compressed);
    for (const header of ["Request:0190b0a4-0000-7000-8000-000000000001", "nonsense", foreign.requestId]) {
      const error = await apiError(() => verify(method, authenticator.assert(challenge), header));
      expect([error.status, error.code]).toEqual([404, "REQUEST_NOT_FOUND"]);
    }
  });

  test("a challenge of another platform -> 404 REQUEST_NOT_FOUND", async () => {
    const authenticator = new SoftAuthenticator();
    const method = await enrolled(authenticator);
    const { challenge, requestId } = await challengeFor(method, clientKeyPair().compressed);
    const otherPlatform = await server.newPlatform();
    const error = await apiError(() =>
      server.db.transaction((tx) =>
        verifyPasskey(
          tx,
          server.deps,
          callerOf(otherPlatform, "SANDBOX"),
          method,
          { assertion: { ...authenticator.assert(challenge) } },
          requestId,
          new Date(),
        ),
      ),
    );
    expect(error.code).toBe("REQUEST_NOT_FOUND");
  });

  const failures: [string, (a: SoftAuthenticator, challenge: string) => Partial<Assertion>, RegExp][] = [
    [
      "the credential id is not this AuthMethod's",
      (_a, c) => new SoftAuthenticator().assert(c),
      /credential id/,
    ],
    [
      "clientDataJson type webauthn.create",
      (a, c) => a.assert(c, { type: "webauthn.create" }),
      /webauthn\.get/,
    ],
    ["another challenge", (a, _c) => a.assert("f".repeat(64)), /challenge/],
    [
      "the challenge not UTF-8 encoded as hex text",
      (a, c) => a.assert(c, { challengeOverride: b64url(Buffer.from(c, "hex")) }),
      /challenge/,
    ],
    [
      "an origin that is not allowed",
      (a, c) => a.assert(c, { origin: "https://localhost.evil.example" }),
      /origin/,
    ],
    ["another RP ID", (a, c) => a.assert(c, { rpId: "example.com" }), /RP ID/],
    ["no user presence", (a, c) => a.assert(c, { flags: FLAG_UV }), /user-presence/],
    [
      "a signature by another key",
      (a, c) => ({ ...a.assert(c), signature: new SoftAuthenticator().assert(c).signature }),
      /signature/,
    ],
    [
      "a signature over other data",
      (a, c) => ({
        ...a.assert(c),
        clientDataJson: a.assert(c, { clientDataExtra: { extra: 1 } }).clientDataJson,
      }),
      /signature/,
    ],
  ];
  test.each(failures)("%s -> 401 UNAUTHORIZED naming the check", async (_name, make, reason) => {
    const authenticator = new SoftAuthenticator();
    const method = await enrolled(authenticator);
    const { challenge, requestId } = await challengeFor(method, clientKeyPair().compressed);
    const error = await apiError(() => verify(method, make(authenticator, challenge), requestId));
    expect([error.status, error.code]).toEqual([401, "UNAUTHORIZED"]);
    expect(error.reason).toMatch(reason);
    // nothing was used up or counted
    expect((await reloaded(method)).passkey_counter).toBe(0);
    await expect(verify(method, authenticator.assert(challenge), requestId)).resolves.toHaveProperty("id");
  });

  test("the sign counter must increase when non-zero; an authenticator without a counter (always 0) is accepted", async () => {
    const authenticator = new SoftAuthenticator();
    const method = await enrolled(authenticator);
    const login = async (counter: number | undefined, m = method) => {
      const { challenge, requestId } = await challengeFor(m, clientKeyPair().compressed);
      return verify(m, authenticator.assert(challenge, counter === undefined ? {} : { counter }), requestId);
    };
    await login(5);
    expect((await reloaded(method)).passkey_counter).toBe(5);
    for (const counter of [5, 4, 0]) {
      const error = await apiError(() => login(counter, reloadedSync(method, 5)));
      expect(error.code).toBe("UNAUTHORIZED");
      expect(error.reason).toMatch(/counter/);
    }
    await login(6, reloadedSync(method, 5));

    const counterless = new SoftAuthenticator({
      rpId: "localhost",
      origin: "http://localhost:3000",
      counterStep: 0,
    });
    const zero = await enrolled(counterless);
    for (let i = 0; i < 2; i++) {
      const { challenge, requestId } = await challengeFor(zero, clientKeyPair().compressed);
      await expect(verify(zero, counterless.assert(challenge), requestId)).resolves.toHaveProperty("id");
    }
  });

  test.each([
    ["clientDataJson", "%%%"],
    ["authenticatorData", "AAAA"],
    ["signature", 42],
  ])("an undecodable assertion.%s -> 400 INVALID_INPUT", async (field, value) => {
    const authenticator = new SoftAuthenticator();
    const method = await enrolled(authenticator);
    const { challenge, requestId } = await challengeFor(method, clientKeyPair().compressed);
    const error = await apiError(() =>
      verify(method, { ...authenticator.assert(challenge), [field]: value } as Assertion, requestId),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details?.errors).toEqual([expect.objectContaining({ field: `assertion.${field}` })]);
  });
});

/** The row as verify would read it after a login moved the counter (the route reads it fresh each call). */
function reloadedSync(method: AuthMethodRow, counter: number): AuthMethodRow {
  return { ...method, passkey_counter: counter };
}

describe("PASSKEY over HTTP (flows 3, 4, 6, 8)", () => {
  type Challenge = {
    id: string;
    challenge: string;
    requestId: string;
    expiresAt: string;
    credentialId: string;
  };
  type Session = { id: string; accountId: string; type: string; encryptedSessionSigningKey?: string };

  async function register(accountId: string, signer: Uint8Array, authenticator = new SoftAuthenticator()) {
    const challenge = registrationChallenge();
    const body = {
      type: "PASSKEY",
      accountId,
      nickname: " Work laptop ",
      challenge,
      attestation: authenticator.register(challenge),
    };
    return signedRequest<{ id: string; credentialId: string; nickname: string }>(
      server.client,
      "POST",
      "/auth/credentials",
      body,
      signer,
    );
  }

  const challenge = (id: string, clientPublicKey?: string) =>
    server.client.post<Challenge>(
      `/auth/credentials/${id}/challenge`,
      clientPublicKey === undefined ? undefined : { clientPublicKey },
    );
  const verifyHttp = (id: string, assertion: unknown, requestId?: string) =>
    server.client.post<Session & { code?: string; reason?: string }>(
      `/auth/credentials/${id}/verify`,
      { type: "PASSKEY", assertion },
      requestId === undefined ? {} : { headers: { "request-id": requestId } },
    );

  test("register (202, signed 201), challenge, verify: the recovered session key signs the next registration", async () => {
    const wallet = await newWalletAccount(server.client);
    const held = await heldSession(server, wallet);
    const authenticator = new SoftAuthenticator();
    const created = await register(wallet, held.secretKey, authenticator);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      accountId: wallet,
      type: "PASSKEY",
      nickname: "Work laptop",
      credentialId: authenticator.id,
    });
    const listed = await server.client.get<{ data: { id: string }[] }>(
      `/auth/credentials?accountId=${wallet}`,
    );
    expect(listed.body.data.map((m) => m.id)).toContain(created.body.id);

    const key = clientKeyPair();
    const issued = await challenge(created.body.id, key.compressed);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({
      id: created.body.id,
      type: "PASSKEY",
      credentialId: authenticator.id,
    });
    const verified = await verifyHttp(
      created.body.id,
      authenticator.assert(issued.body.challenge),
      issued.body.requestId,
    );
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      accountId: wallet,
      type: "PASSKEY",
      expiresAt: expect.any(String),
    });
    const sessionKey = await openSessionKey(
      verified.body.encryptedSessionSigningKey as string,
      key.secretKey,
    );

    // Several distinct passkeys per account; the stamp of the recovered key is accepted as a session's.
    const second = await register(wallet, sessionKey);
    expect(second.status).toBe(201);
    // The same credential id again → 400 PASSKEY_CREDENTIAL_ALREADY_EXISTS.
    const duplicate = await register(wallet, sessionKey, authenticator);
    expect([duplicate.status, (duplicate.body as unknown as { code: string }).code]).toEqual([
      400,
      "PASSKEY_CREDENTIAL_ALREADY_EXISTS",
    ]);
  });

  test("verify: no Request-Id → 401 REQUEST_ID_MISSING, unknown → 404 REQUEST_NOT_FOUND, reused → 401 UNAUTHORIZED", async () => {
    const wallet = await newWalletAccount(server.client);
    const held = await heldSession(server, wallet);
    const authenticator = new SoftAuthenticator();
    const created = await register(wallet, held.secretKey, authenticator);
    const issued = await challenge(created.body.id, clientKeyPair().uncompressed);
    const assertion = authenticator.assert(issued.body.challenge);
    const missing = await verifyHttp(created.body.id, assertion);
    expect([missing.status, missing.body.code]).toEqual([401, "REQUEST_ID_MISSING"]);
    const unknown = await verifyHttp(
      created.body.id,
      assertion,
      "Request:0190b0a4-0000-7000-8000-000000000009",
    );
    expect([unknown.status, unknown.body.code]).toEqual([404, "REQUEST_NOT_FOUND"]);
    expect((await verifyHttp(created.body.id, assertion, issued.body.requestId)).status).toBe(200);
    const reused = await verifyHttp(
      created.body.id,
      authenticator.assert(issued.body.challenge),
      issued.body.requestId,
    );
    expect([reused.status, reused.body.code, reused.body.reason]).toEqual([
      401,
      "UNAUTHORIZED",
      expect.stringMatching(/already used/),
    ]);
  });

  test("a failed assertion over HTTP → 401 UNAUTHORIZED naming the check; the challenge stays usable", async () => {
    const wallet = await newWalletAccount(server.client);
    const held = await heldSession(server, wallet);
    const authenticator = new SoftAuthenticator();
    const created = await register(wallet, held.secretKey, authenticator);
    const issued = await challenge(created.body.id, clientKeyPair().compressed);
    const wrongOrigin = await verifyHttp(
      created.body.id,
      authenticator.assert(issued.body.challenge, { origin: "https://phish.example" }),
      issued.body.requestId,
    );
    expect([wrongOrigin.status, wrongOrigin.body.code, wrongOrigin.body.reason]).toEqual([
      401,
      "UNAUTHORIZED",
      expect.stringMatching(/origin/),
    ]);
    const ok = await verifyHttp(
      created.body.id,
      authenticator.assert(issued.body.challenge),
      issued.body.requestId,
    );
    expect(ok.status).toBe(200);
  });

  test("a PASSKEY challenge without a valid clientPublicKey → 400 INVALID_INPUT", async () => {
    const wallet = await newWalletAccount(server.client);
    const held = await heldSession(server, wallet);
    const created = await register(wallet, held.secretKey);
    for (const key of [undefined, "04abc", `04${"00".repeat(64)}`]) {
      const res = await challenge(created.body.id, key);
      expect([res.status, (res.body as unknown as { code: string }).code]).toEqual([400, "INVALID_INPUT"]);
    }
  });

  test("a registration whose attestation fails → 400 INVALID_INPUT on the first call, before any 202", async () => {
    const wallet = await newWalletAccount(server.client);
    const authenticator = new SoftAuthenticator();
    const res = await server.client.post<{ code: string; details: { errors: { field: string }[] } }>(
      "/auth/credentials",
      {
        type: "PASSKEY",
        accountId: wallet,
        nickname: "Phone",
        challenge: registrationChallenge(),
        attestation: authenticator.register(registrationChallenge()),
      },
    );
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.details.errors.map((e) => e.field)).toEqual(["challenge"]);
  });
});

describe("walletAuthConfig on PATCH /config (passkey relying party, OIDC providers)", () => {
  type Failure = { code: string; details: { errors: { field: string; message: string }[] } };

  test.each([
    [
      "an origin on another host",
      { rpId: "wallet.example.com", origins: ["https://evil.example.com"] },
      "origins[0]",
    ],
    [
      "http outside localhost",
      { rpId: "wallet.example.com", origins: ["http://app.wallet.example.com"] },
      "origins[0]",
    ],
    [
      "an origin with a path",
      { rpId: "wallet.example.com", origins: ["https://wallet.example.com/app"] },
      "origins[0]",
    ],
    [
      "an RP ID with a scheme",
      { rpId: "https://wallet.example.com", origins: ["https://wallet.example.com"] },
      "rpId",
    ],
  ])("passkey: %s -> 400 INVALID_INPUT", async (_name, passkey, field) => {
    const res = await server.client.patch<Failure>("/config", { walletAuthConfig: { passkey } });
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.details.errors.map((e) => e.field)).toEqual([`walletAuthConfig.passkey.${field}`]);
  });

  test.each([
    [
      "no jwksUri for an unknown issuer",
      [{ issuer: "https://login.example.com", audiences: ["a"] }],
      "oidcProviders[0].jwksUri",
    ],
    [
      "a plain-http jwksUri off loopback",
      [{ issuer: "https://login.example.com", audiences: ["a"], jwksUri: "http://login.example.com/jwks" }],
      "oidcProviders[0].jwksUri",
    ],
    [
      "the same issuer twice",
      [
        { issuer: "https://accounts.google.com", audiences: ["a"] },
        { issuer: "https://accounts.google.com", audiences: ["b"] },
      ],
      "oidcProviders[1].issuer",
    ],
  ])("oidcProviders: %s -> 400 INVALID_INPUT", async (_name, oidcProviders, field) => {
    const res = await server.client.patch<Failure>("/config", { walletAuthConfig: { oidcProviders } });
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.details.errors.map((e) => e.field)).toEqual([`walletAuthConfig.${field}`]);
  });

  test("a production platform configured through PATCH /config registers and uses a passkey of its RP over HTTP", async () => {
    const production = await server.newPlatform("PRODUCTION");
    const client = server.client.as(production);
    const rp = { rpId: "wallet.example.com", origin: "https://app.wallet.example.com" };
    const config = {
      passkey: { rpId: rp.rpId, origins: [rp.origin, `android:apk-key-hash:${"A".repeat(43)}`] },
      oidcProviders: [{ issuer: "https://accounts.google.com", audiences: ["web-client"] }],
    };
    const patched = await client.patch<{ walletAuthConfig: unknown }>("/config", {
      walletAuthConfig: config,
    });
    expect(patched.status).toBe(200);
    expect((await client.get<{ walletAuthConfig: unknown }>("/config")).body.walletAuthConfig).toMatchObject(
      config,
    );

    const wallet = await newWalletAccount(client);
    const held = await heldSession(server, wallet);
    const authenticator = new SoftAuthenticator(rp);
    const challenge = registrationChallenge();
    const created = await signedRequest<{ id: string }>(
      client,
      "POST",
      "/auth/credentials",
      {
        type: "PASSKEY",
        accountId: wallet,
        nickname: "Phone",
        challenge,
        attestation: authenticator.register(challenge),
      },
      held.secretKey,
    );
    expect(created.status).toBe(201);
    const key = clientKeyPair();
    const issued = await client.post<{ challenge: string; requestId: string }>(
      `/auth/credentials/${created.body.id}/challenge`,
      { clientPublicKey: key.compressed },
    );
    const verified = await client.post<{ encryptedSessionSigningKey: string }>(
      `/auth/credentials/${created.body.id}/verify`,
      { type: "PASSKEY", assertion: authenticator.assert(issued.body.challenge) },
      { headers: { "request-id": issued.body.requestId } },
    );
    expect(verified.status).toBe(200);
    await expect(
      openSessionKey(verified.body.encryptedSessionSigningKey, key.secretKey),
    ).resolves.toHaveLength(32);
  });
});
