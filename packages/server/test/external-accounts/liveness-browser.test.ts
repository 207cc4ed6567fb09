import { randomBytes } from "node:crypto";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LIVENESS_COMPLETION_DELAY_MS } from "../../src/external-accounts/ownership/liveness-flow.js";
import type { ExternalAccount } from "../../src/external-accounts/schemas.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { eventually, platformWithReceiver } from "../webhooks/helpers.js";

// Debian's `chromium` package (.ci/run installs it); playwright's own browser downloads are not used.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const BROWSER_TEST_MS = 90_000;

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, timeout: 60_000 });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A 1×1 transparent PNG, the "selfie" the sandbox provider accepts. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** A FIRST_PARTY self-custody wallet of a new customer and a LIVENESS challenge for it. */
async function walletWithLivenessLink(client: TestClient) {
  const customer = await client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" });
  expect(customer.status, customer.text).toBe(201);
  const account = await client.post<ExternalAccount>("/customers/external-accounts", {
    customerId: customer.body.id,
    currency: "USDC",
    ownershipType: "FIRST_PARTY",
    accountInfo: { accountType: "ETHEREUM_WALLET", address: `0x${randomBytes(20).toString("hex")}` },
  });
  expect(account.status, account.text).toBe(201);
  const challenge = await client.post<{ verificationLink: string }>(
    `/customers/external-accounts/${account.body.id}/challenge`,
    { method: "LIVENESS" },
  );
  expect(challenge.status, challenge.text).toBe(201);
  return { accountId: account.body.id, link: challenge.body.verificationLink };
}

/** What a person does on the hosted page: consent, a selfie (uploaded), the sandbox's choice, submit. */
async function completeFlow(page: Page, link: string, choice: "Pass" | "Fail"): Promise<void> {
  await page.goto(link);
  await expect.poll(() => page.title()).toBe("Verify your identity");
  const form = page.locator("form");
  // The browser itself refuses an incomplete form (required fields).
  expect(await form.evaluate((f) => (f as unknown as { checkValidity(): boolean }).checkValidity())).toBe(
    false,
  );
  await page.getByLabel(/I agree/).check();
  await page.locator('input[type="file"][name="image"]').setInputFiles({
    name: "selfie.png",
    mimeType: "image/png",
    buffer: PNG,
  });
  await page.getByRole("radio", { name: new RegExp(`^${choice}\\b`) }).check();
  expect(await form.evaluate((f) => (f as unknown as { checkValidity(): boolean }).checkValidity())).toBe(
    true,
  );
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByText("Thank you — you can close this window").waitFor({ timeout: 30_000 });
}

/** Lets the sandbox provider answer: its delay passes on the platform clock, then due jobs run. */
async function providerAnswers(client: TestClient): Promise<void> {
  const now = (await client.get<{ now: string }>("/sandbox/clock")).body.now;
  const to = new Date(Date.parse(now) + LIVENESS_COMPLETION_DELAY_MS + 1_000).toISOString();
  expect((await client.post("/sandbox/clock/advance", { to })).status).toBe(200);
  await server.jobs.runDue();
}

describe("the hosted liveness page in a real browser (headless Chromium)", () => {
  test.each([
    ["Pass", "ACTIVE"],
    ["Fail", "UNVERIFIED"],
  ] as const)(
    "consent, a selfie upload and %s: the thank-you page, then the account becomes %s and the webhook arrives",
    async (choice, expected) => {
      const { client, receiver } = await platformWithReceiver(server);
      const context = await browser.newContext();
      try {
        const { accountId, link } = await walletWithLivenessLink(client);
        const page = await context.newPage();
        await completeFlow(page, link, choice);
        expect(await page.locator("form").count()).toBe(0);

        // Completion is asynchronous: nothing has changed yet.
        const pending = await client.get<ExternalAccount>(`/customers/external-accounts/${accountId}`);
        expect(pending.body.status).toBe("PENDING_OWNERSHIP_VERIFICATION");

        await providerAnswers(client);
        await eventually(async () => {
          const account = await client.get<ExternalAccount>(`/customers/external-accounts/${accountId}`);
          expect(account.body.status).toBe(expected);
        }, 20_000);
        await eventually(() => {
          const events = receiver.received.map((r) => JSON.parse(r.body));
          expect(events).toContainEqual(
            expect.objectContaining({
              type: "EXTERNAL_ACCOUNT.STATUS_UPDATED",
              data: expect.objectContaining({ id: accountId, status: expected }),
            }),
          );
        }, 20_000);

        // The link is used up: reloading shows the 410 page without a form.
        const again = await page.goto(link);
        expect(again?.status()).toBe(410);
        expect(await page.locator("form").count()).toBe(0);
      } finally {
        await context.close();
        await receiver.close();
      }
    },
    BROWSER_TEST_MS,
  );
});
