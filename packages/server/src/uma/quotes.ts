import { LnurlpResponse } from "@uma-sdk/core";
import type { Deps } from "../core/deps.js";
import { nowFor } from "../core/deps.js";
import { ApiError, type FieldError, invalidField, invalidInput } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { currency } from "../core/money.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import { customerNames, findCustomer } from "../customers/store.js";
import { findPlatform } from "../platform/store.js";
import { defaultDomainLabel, umaDomainOf } from "../platform/uma-domain.js";
import { requireActive } from "../quotes/active.js";
import { pendingQuoteRow } from "../quotes/quote-row.js";
import type { CreateQuoteBody } from "../quotes/schemas.js";
import type { QuoteRow } from "../quotes/store.js";
import { counterpartyPubKeys, vaspBaseUrl } from "./counterparty.js";
import { msatsPerMinorUnit } from "./lightning-price.js";
import { lookupUma, type UmaLookup } from "./lookup.js";
import { sendPayRequest } from "./pay-request.js";
import { payerDataFor, umaKeyOf } from "./payer-data.js";
import { readSandboxInvoice } from "./settlement-invoice.js";
import { vaspKeys } from "./vasp-keys.js";

/** A lookup older than this is gone for quoting (`404 LOOKUP_REQUEST_NOT_FOUND`): look the receiver up again. */
const LOOKUP_LIFETIME_MS = 15 * 60 * 1000;

interface StoredLookup {
  domain: string;
  base: string;
  lnurlp: unknown;
  lookup: UmaLookup;
}

function checkUmaForm(body: CreateQuoteBody): { accountId: string; umaAddress: string; currency: string } {
  const errors: FieldError[] = [];
  if (body.source.sourceType !== "ACCOUNT" || body.source.accountId === undefined)
    errors.push({ field: "source.sourceType", message: "must be ACCOUNT for a quote to a UMA address" });
  if (body.destination.paymentRail !== undefined)
    errors.push({
      field: "destination.paymentRail",
      message: "applies only to payouts to external accounts",
    });
  if (body.immediatelyExecute === true && body.lookupId === undefined)
    errors.push({ field: "lookupId", message: "is required to execute a UMA payment immediately" });
  if (errors.length > 0) throw invalidInput(errors);
  return {
    accountId: body.source.accountId as string,
    umaAddress: body.destination.umaAddress as string,
    currency: body.destination.currency as string,
  };
}

async function storedLookup(
  deps: Deps,
  caller: Caller,
  lookupId: string,
  address: string,
): Promise<StoredLookup> {
  const id = parseId("Lookup", lookupId);
  const [row] = id
    ? await deps.db.query<{ receiver_address: string; response: StoredLookup; created_at: Date }>(
        "SELECT receiver_address, response, created_at FROM uma_lookups WHERE platform_id = $1 AND id = $2",
        [caller.platformId, id],
      )
    : [];
  if (!row || deps.clock.now().getTime() - row.created_at.getTime() > LOOKUP_LIFETIME_MS)
    throw new ApiError("LOOKUP_REQUEST_NOT_FOUND", {
      reason: `No lookup ${lookupId}; look the receiver up again.`,
    });
  if (row.receiver_address.toLowerCase() !== address.toLowerCase())
    throw invalidField("lookupId", `is the lookup of ${row.receiver_address}, not of destination.umaAddress`);
  return row.response;
}

/**
 * Prices a quote from an internal account to a UMA address (the hosted API's `lookupId` flow): the
 * lookup (made now when no `lookupId` is given), the payer data the receiver requires, and the signed
 * pay request whose response fixes the amounts; the receiver's invoice is kept for the execution.
 */
