import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, type CDPSession, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { newWalletAccount } from "./oauth-passkey-fixtures.js";

// Issue 7's browser proof: the demo page of examples/passkey-demo, served by its integrator backend on
// http://localhost (RP ID `localhost`, the sandbox default), signs in with the e-mail code, registers a
// passkey held by a CDP virtual authenticator in headless Chromium, signs in with it, opens the sealed
// session key with WebCrypto, and signs out with that key, all against the real server.

// Debian's `chromium` package; playwright's own browser downloads are not used.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const BROWSER_TEST_MS = 90_000;

interface PasskeyDemo {
  url: string;
  close(): Promise<void>;
}
// Loaded by URL: the example lives outside this package (and its tsconfig rootDir).
const demoModule = pathToFileURL(
  join(import.meta.dirname, "../../../../examples/passkey-demo/demo-server.ts"),
).href;

let server: TestServer;
let demo: PasskeyDemo;
let browser: Browser;
beforeAll(async () => {
  server = await startServer();
  const { startPasskeyDemo } = (await import(demoModule)) as {
    startPasskeyDemo(options: {
      paysvcBaseUrl: string;
      clientId: string;
      clientSecret: string;
    }): Promise<PasskeyDemo>;
  };
  demo = await startPasskeyDemo({
    paysvcBaseUrl: server.baseUrl,
    clientId: server.platform.clientId,
    clientSecret: server.platform.clientSecret,
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, timeout: 60_000 });
});
afterAll(async () => {
  await browser?.close();
  await demo?.close();
  await server?.close();
});

/** A CTAP2 platform authenticator that is always present and verified (WebAuthn domain of CDP). */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Clicks a step's button and waits for its status; a failure shows the page's log. */
async function step(page: Page, button: string, status: RegExp): Promise<void> {
  await page.getByRole("button", { name: button }).click();
  await expect
    .poll(() => page.locator("#status").textContent(), { timeout: 30_000 })
    .toMatch(new RegExp(`${status.source}|^failed`));
  const text = await page.locator("#status").textContent();
  expect(text, (await page.locator("#log").textContent()) ?? "").toMatch(status);
}

describe("a passkey in a real browser (headless Chromium, CDP virtual authenticator)", () => {
  test(
    "the demo page registers a passkey, signs in with it and uses the session key paysvc sealed to it",
    async () => {
      const accountId = await newWalletAccount(server.client);
      const page = await browser.newPage();
      const failures: string[] = [];
      page.on("pageerror", (error) => failures.push(error.message));
      const { cdp, authenticatorId } = await virtualAuthenticator(page);
      await page.goto(`${demo.url}/?accountId=${encodeURIComponent(accountId)}`);

      await step(page, "Sign in with e-mail code", /^signed in with EMAIL_OTP$/);
      await step(page, "Register a passkey", /^passkey registered: /);
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      expect(credentials).toHaveLength(1);
      const credentialId = Buffer.from(credentials[0]?.credentialId ?? "", "base64").toString("base64url");
      const listed = await server.client.get<{ data: { id: string; type: string; credentialId?: string }[] }>(
        `/auth/credentials?accountId=${accountId}`,
      );
      const passkey = listed.body.data.find((m) => m.type === "PASSKEY");
      expect(passkey?.credentialId).toBe(credentialId);

      await step(page, "Sign in with passkey", /^signed in with PASSKEY$/);
      const sessionId = await page.locator("#session-id").textContent();
      const publicKey = await page.locator("#session-public-key").textContent();
      // The key the page recovered from encryptedSessionSigningKey is the passkey session's key …
      const [session] = await server.db.query<{
        public_key: string;
        auth_method_id: string;
        revoked_at: Date | null;
      }>("SELECT public_key, auth_method_id, revoked_at FROM auth_sessions WHERE id = $1", [sessionId]);
      expect(session).toMatchObject({ public_key: publicKey, auth_method_id: passkey?.id, revoked_at: null });
      const [method] = await server.db.query<{ passkey_counter: number }>(
        "SELECT passkey_counter FROM auth_methods WHERE id = $1",
        [passkey?.id],
      );
      const signCount = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0]
        ?.signCount;
      expect(method?.passkey_counter).toBe(signCount);

      // … and it signs: the page revokes its own session with a stamp made with it.
      await step(page, "Sign out", /^signed out$/);
      const [revoked] = await server.db.query<{ revoked_at: Date | null }>(
        "SELECT revoked_at FROM auth_sessions WHERE id = $1",
        [sessionId],
      );
      expect(revoked?.revoked_at).toBeInstanceOf(Date);
      expect(failures).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});
