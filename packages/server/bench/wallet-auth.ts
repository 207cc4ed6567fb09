import { p256 } from "@noble/curves/nist.js";
import type { Db } from "../src/core/db/db.js";
import { newId } from "../src/core/ids.js";
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
  secretKey: Uint8Array;
}

/** The Turnkey API-key stamp (conventions §5.3) a client sends as `Service-Wallet-Signature`. */
function stamp(wallet: Wallet, payloadToSign: string): string {
  const signature = p256.sign(new TextEncoder().encode(payloadToSign), wallet.secretKey, { format: "der" });
  return Buffer.from(
    JSON.stringify({
      publicKey: wallet.publicKey,
      scheme: "SIGNATURE_SCHEME_TK_API_P256",
      signature: Buffer.from(signature).toString("hex"),
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
    const secretKey = p256.utils.randomSecretKey();
    const publicKey = Buffer.from(p256.getPublicKey(secretKey, true)).toString("hex");
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
    wallets.push({ accountId: account.id, publicKey, secretKey });
  }

  return measureFor(
    "signed-retry pair (202 + signed retry)",
    { concurrency: inFlight },
    async (i, worker) => {
      const wallet = wallets[worker] as Wallet;
      const url = `${ctx.base}/internal-accounts/${wallet.accountId}`;
      const body = JSON.stringify({ privateEnabled: i % 2 === 0 });
      const first = await fetch(url, { method: "PATCH", headers, body });
      if (first.status !== 202) return first;
      const challenge = (await first.json()) as { payloadToSign: string; requestId: string };
      return fetch(url, {
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