export async function createUmaQuoteRow(
  deps: Deps,
  caller: Caller,
  body: CreateQuoteBody,
  origin: string,
): Promise<QuoteRow> {
  const form = checkUmaForm(body);
  const source = await findAccountOrThrow(deps.db, caller, form.accountId);
  if (body.source.customerId !== undefined && body.source.customerId !== source.customer_id)
    throw invalidField("source.customerId", "is not the owner of the source account");
  requireActive(source);
  const platform = await findPlatform(deps.db, caller.platformId);
  if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
  const customer = source.customer_id
    ? await findCustomer(deps.db, caller.platformId, source.customer_id)
    : undefined;
  const ownDomain = umaDomainOf(platform, deps.publicUrl);
  const payerIdentifier = customer?.uma_address ?? `$${defaultDomainLabel(platform.id)}@${ownDomain}`;
  const stored = body.lookupId
    ? await storedLookup(deps, caller, body.lookupId, form.umaAddress)
    : await lookupAgain(deps, caller, origin, form.umaAddress, payerIdentifier);
  const offered = stored.lookup.supportedCurrencies.find((c) => c.currency.code === form.currency);
  if (!offered)
    throw invalidField(
      "destination.currency",
      `must be one the receiver takes: ${stored.lookup.supportedCurrencies.map((c) => c.currency.code).join(", ")}`,
    );
  const names = source.customer_id
    ? await customerNames(deps.db, [source.customer_id])
    : new Map<string, string>();
  // The customer's name on file stands in for FULL_NAME when senderCustomerInfo does not give it.
  const info: Record<string, unknown> = {
    FULL_NAME: names.get(source.customer_id ?? ""),
    ...(body.senderCustomerInfo ?? {}),
  };
  const payerData = payerDataFor(stored.lookup.requiredPayerDataFields, info);
  const missing = stored.lookup.requiredPayerDataFields.filter(
    (f) => f.mandatory && payerData[umaKeyOf(f.name)] === undefined,
  );
  if (missing.length > 0)
    throw invalidInput(
      missing.map((f) => ({
        field: `senderCustomerInfo.${f.name}`,
        message: "is required by the receiver's VASP",
      })),
    );
  const now = nowFor(deps, caller);
  const senderMsats = msatsPerMinorUnit(source.currency, new Date());
  if (senderMsats === undefined)
    throw new ApiError("QUOTE_RATE_UNAVAILABLE", {
      reason: `No rate for ${source.currency} to UMA payments.`,
    });
  const receiving = body.lockedCurrencySide === "RECEIVING";
  const keys = await vaspKeys(deps, platform.id, ownDomain);
  const receiverKeys = await counterpartyPubKeys(deps, caller.environment, stored.base, stored.domain);
  const ownBase = await vaspBaseUrl(deps, ownDomain, origin);
  const response = await sendPayRequest(deps, {
    environment: caller.environment,
    lnurlp: LnurlpResponse.parse(stored.lnurlp),
    receiverDomain: stored.domain,
    receiverAddress: form.umaAddress,
    receiverKeys,
    signingPrivateKey: keys.signingPrivateKey,
    payerIdentifier,
    payerData,
    travelRule: { ...info, ACCOUNT_IDENTIFIER: payerIdentifier },
    receivingCurrencyCode: form.currency,
    amount: receiving ? body.lockedCurrencyAmount : body.lockedCurrencyAmount * senderMsats,
    inReceivingCurrency: receiving,
    utxoCallback: `${ownBase}/uma/utxo-callback`,
  });
  const invoice = readSandboxInvoice(response.pr);
  const receivedAmount = response.converted?.amount ?? 0;
  if (!invoice || !Number.isSafeInteger(receivedAmount) || receivedAmount <= 0)
    throw new ApiError("INVALID_PAYREQ_RESPONSE", {
      reason: `${stored.domain} answered an invoice this sandbox settlement layer cannot pay.`,
    });
  const sendingAmount = receiving ? Math.ceil(invoice.amountMsats / senderMsats) : body.lockedCurrencyAmount;
  const price = {
    totalSendingAmount: sendingAmount,
    totalReceivingAmount: receivedAmount,
    feesIncluded: 0,
    platformFeesIncluded: 0,
  };
  const row = pendingQuoteRow({
    caller,
    request: body as Parameters<typeof pendingQuoteRow>[0]["request"],
    source,
    destination: { id: "", currency: form.currency, wire: {} },
    price,
    details: {
      uma: {
        invoice: response.pr,
        paymentHash: invoice.paymentHash,
        receiverDomain: stored.domain,
        receiverBase: stored.base,
        payerIdentifier,
        ...(response.payeeData?.compliance?.utxoCallback
          ? { utxoCallback: response.payeeData.compliance.utxoCallback }
          : {}),
      },
    },
    now,
  });
  const rate =
    receivedAmount /
    10 ** currency(form.currency).decimals /
    (sendingAmount / 10 ** currency(source.currency).decimals);
  return {
    ...row,
    destination_account_id: null,
    destination: { destinationType: "UMA_ADDRESS", umaAddress: form.umaAddress, currency: form.currency },
    exchange_rate: Number(rate.toPrecision(10)),
  };
}

/** A quote without `lookupId`: the lookup is made now and used at once. */
async function lookupAgain(
  deps: Deps,
  caller: Caller,
  origin: string,
  address: string,
  sender: string,
): Promise<StoredLookup> {
  const made = await lookupUma(deps, caller, origin, address, { senderUmaAddress: sender });
  return storedLookup(deps, caller, made.lookupId, address);
}
