import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isLuhnValid, sandboxCvv, sandboxPan } from "../../src/cards/pan.js";
import { REVEAL_TTL_MS } from "../../src/cards/reveal.js";
import type { Card } from "../../src/cards/schemas.js";
import { sha256Hex } from "../../src/core/hash.js";
import { API_VERSION } from "../../src/core/http/version.js";
import { frameAncestors } from "../../src/platform/card-reveal-origins.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { activeCard, cardPlatform, issueCard, newCardholder } from "./helpers.js";

let server: TestServer;
let client: TestClient;
let platformId: string;
beforeAll(async () => {
  server = await startServer();
  const setup = await cardPlatform(server);
  client = setup.client;
  platformId = setup.platform.platformId;
});
afterAll(() => server.close());

interface RevealLink {
  panEmbedUrl: string;
  expiresAt: string;
}

const reveal = (c: TestClient, cardId: string) => c.post<RevealLink>(`/cards/${cardId}/reveal`);
const visit = (url: string) => fetch(url).then(async (res) => ({ res, html: await res.text() }));
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

async function newActiveCard(c: TestClient = client): Promise<Card> {
  return activeCard(server, c, await newCardholder(c));
}

async function link(cardId: string, c: TestClient = client): Promise<RevealLink> {
  const res = await reveal(c, cardId);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("POST /cards/{id}/reveal", () => {
  test("an ACTIVE card -> 200 {panEmbedUrl, expiresAt}: an absolute URL on this server, expiring 5 minutes after issue", async () => {
    const card = await newActiveCard();
    const clock = await client.get<{ now: string }>("/sandbox/clock");
    const res = await reveal(client, card.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["expiresAt", "panEmbedUrl"]);
    expect(res.body.panEmbedUrl).toMatch(
      new RegExp(`^${server.origin}/${API_VERSION}/cards/embed/[A-Za-z0-9_-]{43}$`),
    );
    const ttl = Date.parse(res.body.expiresAt) - Date.parse(clock.body.now);
    expect(ttl).toBeGreaterThanOrEqual(REVEAL_TTL_MS);
    expect(ttl).toBeLessThan(REVEAL_TTL_MS + 5_000);
  });

  test("reveal takes no body: an empty request with no Content-Type and {} are accepted, a field is 400", async () => {
    const card = await newActiveCard();
    expect((await client.post(`/cards/${card.id}/reveal`, undefined)).status).toBe(200);
    expect((await client.post(`/cards/${card.id}/reveal`, {})).status).toBe(200);
    const res = await client.post(`/cards/${card.id}/reveal`, { format: "html" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT" });
  });

  test("a FROZEN card reveals; PROCESSING and CLOSED cards are 409 CONFLICT", async () => {
    const frozen = await newActiveCard();
    expect((await client.patch(`/cards/${frozen.id}`, { status: "FROZEN" })).status).toBe(200);
    expect((await reveal(client, frozen.id)).status).toBe(200);

    const holder = await newCardholder(client);
    const processing = await issueCard(client, holder, { platformCardId: `reveal-${Date.now()}-001` });
    const closed = await newActiveCard();
    expect((await client.patch(`/cards/${closed.id}`, { status: "CLOSED" })).status).toBe(200);
    for (const card of [processing, closed]) {
      const res = await reveal(client, card.id);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: "CONFLICT" });
    }
  });

  test("another platform's card, or a malformed id, is 404 NOT_FOUND", async () => {
    const card = await newActiveCard();
    const other = client.as(await server.newPlatform());
    expect((await reveal(other, card.id)).body).toMatchObject({ code: "NOT_FOUND" });
    expect((await reveal(client, "Card:nonsense")).body).toMatchObject({ code: "NOT_FOUND" });
  });

  test("only the sha256 of the token is stored; the token is in no column of card_reveals", async () => {
    const card = await newActiveCard();
    const { panEmbedUrl } = await link(card.id);
    const token = tokenOf(panEmbedUrl);
    const rows = await server.db.query<{ token_hash: string }>(
      "SELECT * FROM card_reveals WHERE card_id = $1",
      [card.id],
    );
    expect(rows.map((r) => r.token_hash)).toEqual([sha256Hex(token)]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  test("CARD.* events never carry the reveal URL or the PAN", async () => {
    const card = await newActiveCard();
    const { panEmbedUrl } = await link(card.id);
    await client.patch(`/cards/${card.id}`, { status: "FROZEN" });
    await client.post(`/cards/${card.id}/pin`, { pin: "1234" });
    await link(card.id);
    await client.patch(`/cards/${card.id}`, { status: "CLOSED" });
    const events = await server.db.query<{ body: string }>(
      "SELECT body FROM webhook_events WHERE platform_id = $1 AND type LIKE 'CARD.%' AND body LIKE $2",
      [platformId, `%${card.id}%`],
    );
    expect(events.length).toBe(4);
    for (const { body } of events) {
      expect(body).not.toContain(tokenOf(panEmbedUrl));
      expect(body).not.toContain("/cards/embed/");
      expect(body).not.toContain(sandboxPan(card.id));
    }
  });
});

describe("reveal links and framing (issue 16 item 7)", () => {
  test("the link is made with the service's own address, never the request's Host header", async () => {
    const card = await newActiveCard();
    // node:http, because fetch does not let a caller choose the Host header.
    const url = new URL(`${server.origin}/${API_VERSION}/cards/${card.id}/reveal`);
    const { clientId, clientSecret } = client.credentials;
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: "POST",
          headers: {
            host: "attacker.example",
            "x-forwarded-host": "attacker.example",
            authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
          },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk.toString()));
          res.on("end", () => resolve(text));
        },
      );
      req.on("error", reject);
      req.end();
    });
    const { panEmbedUrl } = JSON.parse(body) as RevealLink;
    expect(panEmbedUrl.startsWith(`${server.origin}/${API_VERSION}/cards/embed/`)).toBe(true);
    expect(panEmbedUrl).not.toContain("attacker");
  });

  test("the page's frame-ancestors is the platform's cardRevealOrigins (PATCH /config), never *", async () => {
    const setup = await cardPlatform(server);
    const origins = ["https://app.example.com", "https://wallet.example.com:8443"];
    const patched = await setup.client.patch<{ cardRevealOrigins: string[] }>("/config", {
      cardRevealOrigins: origins,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.cardRevealOrigins).toEqual(origins);
    const card = await activeCard(server, setup.client, await newCardholder(setup.client));
    const { panEmbedUrl } = await link(card.id, setup.client);
    const { res } = await visit(panEmbedUrl);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`frame-ancestors ${origins.join(" ")}`);
    expect(csp).not.toContain("*");
  });

  test("the 410 page names no platform, so no page may frame it: frame-ancestors 'none'", async () => {
    const { res } = await visit(`${server.origin}/${API_VERSION}/cards/embed/${"A".repeat(43)}`);
    expect(res.status).toBe(410);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  test.each([
    ["a path", "https://app.example.com/pay"],
    ["a trailing slash", "https://app.example.com/"],
    ["a wildcard", "*"],
    ["not a URL", "app.example.com"],
  ])("cardRevealOrigins with %s -> 400 INVALID_INPUT naming the entry", async (_name, origin) => {
    const res = await client.patch<{ code: string; details: { errors: { field: string }[] } }>("/config", {
      cardRevealOrigins: ["https://ok.example.com", origin],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details.errors.map((e) => e.field)).toEqual(["cardRevealOrigins[1]"]);
  });

  test("a production platform's cardRevealOrigins must be https; with none configured, nothing may frame its page", async () => {
    const production = server.client.as(await server.newPlatform("PRODUCTION"));
    const res = await production.patch<{ details: { errors: { field: string }[] } }>("/config", {
      cardRevealOrigins: ["http://app.example.com"],
    });
    expect(res.status).toBe(400);
    expect(res.body.details.errors.map((e) => e.field)).toEqual(["cardRevealOrigins[0]"]);
    expect(frameAncestors([], "PRODUCTION")).toBe("'none'");
  });
});

describe("the reveal page", () => {
  test("shows the full PAN, expiry and CVV without API credentials, with iframe-friendly, no-store headers", async () => {
    const card = await newActiveCard();
    const { panEmbedUrl } = await link(card.id);
    const { res, html } = await visit(panEmbedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    // A sandbox platform with no configured origins: local pages only, never `*`.
    expect(res.headers.get("content-security-policy")).toContain(
      "frame-ancestors 'self' http://localhost:* http://127.0.0.1:* https://localhost:*",
    );
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");

    const pan = sandboxPan(card.id);
    expect(isLuhnValid(pan)).toBe(true);
    expect(pan.endsWith(card.last4)).toBe(true);
    expect(html.replace(/\s/g, "")).toContain(pan);
    const expiry = `${String(card.expMonth).padStart(2, "0")}/${String(card.expYear).slice(2)}`;
    expect(html).toContain(expiry);
    expect(html).toContain(sandboxCvv(card.id));
  });

  test("the link is single use: a second visit is an HTML 410 without the PAN", async () => {
    const card = await newActiveCard();
    const { panEmbedUrl } = await link(card.id);
    expect((await visit(panEmbedUrl)).res.status).toBe(200);
    const { res, html } = await visit(panEmbedUrl);
    expect(res.status).toBe(410);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(html.replace(/\s/g, "")).not.toContain(sandboxPan(card.id));
    // The page's text, not its style sheet: a 3-digit CVV such as 111 also spells the colour #111 there.
    expect(html.replace(/<style>[\s\S]*?<\/style>/, "")).not.toContain(sandboxCvv(card.id));
  });

  test("two concurrent visits of one link: exactly one sees the PAN, the other gets 410", async () => {
    const card = await newActiveCard();
    const { panEmbedUrl } = await link(card.id);
    const visits = await Promise.all([visit(panEmbedUrl), visit(panEmbedUrl), visit(panEmbedUrl)]);
    expect(visits.map((v) => v.res.status).sort()).toEqual([200, 410, 410]);
    const shown = visits.filter((v) => v.html.replace(/\s/g, "").includes(sandboxPan(card.id)));
    expect(shown.length).toBe(1);
  });

  test("a link expires 5 minutes after issue on the platform clock: valid just before, 410 after", async () => {
    const { client: own } = await cardPlatform(server);
    const card = await newActiveCard(own);
    const early = await link(card.id, own);
    const late = await link(card.id, own);
    const advance = (ms: number) =>
      own.post("/sandbox/clock/advance", { to: new Date(Date.parse(late.expiresAt) + ms).toISOString() });
    expect((await advance(-2_000)).status).toBe(200);
    expect((await visit(early.panEmbedUrl)).res.status).toBe(200);
    expect((await advance(1_000)).status).toBe(200);
    const { res, html } = await visit(late.panEmbedUrl);
    expect(res.status).toBe(410);
    expect(html.replace(/\s/g, "")).not.toContain(sandboxPan(card.id));
  });

  test("a HEAD request does not consume the link", async () => {
    const card = await newActiveCard();
    const { panEmbedUrl } = await link(card.id);
    const head = await fetch(panEmbedUrl, { method: "HEAD" });
    expect(head.status).not.toBe(200);
    expect((await visit(panEmbedUrl)).res.status).toBe(200);
  });

  test("a link whose card was closed after issue is 410", async () => {
    const card = await newActiveCard();
    const { panEmbedUrl } = await link(card.id);
    expect((await client.patch(`/cards/${card.id}`, { status: "CLOSED" })).status).toBe(200);
    expect((await visit(panEmbedUrl)).res.status).toBe(410);
  });

  test.each([
    ["an unknown token", "A".repeat(43)],
    ["a malformed token", "not-a-token"],
  ])("%s is 410", async (_, token) => {
    const { res, html } = await visit(`${server.baseUrl}/cards/embed/${token}`);
    expect(res.status).toBe(410);
    expect(html).toMatch(/expired or was already used/);
  });
});
