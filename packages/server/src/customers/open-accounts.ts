import type { Tx } from "../core/db/db.js";
import { newId } from "../core/ids.js";
import { isFiat } from "../core/money.js";
import { newAuthMethodRow } from "../wallet-auth/credential-rows.js";
import { insertAuthMethod } from "../wallet-auth/store.js";
import * as store from "./accounts-store.js";

// Opening the accounts a customer or platform starts with, apart from accounts.ts (reads, rule-based
// accounts), which looks customers up through customers.ts, while customers.ts opens accounts here.

/**
 * Opens the accounts a new customer gets: one INTERNAL_FIAT per fiat currency the platform supports, and
 * an EMBEDDED_WALLET when USDB is supported and the customer has an e-mail (conventions §2.2).
 */
export async function openCustomerAccounts(
  tx: Tx,
  input: {
    platformId: string;
    customerId: string;
    supportedCurrencies: string[];
    hasEmail: boolean;
    /** The customer's e-mail: the embedded wallet's EMAIL_OTP credential is tied to it. */
    email?: string;
    now: Date;
  },
): Promise<void> {
  const base = {
    platform_id: input.platformId,
    customer_id: input.customerId,
    role: "STANDARD" as const,
    status: "ACTIVE",
  };
  for (const code of input.supportedCurrencies.filter(isFiat)) {
    await store.insertInternalAccount(tx, {
      ...base,
      id: newId("InternalAccount"),
      type: "INTERNAL_FIAT",
      currency: code,
      private_enabled: null,
      created_at: input.now,
      updated_at: input.now,
    });
  }
  if (input.supportedCurrencies.includes("USDB") && input.hasEmail) {
    const walletId = newId("InternalAccount");
    await store.insertInternalAccount(tx, {
      ...base,
      id: walletId,
      type: "EMBEDDED_WALLET",
      currency: "USDB",
      private_enabled: false,
      created_at: input.now,
      updated_at: input.now,
    });
    // Authentication rule 3: the wallet starts with an EMAIL_OTP credential tied to the customer e-mail.
    if (input.email !== undefined)
      await insertAuthMethod(
        tx,
        newAuthMethodRow({
          platformId: input.platformId,
          accountId: walletId,
          type: "EMAIL_OTP",
          nickname: input.email,
          now: input.now,
        }),
      );
  }
}

/** A platform-owned account (no customer), e.g. the sandbox platform's USD account. */
export async function openPlatformAccount(
  tx: Tx,
  platformId: string,
  currency: string,
  now: Date,
): Promise<string> {
  const id = newId("InternalAccount");
  await store.insertInternalAccount(tx, {
    id,
    platform_id: platformId,
    customer_id: null,
    type: isFiat(currency) ? "INTERNAL_FIAT" : "INTERNAL_CRYPTO",
    role: "STANDARD",
    status: "ACTIVE",
    currency,
    private_enabled: null,
    created_at: now,
    updated_at: now,
  });
  return id;
}
