import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { catalogue } from "../../src/core/errors/catalogue.js";
import { evmWallet, newCustomer, selfCustodyWallet } from "../external-accounts/ownership-helpers.js";
import { startServer, type TestClient, type TestResponse, type TestServer } from "../harness.js";
import { payer } from "../payouts/helpers.js";
import { limitedPlatform, pair } from "../quotes/daily-volume-helpers.js";
import { transfer } from "../quotes/helpers.js";
import { bankAccount, login, payout, platformClient, scaCustomer } from "../sca/helpers.js";
import { encryptOtp, newKeyPair, newWalletCustomer, otpVerifyChallenge } from "../wallet-auth/client.js";

/**
 * Issue 9 part 2, the limits sweep: every rate limit of the spec and the conventions answers 429 with an
 * integer Retry-After and the catalogue's body, and a client that honours it (moves the platform's
 * sandbox clock on by exactly Retry-After seconds: every limit here counts on that clock) then succeeds.
 */
let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  server = await startServer();
  client = server.client;
});
afterAll(() => server.close());

/** The 429's contract: integer Retry-After, the catalogue's body with `code` and its catalogue status. */
function expectLimited(res: TestResponse, code: "RATE_LIMITED" | "DAILY_VOLUME_LIMIT_EXCEEDED"): number {
  expect(res.status, res.text).toBe(429);
  const retryAfter = res.headers.get("retry-after");
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body).filter((k) => !["code", "reason", "details"].includes(k))).toEqual([]);
  expect(body.code).toBe(code);
  expect(catalogue[code].status).toBe(429);
  expect(typeof body.reason).toBe("string");
  return Number(retryAfter);
}

/** A client that honours Retry-After: the platform's sandbox clock moves on by exactly that many seconds. */
async function honour(c: TestClient, retryAfter: number): Promise<void> {
  const clock = await c.get<{ now: string }>("/sandbox/clock");
  expect(clock.status).toBe(200);
  const to = new Date(Date.parse(clock.body.now) + retryAfter * 1000).toISOString();
  const advanced = await c.post("/sandbox/clock/advance", { to });
  expect(advanced.status, advanced.text).toBe(200);
}

describe("ownership challenge re-issue: 5 per account in any 15 minutes (conventions §4.2)", () => {
  for (const owner of ["customers", "platform"] as const) {
    test(`${owner}: the 6th challenge is 429 RATE_LIMITED with Retry-After; after Retry-After it succeeds`, async () => {
      const c = client.as(await server.newPlatform());
      const account =
        owner === "customers"
          ? await selfCustodyWallet(c, await newCustomer(c), evmWallet().address)
          : (
              await c.post<{ id: string }>("/platform/external-accounts", {
                currency: "USDC",
                ownershipType: "FIRST_PARTY",
                accountInfo: {
                  accountType: "ETHEREUM_WALLET",
                  address: `0x${randomBytes(20).toString("hex")}`,
                },
              })
            ).body;
      const challenge = () =>
        c.post(`/${owner}/external-accounts/${account.id}/challenge`, { method: "LIVENESS" });
      for (let i = 0; i < 5; i++) expect((await challenge()).status).toBe(201);
      const retryAfter = expectLimited(await challenge(), "RATE_LIMITED");
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      await honour(c, retryAfter);
      expect((await challenge()).status).toBe(201);
    });
  }
});

describe("embedded wallet credentials (conventions §5.8)", () => {
  test("challenge: the 6th issue per credential in 15 minutes is 429 RATE_LIMITED with Retry-After; after Retry-After it succeeds", async () => {
    const c = client.as(await server.newPlatform());
    const wallet = await newWalletCustomer(c);
    const challenge = () => c.post(`/auth/credentials/${wallet.emailOtp.id}/challenge`);
    for (let i = 0; i < 5; i++) expect((await challenge()).status).toBe(200);
    const retryAfter = expectLimited(await challenge(), "RATE_LIMITED");
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    await honour(c, retryAfter);
    expect((await challenge()).status).toBe(200);
  });

  test("verify: after 10 failed verifies per credential in 15 minutes it is 429 RATE_LIMITED with Retry-After; after Retry-After the right code is accepted", async () => {
    const c = client.as(await server.newPlatform());
    const wallet = await newWalletCustomer(c);
    const id = wallet.emailOtp.id;
    const verify = async (bundle: string, code: string) =>
      c.post(`/auth/credentials/${id}/verify`, {
        type: "EMAIL_OTP",
        encryptedOtpBundle: await encryptOtp(bundle, code, newKeyPair().publicKey),
      });
    const bundle = async () =>
      String((await c.post(`/auth/credentials/${id}/challenge`)).body.otpEncryptionTargetBundle);
    for (let round = 0; round < 2; round++) {
      const b = await bundle();
      for (let i = 0; i < 5; i++) expect((await verify(b, "111111")).status).toBe(401);
    }
    // The limit answers even the right code (the sandbox code is 000000) until Retry-After has passed.
    const retryAfter = expectLimited(await verify(await bundle(), "000000"), "RATE_LIMITED");
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    await honour(c, retryAfter);
    const { first } = await otpVerifyChallenge(c, id);
    expect(first.status, first.text).toBe(202);
  });
});

