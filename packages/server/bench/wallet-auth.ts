import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import type { Db } from "../src/core/db/db.js";
import { newId } from "../src/core/ids.js";
import { request } from "./http-client.js";
import { type Measurement, measureFor } from "./measure.js";

export interface WalletAuthBenchContext {
  base: string;
  authorization: string;
  db: Db;
  platformId: string;
}

interface Wallet {
  accountId: string;
  publicKey: string;
  privateKey: KeyObject;
}

/**
 * A session key pair as a client makes it; the public key compressed (`02`/`03` + x), as stamps carry it.
 * Node's own crypto signs: the pure-JS signer took 2.8 ms a stamp on the bench's 2 cores, which the
 * service's figure would have paid for a client's work (issue 20).
 */
function sessionKeyPair(): { publicKey: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x ?? "", "base64url");
  const y = Buffer.from(jwk.y ?? "", "base64url");
  const prefix = (y.at(-1) ?? 0) % 2 === 0 ? "02" : "03";
  return { publicKey: `${prefix}${x.toString("hex")}`, privateKey };
}

/** The Turnkey API-key stamp (conventions §5.3) a client sends as `Service-Wallet-Signature`. */
function stamp(wallet: Wallet, payloadToSign: string): string {
  const signature = sign("sha256", Buffer.from(payloadToSign, "utf8"), wallet.privateKey);
  return Buffer.from(
    JSON.stringify({
      publicKey: wallet.publicKey,
      scheme: "SIGNATURE_SCHEME_TK_API_P256",
      signature: signature.toString("hex"),
    }),
  ).toString("base64url");
}

/**
 * Signed-retry pairs per second (issues 7 and 20): `PATCH /internal-accounts/{id} {privateEnabled}`
 * answered `202`, stamped, and sent again with `Service-Wallet-Signature` and `Request-Id` for the `200`,
 * `inFlight` pairs at once, each on its own wallet. Each wallet's session is inserted directly (the bench
 * measures the signed retry, not the login).
 */
export async function walletAuthBench(ctx: WalletAuthBenchContext, inFlight = 16): Promise<Measurement> {
  const headers = { authorization: ctx.authorization, "content-type": "application/json" };
  const wallets: Wallet[] = [];
  for (let i = 0; i < inFlight; i++) {
    const customer = (await (
      await fetch(`${ctx.base}/customers`, {
        method: "POST",
        headers,
        body: JSON.stringify({ customerType: "INDIVIDUAL", email: `wallet-bench-${i}@example.com` }),
      })
    ).json()) as { id: string };
    const [account] = await ctx.db.query<{ id: string }>(
      "SELECT id FROM internal_accounts WHERE customer_id = $1 AND type = 'EMBEDDED_WALLET'",
      [customer.id],
    );
    const [method] = await ctx.db.query<{ id: string }>(
      "SELECT id FROM auth_methods WHERE account_id = $1 AND revoked_at IS NULL LIMIT 1",
      [account?.id],
    );
    if (!account || !method) throw new Error(`customer ${customer.id} has no embedded wallet credential`);
    const { publicKey, privateKey } = sessionKeyPair();
    const now = new Date();
    await ctx.db.query(
      `INSERT INTO auth_sessions (id, platform_id, account_id, auth_method_id, public_key, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [
        newId("Session"),
        ctx.platformId,
        account.id,
        method.id,
        publicKey,
        new Date(now.getTime() + 15 * 60_000),
        now,
      ],
    );
    wallets.push({ accountId: account.id, publicKey, privateKey });
  }

  return measureFor(
    "signed-retry pair (202 + signed retry)",
    { concurrency: inFlight },
    async (i, worker) => {
      const wallet = wallets[worker] as Wallet;
      const url = `${ctx.base}/internal-accounts/${wallet.accountId}`;
      const body = JSON.stringify({ privateEnabled: i % 2 === 0 });
      const first = await request(url, { method: "PATCH", headers, body });
      if (first.status !== 202) return first;
      const challenge = (await first.json()) as { payloadToSign: string; requestId: string };
      return request(url, {
        method: "PATCH",
        headers: {
          ...headers,
          "service-wallet-signature": stamp(wallet, challenge.payloadToSign),
          "request-id": challenge.requestId,
        },
        body,
      });
    },
  );
}
