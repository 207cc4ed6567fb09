import {
  type CounterPartyDataOptions,
  Currency,
  getLnurlpResponse,
  KycStatus,
  type LnurlpRequest,
  type LnurlpResponse,
} from "@uma-sdk/core";
import { currency } from "../core/money.js";
import { msatsPerMinorUnit } from "./lightning-price.js";

/** What a receiver accepts, as the receiving VASP states it in its LNURLP response. */
export interface ReceiverOffer {
  receiverAddress: string;
  /** Currencies the receiver takes, in order of preference, with the platform's amounts per payment (minor units). */
  currencies: readonly { code: string; minAmount: number; maxAmount: number }[];
  /** The payer data the receiving VASP requires (UMA keys: name, email, birthDate…; uma/payer-data.ts). */
  payerData: CounterPartyDataOptions;
  /** Where the sender posts its pay request. */
  callback: string;
}

/** Amounts per payment, in each currency's minor units: one unit up to the worth of USD 100,000. */
const MAX_PAYMENT_MSATS = 100_000 * 100 * 10_000;

/** A currency the receiver takes, or undefined when it has no price or its amounts leave no room. */
function umaCurrency(offered: ReceiverOffer["currencies"][number], at: Date): Currency | undefined {
  const multiplier = msatsPerMinorUnit(offered.code, at);
  if (multiplier === undefined) return undefined;
  const { name, symbol, decimals } = currency(offered.code);
  const min = Math.max(1, offered.minAmount);
  const max = Math.min(offered.maxAmount, Math.floor(MAX_PAYMENT_MSATS / multiplier));
  if (min > max) return undefined;
  return new Currency(offered.code, name, symbol, multiplier, min, max, decimals);
}

/** The signed UMA LNURLP response for `request` (UMA SDK getLnurlpResponse). */
export function signedLnurlpResponse(
  request: LnurlpRequest,
  signingPrivateKey: Uint8Array,
  offer: ReceiverOffer,
  at: Date,
): Promise<LnurlpResponse> {
  const currencyOptions = offer.currencies.flatMap((offered) => umaCurrency(offered, at) ?? []);
  return getLnurlpResponse({
    request,
    privateKeyBytes: signingPrivateKey,
    requiresTravelRuleInfo: true,
    callback: offer.callback,
    encodedMetadata: JSON.stringify([
      ["text/plain", `Pay ${offer.receiverAddress}`],
      ["text/identifier", offer.receiverAddress],
    ]),
    minSendableSats: 1,
    maxSendableSats: MAX_PAYMENT_MSATS / 1000,
    payerDataOptions: offer.payerData,
    currencyOptions,
    receiverKycStatus: KycStatus.Verified,
  });
}
