import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

// The integrator backend of the passkey demo. It holds the paysvc API token (the browser never sees it),
// issues WebAuthn registration challenges, and forwards the embedded-wallet auth calls the page makes to
// paysvc with Basic auth, passing the signed-retry headers through untouched. Everything that proves
// the user (session keys, stamps, WebAuthn) happens in the browser.

export interface PasskeyDemoOptions {
  /** paysvc's versioned base URL, e.g. http://127.0.0.1:8080/2025-10-13. */
  paysvcBaseUrl: string;
  clientId: string;
  clientSecret: string;
  /** 0 picks a free port. */
  port?: number;
}

export interface PasskeyDemo {
  /** http://localhost:<port>: the page's origin (RP ID `localhost`, paysvc's sandbox default). */
  url: string;
  close(): Promise<void>;
}

const publicDir = join(import.meta.dirname, "public");
const assets: Record<string, string> = {
  "/": "index.html",
  "/app.js": "app.js",
  "/wallet-crypto.js": "wallet-crypto.js",
};
/** Only the embedded-wallet auth endpoints are forwarded; the rest of the API stays server-side. */
const forwarded = /^\/paysvc(\/auth\/(credentials|sessions)(\/[^?]*)?)(\?.*)?$/;
const REGISTRATION_CHALLENGE_TTL_MS = 5 * 60 * 1000;

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

/** Starts the demo backend on 127.0.0.1 and returns the localhost URL to open. */
export async function startPasskeyDemo(options: PasskeyDemoOptions): Promise<PasskeyDemo> {
  const auth = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64")}`;
  // Registration challenges this backend issued, until used or expired: paysvc checks that the
  // attestation signs the challenge it is given; that the challenge is one we issued is our check.
  const issued = new Map<string, number>();

  const server = createServer(async (req, res) => {
    try {
      const url = req.url ?? "/";
      const asset = assets[url.split("?")[0] ?? "/"];
      if (req.method === "GET" && asset) {
        const type = asset.endsWith(".js") ? "text/javascript" : "text/html; charset=utf-8";
        res.writeHead(200, { "content-type": type }).end(await readFile(join(publicDir, asset)));
        return;
      }
      if (req.method === "POST" && url === "/api/registration-options") {
        const challenge = randomBytes(32).toString("base64url");
        issued.set(challenge, Date.now() + REGISTRATION_CHALLENGE_TTL_MS);
        json(res, 200, {
          challenge,
          rp: { id: "localhost", name: "paysvc passkey demo" },
          user: {
            id: randomBytes(16).toString("base64url"),
            name: "wallet user",
            displayName: "Wallet user",
          },
        });
        return;
      }
      const match = forwarded.exec(url);
      if (!match) return void json(res, 404, { error: "not found" });
      const payload = req.method === "GET" || req.method === "DELETE" ? undefined : await body(req);
      if (payload && payload.length > 0 && url.split("?")[0] === "/paysvc/auth/credentials") {
        const parsed = JSON.parse(payload.toString("utf8")) as { type?: string; challenge?: string };
        const expires = parsed.challenge ? issued.get(parsed.challenge) : undefined;
        if (parsed.type === "PASSKEY" && (expires === undefined || expires < Date.now()))
          return void json(res, 400, { error: "unknown or expired registration challenge" });
      }
      const headers: Record<string, string> = { authorization: auth };
      for (const name of ["content-type", "service-wallet-signature", "request-id"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      const answer = await fetch(`${options.paysvcBaseUrl}${match[1]}${match[4] ?? ""}`, {
        method: req.method ?? "GET",
        headers,
        ...(payload && payload.length > 0 ? { body: new Uint8Array(payload) } : {}),
      });
      const text = await answer.text();
      if (answer.status === 201 && payload) {
        const parsed = JSON.parse(payload.toString("utf8")) as { challenge?: string };
        if (parsed.challenge) issued.delete(parsed.challenge);
      }
      res.writeHead(answer.status, {
        "content-type": answer.headers.get("content-type") ?? "application/json",
      });
      res.end(text);
    } catch (error) {
      console.error(error);
      if (!res.headersSent) json(res, 500, { error: "demo backend failed" });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