describe("daily volume per platform (interface limits; conventions §1.7)", () => {
  test("an execution above the day's limit is 429 DAILY_VOLUME_LIMIT_EXCEEDED with Retry-After to Chicago midnight; after Retry-After it succeeds", async () => {
    const c = await limitedPlatform(server, 1_000);
    const { from, to } = await pair(server, c, 10_000);
    const execute = () => c.post("/quotes", transfer(from, to, 600, { immediatelyExecute: true }));
    expect((await execute()).status).toBe(201);
    const retryAfter = expectLimited(await execute(), "DAILY_VOLUME_LIMIT_EXCEEDED");
    expect(retryAfter).toBeLessThanOrEqual(25 * 3600);
    await honour(c, retryAfter);
    expect((await execute()).status).toBe(201);
  });

  test("bug: the deprecated POST /transfer-out bypassed the execution gates; it now counts toward the daily volume and is 429 DAILY_VOLUME_LIMIT_EXCEEDED above it", async () => {
    const c = await limitedPlatform(server, 1_000);
    const { accountId, externalId } = await payer(c, { funds: 10_000 });
    const out = () =>
      c.post("/transfer-out", { source: { accountId }, destination: { accountId: externalId }, amount: 600 });
    expect((await out()).status).toBe(201);
    const retryAfter = expectLimited(await out(), "DAILY_VOLUME_LIMIT_EXCEEDED");
    await honour(c, retryAfter);
    expect((await out()).status).toBe(201);
  });
});

describe("SCA code resend for a held payout: one per 30 seconds (docs/decisions.md SCA)", () => {
  test("a resend within 30 s of the last code is 429 RATE_LIMITED with Retry-After; after Retry-After it succeeds", async () => {
    const c = await platformClient(server);
    const { customerId, accountId } = await scaCustomer(c);
    await login(c, customerId);
    const quote = await c.post<{ id: string }>(
      "/quotes",
      payout(accountId, await bankAccount(c, customerId), 10_000),
    );
    expect((await c.post(`/quotes/${quote.body.id}/execute`, {})).status).toBe(200);
    const resend = () => c.post(`/quotes/${quote.body.id}/authorize/resend`);
    const retryAfter = expectLimited(await resend(), "RATE_LIMITED");
    expect(retryAfter).toBeLessThanOrEqual(30);
    await honour(c, retryAfter);
    expect((await resend()).status).toBe(204);
  });
});

describe("SCA two-factor reset: one start per 30 seconds (docs/decisions.md SCA)", () => {
  test("a second start within 30 s is 429 RATE_LIMITED with Retry-After; after Retry-After it succeeds", async () => {
    const c = await platformClient(server);
    const { customerId } = await scaCustomer(c, { funds: 0 });
    const start = () => c.post(`/sca/factors/reset?customerId=${customerId}`, { factor: "SMS_OTP" });
    expect((await start()).status).toBe(201);
    const retryAfter = expectLimited(await start(), "RATE_LIMITED");
    expect(retryAfter).toBeLessThanOrEqual(30);
    await honour(c, retryAfter);
    expect((await start()).status).toBe(201);
  });
});

describe("the sweep is complete", () => {
  test("every place in src that answers 429 is one of the limits above", async () => {
    const src = join(import.meta.dirname, "../../src");
    const files = (await readdir(src, { recursive: true })).filter((f) => f.endsWith(".ts"));
    const sites: string[] = [];
    for (const file of files) {
      const text = await readFile(join(src, file), "utf8");
      const count = (text.match(/new ApiError\(\s*"(RATE_LIMITED|DAILY_VOLUME_LIMIT_EXCEEDED)"/g) ?? [])
        .length;
      for (let i = 0; i < count; i++) sites.push(file.replaceAll("\\", "/"));
    }
    expect(sites.sort()).toEqual([
      "auth/failed-attempts.ts",
      "external-accounts/ownership/challenges.ts",
      "quotes/daily-volume.ts",
      "sca/payments.ts",
      "sca/reset.ts",
      "wallet-auth/attempts.ts",
      "wallet-auth/attempts.ts",
      "wallet-auth/attempts.ts",
    ]);
  });
});
