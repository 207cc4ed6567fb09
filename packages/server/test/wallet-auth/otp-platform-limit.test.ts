import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PLATFORM_FAILED_OTP_VERIFIES_PER_WINDOW, RATE_WINDOW_MS } from "../../src/wallet-auth/attempts.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { type AuthMethodBody, encryptOtp, newKeyPair, newWalletCustomer, otpLogin } from "./client.js";
import { platformNow } from "./session-fixture.js";

// Issue 16 item 8: a wallet's OTP guesses count per platform too, so guessing spread over many wallets
// (each under its own 10-per-15-minutes limit) is bounded as well.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const verifyPath = (id: string) => `/auth/credentials/${id}/verify`;

async function wrongGuess(client: TestClient, credentialId: string) {
  const bundle = (await client.post<AuthMethodBody>(`/auth/credentials/${credentialId}/challenge`)).body
    .otpEncryptionTargetBundle as string;
  return client.post<{ code: string }>(verifyPath(credentialId), {
    type: "EMAIL_OTP",
    encryptedOtpBundle: await encryptOtp(bundle, "111111", newKeyPair().publicKey),
  });
}

/** Failed verifies recorded against the platform's OTP credentials, as many wallets' guesses would be. */
async function recordFailures(credentialIds: string[], count: number, at: Date) {
  for (let i = 0; i < count; i++)
    await server.db.query(
      "INSERT INTO auth_attempts (id, auth_method_id, kind, created_at) VALUES ($1, $2, 'FAILED_VERIFY', $3)",
      [randomUUID(), credentialIds[i % credentialIds.length], at],
    );
}

describe("failed OTP verifies per platform", () => {
  test(`after ${PLATFORM_FAILED_OTP_VERIFIES_PER_WINDOW} failed OTP verifies across a platform's wallets in 15 minutes, every OTP verify of that platform is 429 RATE_LIMITED with Retry-After; other platforms are unaffected`, async () => {
    const platform = await server.newPlatform();
    const client = server.client.as(platform);
    const guessed = await Promise.all([newWalletCustomer(client), newWalletCustomer(client)]);
    const [victim, fresh] = await Promise.all([newWalletCustomer(client), newWalletCustomer(client)]);
    const now = await platformNow(server, platform.platformId);
    await recordFailures(
      guessed.map((w) => w.emailOtp.id),
      PLATFORM_FAILED_OTP_VERIFIES_PER_WINDOW - 1,
      new Date(now.getTime() - 60_000),
    );
    // The last guess the platform is allowed is still checked (and fails).
    expect((await wrongGuess(client, victim.emailOtp.id)).status).toBe(401);
    // A wallet with no failures of its own is refused too: the platform's budget is spent.
    const limited = await wrongGuess(client, fresh.emailOtp.id);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: "RATE_LIMITED", reason: expect.stringContaining("per platform") });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(RATE_WINDOW_MS / 1000);
    expect(limited.headers.get("x-request-id")).toBeTruthy();

    const elsewhere = server.client.as(await server.newPlatform());
    const other = await newWalletCustomer(elsewhere);
    await otpLogin(elsewhere, other.emailOtp.id);

    const later = new Date(now.getTime() + RATE_WINDOW_MS);
    expect((await client.post("/sandbox/clock/advance", { to: later.toISOString() })).status).toBe(200);
    await otpLogin(client, fresh.emailOtp.id);
  });
});
