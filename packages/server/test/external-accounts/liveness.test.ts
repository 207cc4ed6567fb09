import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sha256Hex } from "../../src/core/hash.js";
import { API_VERSION } from "../../src/core/http/version.js";
import { LIVENESS_COMPLETION_DELAY_MS } from "../../src/external-accounts/ownership/liveness-flow.js";
import { renderLivenessPage } from "../../src/external-accounts/ownership/liveness-page.js";
import type { ExternalAccount } from "../../src/external-accounts/schemas.js";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";
import { eventually, platformWithReceiver } from "../webhooks/helpers.js";

let server: TestServer;
let client: TestClient;
let customerId: string;
beforeAll(async () => {
  // The service clock stands still (platform clocks move only by /sandbox/clock/advance): the expiry test
  // submits 1 s before expiresAt, which real time passing on a loaded machine would otherwise overshoot.
  server = await startServer({ serviceTime: "2026-03-02T15:00:00.000Z" });
  client = server.client;
  customerId = await newCustomer(client);
});
afterAll(() => server.close());

interface LivenessChallenge {
  method: "LIVENESS";
  verificationLink: string;
  token: string;
  expiresAt: string;
}

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

async function newCustomer(c: TestClient): Promise<string> {
  const res = await c.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** A FIRST_PARTY self-custody Ethereum wallet: PENDING_OWNERSHIP_VERIFICATION at create. */
async function wallet(c: TestClient = client, owner = customerId): Promise<ExternalAccount> {
  const res = await c.post<ExternalAccount>("/customers/external-accounts", {
    customerId: owner,
    currency: "USDC",
    ownershipType: "FIRST_PARTY",
    accountInfo: { accountType: "ETHEREUM_WALLET", address: `0x${randomBytes(20).toString("hex")}` },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe("PENDING_OWNERSHIP_VERIFICATION");
  return res.body;
}

async function liveness(accountId: string, c: TestClient = client, base = "/customers/external-accounts") {
  const res = await c.post<LivenessChallenge>(`${base}/${accountId}/challenge`, { method: "LIVENESS" });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const visit = (url: string) => fetch(url).then(async (res) => ({ res, html: await res.text() }));

/** Posts the hosted page's form as a browser does (multipart); fields left out are not sent. */
async function submitForm(
  url: string,
  fields: { consent?: boolean; image?: Buffer | null; type?: string; outcome?: string } = {},
) {
  const form = new FormData();
  if (fields.consent ?? true) form.append("consent", "yes");
  if (fields.image !== null)
    form.append(
      "image",
      new Blob([new Uint8Array(fields.image ?? PNG)], { type: fields.type ?? "image/png" }),
      "selfie.png",
    );
  if (fields.outcome !== "") form.append("outcome", fields.outcome ?? "PASS");
  const res = await fetch(url, { method: "POST", body: form });
  return { res, html: await res.text() };
}

const captureBody = (overrides: Record<string, unknown> = {}) => ({
  consent: true,
  image: PNG.toString("base64"),
  outcome: "PASS",
  ...overrides,
});
/** The provider-SDK path: public JSON, no credentials. */
const capture = (challenge: LivenessChallenge, body: unknown = captureBody()) =>
  client.post<Record<string, unknown>>(`/ownership/liveness/${challenge.token}/sessions`, body, {
    auth: null,
  });

const statusOf = async (id: string, c: TestClient = client, base = "/customers/external-accounts") =>
  (await c.get<ExternalAccount>(`${base}/${id}`)).body.status;

/** Statuses announced by EXTERNAL_ACCOUNT.STATUS_UPDATED for the account, oldest first. */
async function announced(accountId: string): Promise<string[]> {
  const rows = await server.db.query<{ body: string }>(
    "SELECT body FROM webhook_events WHERE type = 'EXTERNAL_ACCOUNT.STATUS_UPDATED' AND body LIKE $1 ORDER BY created_at, id",
    [`%${accountId}%`],
  );
  return rows.map((r) => (JSON.parse(r.body).data as ExternalAccount).status);
}

async function challengeState(token: string): Promise<string | undefined> {
  const [row] = await server.db.query<{ state: string }>(
    "SELECT state FROM ownership_challenges WHERE token_hash = $1",
    [sha256Hex(token)],
  );
  return row?.state;
}

/** Moves the platform's clock forward by `ms`, then runs what became due. */
async function advance(c: TestClient, ms: number): Promise<void> {
  const now = (await c.get<{ now: string }>("/sandbox/clock")).body.now;
  const res = await c.post("/sandbox/clock/advance", { to: new Date(Date.parse(now) + ms).toISOString() });
  expect(res.status, res.text).toBe(200);
  await server.jobs.runDue();
}

/** Lets the sandbox provider answer (its delay on the platform clock). */
const providerAnswers = (c: TestClient = client) => advance(c, LIVENESS_COMPLETION_DELAY_MS + 1_000);

async function ownPlatform(): Promise<{ platform: Credentials; c: TestClient; owner: string }> {
  const platform = await server.newPlatform();
  const c = client.as(platform);
  return { platform, c, owner: await newCustomer(c) };
}

describe("the hosted liveness page (GET verificationLink)", () => {
  test("opens without credentials: 200 HTML with a consent checkbox, a camera-or-upload input and the sandbox pass/fail choice", async () => {
    const account = await wallet();
    const challenge = await liveness(account.id);
    expect(challenge.verificationLink).toBe(
      `${server.origin}/${API_VERSION}/ownership/liveness/${challenge.token}`,
    );
    const { res, html } = await visit(challenge.verificationLink);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html).toMatch(/<form method="post" enctype="multipart\/form-data">/);
    expect(html).toMatch(/<input type="checkbox" name="consent" value="yes" required>/);
    expect(html).toMatch(
      /<input type="file" id="image" name="image" accept="image\/\*" capture="user" required>/,
    );
    expect(html).toContain('name="outcome" value="PASS"');
    expect(html).toContain('name="outcome" value="FAIL"');
    expect(html).toContain(String((account.accountInfo as { address?: string }).address));
  });

  test("headers: no scripts or outside resources, not embeddable, never cached, no Referer", async () => {
    const challenge = await liveness((await wallet()).id);
    const { res } = await visit(challenge.verificationLink);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("script-src");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("looking does not use the link up: the page opens again and can still be submitted", async () => {
    const challenge = await liveness((await wallet()).id);
    expect((await visit(challenge.verificationLink)).res.status).toBe(200);
    expect((await visit(challenge.verificationLink)).res.status).toBe(200);
    expect((await submitForm(challenge.verificationLink)).res.status).toBe(200);
  });

  test("everything rendered is escaped (address, field messages)", () => {
    const html = renderLivenessPage(
      { accountType: "ETHEREUM_WALLET", address: `<script>alert("x")</script>'&`, expiresAt: new Date() },
      [{ field: "<b>image</b>", message: `<img src=x onerror="y">` }],
    );
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#39;&#38;");
  });

  test.each([
    ["an unknown token", `${"A".repeat(43)}`],
    ["a malformed token", "not-a-token"],
  ])("%s: an HTML 410 page without a form", async (_name, token) => {
    const { res, html } = await visit(`${server.baseUrl}/ownership/liveness/${token}`);
    expect(res.status).toBe(410);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(html).not.toContain("<form");
  });

  test("an abandoned challenge (a newer one replaced it) is 410 without a form; the newer link works", async () => {
    const account = await wallet();
    const old = await liveness(account.id);
    const newer = await liveness(account.id);
    const gone = await visit(old.verificationLink);
    expect(gone.res.status).toBe(410);
    expect(gone.html).not.toContain("<form");
    expect(gone.html).toContain("replaced by a newer one");
    expect((await submitForm(old.verificationLink)).res.status).toBe(410);
    expect((await visit(newer.verificationLink)).res.status).toBe(200);
  });

  test("switching to WALLET_SIGNATURE abandons the liveness link: 410", async () => {
    const account = await wallet();
    const old = await liveness(account.id);
    const res = await client.post(`/customers/external-accounts/${account.id}/challenge`, {
      method: "WALLET_SIGNATURE",
    });
    expect(res.status).toBe(201);
    expect((await visit(old.verificationLink)).res.status).toBe(410);
  });

  test("a deleted account's link is 410", async () => {
    const account = await wallet();
    const challenge = await liveness(account.id);
    expect((await client.delete(`/customers/external-accounts/${account.id}`)).status).toBe(204);
    expect((await visit(challenge.verificationLink)).res.status).toBe(410);
    expect((await submitForm(challenge.verificationLink)).res.status).toBe(410);
  });

  test("the link expires 30 minutes after issue on the platform clock: 200 just before, 410 after, for both paths", async () => {
    const { c, owner } = await ownPlatform();
    const challenge = await liveness((await wallet(c, owner)).id, c);
    const clock = (await c.get<{ now: string }>("/sandbox/clock")).body.now;
    const ttl = Date.parse(challenge.expiresAt) - Date.parse(clock);
    expect(ttl).toBeGreaterThan(30 * 60_000 - 5_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000);
    await advance(c, ttl - 2_000);
    expect((await visit(challenge.verificationLink)).res.status).toBe(200);
    await advance(c, 3_000);
    const { res, html } = await visit(challenge.verificationLink);
    expect(res.status).toBe(410);
    expect(html).toContain("expired");
    expect((await submitForm(challenge.verificationLink)).res.status).toBe(410);
    const sdk = await capture(challenge);
    expect(sdk.status).toBe(409);
    expect(sdk.body).toMatchObject({ code: "CONFLICT" });
  });
});

describe("submitting the hosted page", () => {
  test("PASS: a thank-you page; still PENDING_OWNERSHIP_VERIFICATION until the provider answers 3 s later, then ACTIVE and the webhook arrives", async () => {
    const { client: c, receiver } = await platformWithReceiver(server);
    try {
      const account = await wallet(c, await newCustomer(c));
      const challenge = await liveness(account.id, c);
      const { res, html } = await submitForm(challenge.verificationLink, { outcome: "PASS" });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(html).toContain("Thank you — you can close this window");
      expect(html).not.toContain("<form");

      await server.jobs.runDue();
      expect(await statusOf(account.id, c)).toBe("PENDING_OWNERSHIP_VERIFICATION");
      expect(await challengeState(challenge.token)).toBe("OPEN");

      await providerAnswers(c);
      expect(await statusOf(account.id, c)).toBe("ACTIVE");
      expect(await challengeState(challenge.token)).toBe("VERIFIED");
      await eventually(() => {
        const events = receiver.received.map((r) => JSON.parse(r.body));
        expect(events).toContainEqual(
          expect.objectContaining({
            type: "EXTERNAL_ACCOUNT.STATUS_UPDATED",
            data: expect.objectContaining({ id: account.id, status: "ACTIVE" }),
          }),
        );
      });
    } finally {
      await receiver.close();
    }
  });

  test("FAIL: UNVERIFIED after the provider answers, with EXTERNAL_ACCOUNT.STATUS_UPDATED", async () => {
    const account = await wallet();
    const challenge = await liveness(account.id);
    expect((await submitForm(challenge.verificationLink, { outcome: "FAIL" })).res.status).toBe(200);
    expect(await statusOf(account.id)).toBe("PENDING_OWNERSHIP_VERIFICATION");
    await providerAnswers();
    expect(await statusOf(account.id)).toBe("UNVERIFIED");
    expect(await challengeState(challenge.token)).toBe("FAILED");
    expect(await announced(account.id)).toEqual(["UNVERIFIED"]);
  });

  test("an UNVERIFIED wallet can start over with a new liveness challenge and pass", async () => {
    const account = await wallet();
    const first = await liveness(account.id);
    await submitForm(first.verificationLink, { outcome: "FAIL" });
    await providerAnswers();
    expect(await statusOf(account.id)).toBe("UNVERIFIED");
    const second = await liveness(account.id);
    expect(await statusOf(account.id)).toBe("PENDING_OWNERSHIP_VERIFICATION");
    await submitForm(second.verificationLink, { outcome: "PASS" });
    await providerAnswers();
    expect(await statusOf(account.id)).toBe("ACTIVE");
    expect(await announced(account.id)).toEqual(["UNVERIFIED", "PENDING_OWNERSHIP_VERIFICATION", "ACTIVE"]);
  });

  test("single use: a second submit, and a reload of the page, are 410 without a form; the account changes once", async () => {
    const account = await wallet();
    const challenge = await liveness(account.id);
    expect((await submitForm(challenge.verificationLink)).res.status).toBe(200);
    const again = await submitForm(challenge.verificationLink, { outcome: "FAIL" });
    expect(again.res.status).toBe(410);
    expect(again.html).toContain("already submitted");
    expect(again.html).not.toContain("<form");
    expect((await visit(challenge.verificationLink)).res.status).toBe(410);
    expect((await capture(challenge)).status).toBe(409);
    await providerAnswers();
    expect(await statusOf(account.id)).toBe("ACTIVE");
    expect(await announced(account.id)).toEqual(["ACTIVE"]);
  });

  test("concurrent submits of one link: exactly one is accepted and one answer is scheduled", async () => {
    const account = await wallet();
    const challenge = await liveness(account.id);
    const results = await Promise.all([
      submitForm(challenge.verificationLink, { outcome: "PASS" }),
      submitForm(challenge.verificationLink, { outcome: "FAIL" }),
      capture(challenge, captureBody({ outcome: "FAIL" })),
      submitForm(challenge.verificationLink, { outcome: "FAIL" }),
    ]);
    const accepted = results.filter((r) => ("res" in r ? r.res.status : r.status) < 300);
    expect(accepted.length).toBe(1);
    const jobs = await server.db.query(
      "SELECT id FROM jobs WHERE kind = $1 AND payload->>'challengeId' = $2",
      [
        "external-accounts.liveness-completion",
        (
          await server.db.query<{ id: string }>(
            "SELECT id FROM ownership_challenges WHERE external_account_id = $1",
            [account.id],
          )
        )[0]?.id,
      ],
    );
    expect(jobs.length).toBe(1);
    await providerAnswers();
    expect(["ACTIVE", "UNVERIFIED"]).toContain(await statusOf(account.id));
    expect((await announced(account.id)).length).toBe(1);
  });

  test.each([
    ["no consent", { consent: false }, ["Consent"]],
    ["no photo", { image: null }, ["Photo"]],
    ["an empty file", { image: Buffer.alloc(0) }, ["Photo"]],
    [
      "a file that is not an image",
      { image: Buffer.from("%PDF-1.7 not a selfie"), type: "image/png" },
      ["Photo"],
    ],
    ["no pass/fail choice", { outcome: "" }, ["Result"]],
    ["nothing at all", { consent: false, image: null, outcome: "" }, ["Consent", "Photo", "Result"]],
  ])(
    "%s: a 400 page naming each problem, with the form again; nothing is recorded",
    async (_name, fields, named) => {
      const account = await wallet();
      const challenge = await liveness(account.id);
      const { res, html } = await submitForm(challenge.verificationLink, fields);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(html).toContain("<form");
      for (const label of named) expect(html).toContain(`<li>${label} `);
      expect(html.match(/<li>/g)?.length).toBe(named.length);
      // The link is still usable.
      expect((await submitForm(challenge.verificationLink)).res.status).toBe(200);
    },
  );

  test("a photo over 5 MB: a 400 page saying so; a post too large to read: a 413 page; the link stays usable", async () => {
    const challenge = await liveness((await wallet()).id);
    const over = await submitForm(challenge.verificationLink, {
      image: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]),
    });
    expect(over.res.status).toBe(400);
    expect(over.html).toContain("<li>Photo must be at most 5 MB</li>");
    const huge = await submitForm(challenge.verificationLink, {
      image: Buffer.concat([PNG, Buffer.alloc(7 * 1024 * 1024)]),
    });
    expect(huge.res.status).toBe(413);
    expect(huge.res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(huge.html).toContain("too large");
    expect((await submitForm(challenge.verificationLink)).res.status).toBe(200);
  });

  test("a urlencoded post cannot carry the photo (400 page); other content types are a 415 page", async () => {
    const challenge = await liveness((await wallet()).id);
    const encoded = await fetch(challenge.verificationLink, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "consent=yes&outcome=PASS",
    });
    expect(encoded.status).toBe(400);
    expect(await encoded.text()).toContain("<li>Photo ");
    const json = await fetch(challenge.verificationLink, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ consent: "yes", outcome: "PASS" }),
    });
    expect(json.status).toBe(415);
    expect(json.headers.get("content-type")).toMatch(/^text\/html/);
  });

  test("the form parsers are the page's alone: other routes still take only JSON", async () => {
    const res = await client.request("POST", "/customers", undefined, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      rawBody: "customerType=INDIVIDUAL",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_REQUEST_FORMAT" });
    const form = new FormData();
    form.append("customerType", "INDIVIDUAL");
    const multipart = await fetch(`${server.baseUrl}/customers`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${server.platform.clientId}:${server.platform.clientSecret}`)}`,
      },
      body: form,
    });
    expect(multipart.status).toBe(400);
    expect(await multipart.json()).toMatchObject({ code: "INVALID_REQUEST_FORMAT" });
  });

  test("an expired challenge does not complete: an answer due after expiresAt ends it EXPIRED and the account UNVERIFIED, never ACTIVE", async () => {
    const { c, owner } = await ownPlatform();
    const account = await wallet(c, owner);
    const challenge = await liveness(account.id, c);
    const clock = (await c.get<{ now: string }>("/sandbox/clock")).body.now;
    // Submit 1 s before expiry: the provider's answer (3 s later) lands after it. The platform clock moves
    // only by advance here (the service clock stands still), so the 1 s is exact.
    await advance(c, Date.parse(challenge.expiresAt) - Date.parse(clock) - 1_000);
    expect((await submitForm(challenge.verificationLink, { outcome: "PASS" })).res.status).toBe(200);
    await providerAnswers(c);
    expect(await challengeState(challenge.token)).toBe("EXPIRED");
    expect(await statusOf(account.id, c)).toBe("UNVERIFIED");
    expect(await announced(account.id)).toEqual(["UNVERIFIED"]);
  });

  test("a newer challenge abandons a submitted one: its pending answer changes nothing", async () => {
    const account = await wallet();
    const first = await liveness(account.id);
    expect((await submitForm(first.verificationLink, { outcome: "PASS" })).res.status).toBe(200);
    const second = await liveness(account.id);
    await providerAnswers();
    expect(await challengeState(first.token)).toBe("ABANDONED");
    expect(await challengeState(second.token)).toBe("OPEN");
    expect(await statusOf(account.id)).toBe("PENDING_OWNERSHIP_VERIFICATION");
    expect(await announced(account.id)).toEqual([]);
  });

  test("platform-owned wallets (the /platform twins) complete the same way", async () => {
    const res = await client.post<ExternalAccount>("/platform/external-accounts", {
      currency: "USDC",
      ownershipType: "FIRST_PARTY",
      accountInfo: { accountType: "ETHEREUM_WALLET", address: `0x${randomBytes(20).toString("hex")}` },
    });
    expect(res.status, res.text).toBe(201);
    const base = "/platform/external-accounts";
    const challenge = await liveness(res.body.id, client, base);
    expect((await submitForm(challenge.verificationLink)).res.status).toBe(200);
    await providerAnswers();
    expect(await statusOf(res.body.id, client, base)).toBe("ACTIVE");
  });

  test("a production platform's link: no sandbox provider decides its outcome (501 page, 501 NOT_IMPLEMENTED)", async () => {
    const platform = await server.newPlatform("PRODUCTION");
    const c = client.as(platform);
    const account = await wallet(c, await newCustomer(c));
    const challenge = await liveness(account.id, c);
    const { res, html } = await visit(challenge.verificationLink);
    expect(res.status).toBe(501);
    expect(html).not.toContain("<form");
    expect((await submitForm(challenge.verificationLink)).res.status).toBe(501);
    const sdk = await capture(challenge);
    expect(sdk.status).toBe(501);
    expect(sdk.body).toMatchObject({ code: "NOT_IMPLEMENTED" });
  });
});

