import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";

// A test OpenID provider: a real ES256 key whose public half is served as a JWKS from a loopback HTTP
// server, and ID tokens signed with it (or with a stranger's key, or with no signature at all).

export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

export interface TestIssuer {
  issuer: string;
  audience: string;
  jwksUri: string;
  /** A signed ID token: iss, aud, sub, iat (now), exp (+10 min) unless overridden; `undefined` removes a claim. */
  token(
    claims?: Record<string, unknown>,
    options?: { key?: "issuer" | "stranger"; kid?: string },
  ): Promise<string>;
  /** How many times the JWKS was fetched. */
  fetches(): number;
  close(): Promise<void>;
}

export function defaultClaims(issuer: string, audience: string, nowMs = Date.now()): JWTPayload {
  const iat = Math.floor(nowMs / 1000);
  return {
    iss: issuer,
    aud: audience,
    sub: "oidc-subject-1",
    email: "wallet.user@example.com",
    iat,
    exp: iat + 600,
  };
}

function withOverrides(base: JWTPayload, claims: Record<string, unknown>): JWTPayload {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(claims)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Starts the provider; `issuer` defaults to a made-up https URL (only its string matters to paysvc). */
export async function startTestIssuer(
  options: { issuer?: string; audience?: string; now?: () => number } = {},
): Promise<TestIssuer> {
  const issuer = options.issuer ?? "https://issuer.example.test";
  const audience = options.audience ?? "paysvc-test-client";
  const now = options.now ?? Date.now;
  const own = await generateKeyPair("ES256", { extractable: true });
  const stranger = await generateKeyPair("ES256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(own.publicKey)), kid: "test-key-1", alg: "ES256", use: "sig" };
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== "/jwks.json") {
      res.writeHead(404).end();
      return;
    }
    fetches += 1;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    issuer,
    audience,
    jwksUri: `http://127.0.0.1:${port}/jwks.json`,
    async token(claims = {}, signing = {}) {
      const payload = withOverrides(defaultClaims(issuer, audience, now()), claims);
      const key = signing.key === "stranger" ? stranger.privateKey : own.privateKey;
      return new SignJWT(payload)
        .setProtectedHeader({ alg: "ES256", kid: signing.kid ?? "test-key-1" })
        .sign(key);
    },
    fetches: () => fetches,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** A JWT-shaped sandbox token whose signature segment is not a signature at all (conventions §5.7). */
export function unsignedToken(claims: Record<string, unknown>, nowMs = Date.now()): string {
  const payload = withOverrides(
    defaultClaims("https://accounts.google.com", "sandbox-client", nowMs),
    claims,
  );
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", kid: "sandbox" })}.${part(payload)}.${Buffer.from("not a signature").toString("base64url")}`;
}
