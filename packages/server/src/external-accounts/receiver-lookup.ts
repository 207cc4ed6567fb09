import { isValidUmaAddress } from "@uma-sdk/core";
import type { Executor } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId, parseId } from "../core/ids.js";
import { currency as currencyOf } from "../core/money.js";
import { findCustomerOrThrow, umaPattern } from "../customers/customers.js";
import { cachedRate } from "../exchange-rates/rates.js";
import { maxTransactionAmount } from "../rails/limits.js";
import type { ReceiverExternalAccountLookup } from "./schemas.js";
import * as store from "./store.js";

/**
 * `GET /receiver/external-account/{accountId}` (the hosted API's lookupExternalAccount): what a payment to
 * the account can be, before quoting it. One currency, the account's, at the platform's cached rate from
 * USD (receiving major units per US dollar, as the UMA lookup reports it), from 1 minor unit up to the
 * corridor's single-transaction maximum. No payer data is asked for: the sender is the platform's own
 * customer (or the platform), whose details are on file. The lookup is kept for the quote citing its id.
 */
export async function lookupExternalAccount(
  deps: Deps,
  caller: Caller,
  rawAccountId: string,
  options: { senderUmaAddress?: string | undefined; customerId?: string | undefined },
): Promise<ReceiverExternalAccountLookup> {
  const sender = options.senderUmaAddress;
  if (sender !== undefined && (!isValidUmaAddress(sender) || !umaPattern.test(sender)))
    throw new ApiError("INVALID_UMA_ADDRESS", {
      reason: `${sender} is not a UMA address ($name@domain.tld).`,
    });
  const now = nowFor(deps, caller);
  return deps.db.transaction(async (tx) => {
    const id = parseId("ExternalAccount", rawAccountId);
    const account = id ? await store.findExternalAccount(tx, caller.platformId, id) : undefined;
    if (!account) throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No external account ${rawAccountId}.` });
    const customer = options.customerId ? await findCustomerOrThrow(tx, caller, options.customerId) : null;
    const rate =
      account.currency === "USD"
        ? "1"
        : (await cachedRate(tx, caller.platformId, { source: "USD", destination: account.currency }, now))
            ?.text;
    if (rate === undefined)
      throw new ApiError("QUOTE_RATE_UNAVAILABLE", {
        reason: `No USD to ${account.currency} rate is available now.`,
      });
    const lookupId = newId("Lookup");
    await store.insertLookup(tx, {
      id: lookupId,
      platform_id: caller.platformId,
      account_id: account.id,
      customer_id: customer?.id ?? null,
      sender_uma_address: sender ?? null,
      created_at: now,
    });
    return {
      lookupId,
      accountId: account.id,
      supportedCurrencies: [
        {
          currency: currencyOf(account.currency),
          estimatedExchangeRate: Number(rate),
          min: 1,
          max: maxTransactionAmount(account.currency),
        },
      ],
      requiredPayerDataFields: [],
    };
  });
}

/**
 * The lookup a quote cites (`lookupId`) for a payout to `accountId`: unknown or another platform's →
 * `404 LOOKUP_REQUEST_NOT_FOUND`; a lookup of another account → `400` on `lookupId`.
 */
export async function checkLookupOf(db: Executor, caller: Caller, rawLookupId: string, accountId: string) {
  const id = parseId("Lookup", rawLookupId);
  const lookup = id ? await store.findLookup(db, caller.platformId, id) : undefined;
  if (!lookup)
    throw new ApiError("LOOKUP_REQUEST_NOT_FOUND", {
      reason: `No lookup ${rawLookupId}; look the external account up again.`,
    });
  if (lookup.account_id !== accountId)
    throw invalidField("lookupId", `is the lookup of ${lookup.account_id}, not of destination.accountId`);
}
