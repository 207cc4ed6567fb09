import { readFile } from "node:fs/promises";
import { PDFDocument } from "pdf-lib";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { eventually } from "../webhooks/helpers.js";
import { pdfText } from "./pdf-text.js";
import { compareWithBaseline, MAX_DIFF_RATIO } from "./screenshots.js";
import { CUSTOMER_NAME, DEPOSITS, SEEDED_NOW, SERVICE_TIME, type Seeded, seedPlatform } from "./seed.js";

// Debian's `chromium` package (.ci/run installs it); playwright's own browser downloads are not used.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Same pixels on every machine with the same fonts: no LCD subpixel text, sRGB.
  "--disable-lcd-text",
  "--force-color-profile=srgb",
  "--font-render-hinting=none",
];
const BROWSER_TEST_MS = 180_000;
/** An app of this file's own (its standing clock) and the browser: slow on a busy 2-core machine. */
const SETUP_MS = 300_000;
const CLOSING = DEPOSITS.reduce((sum, [, amount]) => sum + amount, 0);
const CLOSING_TEXT = `$${(CLOSING / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startServer({ serviceTime: SERVICE_TIME });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
}, SETUP_MS);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh browser context (its own storage) at a fixed size, light scheme and no motion. */
async function openContext(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
    colorScheme: "light",
    reducedMotion: "reduce",
    locale: "en-US",
    timezoneId: "UTC",
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    // The balance chart asks for the window up to now first; its 409 NOT_YET_AVAILABLE says how far back
    // card settlement has closed (components/balances.ts), and the browser logs that answer.
    if (message.type() === "error" && !/status of 409/.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["blob:", "data:"].includes(url.protocol) && url.origin !== server.origin) {
      problems.push(`request off the origin: ${request.url()}`);
    }
  });
  return { context, page, problems };
}

async function signIn(page: Page, seeded: Seeded): Promise<void> {
  await page.goto(`${server.origin}/dashboard`);
  await page.getByLabel("Client ID").fill(seeded.client.credentials.clientId);
  await page.getByLabel("Client secret").fill(seeded.client.credentials.clientSecret);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page
    .getByTestId("clock-now")
    .getByText(/\d{4}-/)
    .waitFor();
}

async function chartDrawn(page: Page): Promise<void> {
  await page.getByTestId("balance-chart").locator("canvas").waitFor();
}

/** Ids, addresses and the generation time differ per run: they are blanked before a screenshot. */
async function blankVolatile(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const element of Array.from(document.querySelectorAll("[data-volatile]")))
      element.textContent = "(id)";
  });
}

async function screenshot(page: Page): Promise<Buffer> {
  return page.screenshot({ fullPage: true, animations: "disabled", caret: "hide", scale: "css" });
}

async function downloadedPdf(page: Page): Promise<Uint8Array> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download PDF" }).click(),
  ]);
  const path = await download.path();
  expect(download.suggestedFilename()).toMatch(/^statement-.*-2031-03\.pdf$/);
  return new Uint8Array(await readFile(path));
}

async function buildMarchStatement(page: Page): Promise<void> {
  await page.getByRole("tab", { name: "Statements" }).click();
  await page.getByLabel("Month (US Central)").waitFor();
  expect(await page.getByLabel("Month (US Central)").inputValue()).toBe("2031-03");
  await page.getByRole("button", { name: "Build statement" }).click();
  await page.getByTestId("statement").waitFor();
}

describe("the sandbox dashboard in a real browser (headless Chromium)", () => {
  let fixed: Seeded;
  beforeAll(async () => {
    fixed = await seedPlatform(server);
  }, SETUP_MS);
  afterAll(async () => {
    await fixed?.receiver.close();
  });

  test(
    "signing in shows the seeded customer and her balance chart; the credentials stay in the tab's session storage",
    async () => {
      const { context, page, problems } = await openContext();
      try {
        await signIn(page, fixed);
        expect(await page.getByTestId("clock-now").textContent()).toBe("2031-04-06 15:00 UTC");
        await page.getByRole("button", { name: CUSTOMER_NAME }).waitFor();
        await chartDrawn(page);
        expect(await page.getByTestId("ledger-balance").textContent()).toBe(CLOSING_TEXT);
        const stored = await page.evaluate(() => ({
          session: Object.keys(sessionStorage),
          local: Object.keys(localStorage),
          cookie: document.cookie,
        }));
        expect(stored).toEqual({ session: ["paysvc.dashboard.credentials"], local: [], cookie: "" });
        expect(await context.cookies()).toEqual([]);
        // A new tab (another session) is signed out; signing out clears this one.
        const other = await context.newPage();
        await other.goto(`${server.origin}/dashboard`);
        await other.getByLabel("Client ID").waitFor();
        await page.getByRole("button", { name: "Sign out" }).click();
        await page.getByLabel("Client ID").waitFor();
        expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );

  test(
    "wrong credentials are refused on the sign-in form with the API's 401",
    async () => {
      const { context, page } = await openContext();
      try {
        await page.goto(`${server.origin}/dashboard`);
        await page.getByLabel("Client ID").fill(fixed.client.credentials.clientId);
        await page.getByLabel("Client secret").fill("not-the-secret");
        await page.getByRole("button", { name: "Sign in" }).click();
        await page
          .getByRole("alert")
          .getByText(/UNAUTHORIZED/)
          .waitFor();
        expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );

  test(
    "the statement PDF downloads, parses as a PDF and carries the closing balance",
    async () => {
      const { context, page } = await openContext();
      try {
        await signIn(page, fixed);
        await buildMarchStatement(page);
        expect(await page.getByTestId("closing-balance").textContent()).toBe(
          `Closing balance: ${CLOSING_TEXT}`,
        );
        const pdf = await downloadedPdf(page);
        expect(Buffer.from(pdf.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
        const parsed = await PDFDocument.load(pdf);
        expect(parsed.getPageCount()).toBeGreaterThanOrEqual(1);
        const lines = pdfText(pdf);
        expect(lines).toContain(`Closing balance on March 31, 2031: ${CLOSING_TEXT}`);
        expect(lines).toContain("Opening balance on March 1, 2031: $0.00");
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );

  test.each(["overview", "statement"] as const)(
    "the %s page matches its baseline screenshot",
    async (name) => {
      const { context, page } = await openContext();
      try {
        await signIn(page, fixed);
        await chartDrawn(page);
        if (name === "statement") await buildMarchStatement(page);
        await blankVolatile(page);
        const result = compareWithBaseline(name, await screenshot(page));
        expect(result.sizeMatches, `size differs from the baseline; see ${result.actualPath}`).toBe(true);
        expect(result.ratio, `see ${result.actualPath} and ${result.diffPath}`).toBeLessThanOrEqual(
          MAX_DIFF_RATIO,
        );
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );

  test(
    "Advance moves the platform clock forward and the page shows the new time",
    async () => {
      const scratch = await seedPlatform(server);
      const { context, page } = await openContext();
      try {
        await signIn(page, scratch);
        await page.getByRole("button", { name: "Advance +1 day" }).click();
        await page.getByTestId("clock-now").getByText("2031-04-07 15:00 UTC").waitFor();
        const clock = await scratch.client.get<{ now: string }>("/sandbox/clock");
        expect(clock.body.now).toBe(new Date(Date.parse(SEEDED_NOW) + 86_400_000).toISOString());
      } finally {
        await context.close();
        await scratch.receiver.close();
      }
    },
    BROWSER_TEST_MS,
  );

  test(
    "Resend delivers the event again, with the same event id, as a new delivery shown in the list",
    async () => {
      const scratch = await seedPlatform(server);
      const { context, page } = await openContext();
      try {
        await signIn(page, scratch);
        await page.getByRole("tab", { name: "Webhooks" }).click();
        const rows = page.getByTestId("delivery");
        await rows.first().waitFor();
        const before = await rows.count();
        const firstType = await rows.first().locator("td").nth(1).textContent();
        // The payload is at hand: open the newest delivery.
        await rows.first().getByRole("button").first().click();
        await page.getByTestId("payload").waitFor();
        const payload = JSON.parse((await page.getByTestId("payload").textContent()) ?? "{}");
        expect(payload.type).toBe(firstType);
        const received = scratch.receiver.received.length;
        await rows.first().getByRole("button", { name: "Resend" }).click();
        await page
          .getByTestId("webhook-message")
          .getByText(/^Resent /)
          .waitFor();
        await server.jobs.runDue();
        await eventually(() => {
          const bodies = scratch.receiver.received.slice(received).map((r) => JSON.parse(r.body));
          expect(bodies).toContainEqual(expect.objectContaining({ id: payload.id, type: payload.type }));
        }, 20_000);
        await page.getByRole("button", { name: "Refresh" }).click();
        await eventually(async () => expect(await rows.count()).toBe(before + 1), 20_000);
      } finally {
        await context.close();
        await scratch.receiver.close();
      }
    },
    BROWSER_TEST_MS,
  );
});