describe("the provider-SDK path: POST /ownership/liveness/{token}/sessions", () => {
  test("202 {status: SUBMITTED, submittedAt}; the same outcome as the page: ACTIVE after the provider answers", async () => {
    const account = await wallet();
    const challenge = await liveness(account.id);
    const res = await capture(challenge);
    expect(res.status, res.text).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(["status", "submittedAt"]);
    expect(res.body.status).toBe("SUBMITTED");
    expect(await statusOf(account.id)).toBe("PENDING_OWNERSHIP_VERIFICATION");
    await providerAnswers();
    expect(await statusOf(account.id)).toBe("ACTIVE");
    expect(await announced(account.id)).toEqual(["ACTIVE"]);
  });

  test("FAIL → UNVERIFIED; URL-safe base64 is accepted", async () => {
    const account = await wallet();
    const challenge = await liveness(account.id);
    const image = PNG.toString("base64url");
    expect((await capture(challenge, captureBody({ outcome: "FAIL", image }))).status).toBe(202);
    await providerAnswers();
    expect(await statusOf(account.id)).toBe("UNVERIFIED");
  });

  test("single use: a second capture is 409 CONFLICT and the hosted page is 410", async () => {
    const challenge = await liveness((await wallet()).id);
    expect((await capture(challenge)).status).toBe(202);
    const again = await capture(challenge);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "CONFLICT" });
    expect(String(again.body.reason)).toContain("already submitted");
    expect((await visit(challenge.verificationLink)).res.status).toBe(410);
  });

  test("an unknown token is 404 NOT_FOUND; an abandoned one is 409 CONFLICT", async () => {
    const account = await wallet();
    const old = await liveness(account.id);
    await liveness(account.id);
    const unknown = { ...old, token: randomBytes(32).toString("base64url") };
    expect((await capture(unknown)).body).toMatchObject({ code: "NOT_FOUND" });
    const abandoned = await capture(old);
    expect(abandoned.status).toBe(409);
    expect(String(abandoned.body.reason)).toContain("newer challenge");
  });

  test("every problem of the capture in one 400 INVALID_INPUT, before the token is looked at", async () => {
    const unknown = { token: randomBytes(32).toString("base64url") } as LivenessChallenge;
    const res = await capture(unknown, { consent: false, image: "not base64!", outcome: "PASS" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
    const errors = (res.body.details as { errors: { field: string; message: string }[] }).errors;
    expect(errors.map((e) => e.field).sort()).toEqual(["consent", "image"]);
    expect(errors.find((e) => e.field === "image")?.message).toBe("is not base64");

    const challenge = await liveness((await wallet()).id);
    const notImage = await capture(
      challenge,
      captureBody({ image: Buffer.from("hello").toString("base64") }),
    );
    expect(notImage.status).toBe(400);
    expect(JSON.stringify(notImage.body)).toContain("is not an image");
    const schema = await capture(challenge, { ...captureBody(), outcome: "MAYBE", extra: 1 });
    expect(schema.status).toBe(400);
    expect(schema.body).toMatchObject({ code: "INVALID_INPUT" });
    // None of these used the link up.
    expect((await capture(challenge)).status).toBe(202);
  });

  test("credentials and an Idempotency-Key, as an SDK sends them, are ignored on this public route", async () => {
    const challenge = await liveness((await wallet()).id);
    const res = await client.post(`/ownership/liveness/${challenge.token}/sessions`, captureBody(), {
      headers: { "idempotency-key": "liveness-1" },
    });
    expect(res.status, res.text).toBe(202);
  });

  test("the capture is not stored: the job keeps a sha256 of the photo and its size only", async () => {
    const challenge = await liveness((await wallet()).id);
    expect((await capture(challenge)).status).toBe(202);
    const [job] = await server.db.query<{ payload: Record<string, unknown> }>(
      `SELECT j.payload FROM jobs j JOIN ownership_challenges c ON c.id = j.payload->>'challengeId'
        WHERE j.kind = 'external-accounts.liveness-completion' AND c.token_hash = $1`,
      [sha256Hex(challenge.token)],
    );
    expect(job?.payload).toMatchObject({ channel: "SDK", outcome: "PASS", imageBytes: PNG.length });
    expect(JSON.stringify(job?.payload)).not.toContain(PNG.toString("base64").slice(0, 20));
  });
});
