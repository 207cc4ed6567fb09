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
  /** Currency codes the receiver takes, in order of preference; those without a price are left out. */
  currencies: readonly string[];
  /** The payer data the receiving VASP requires (UMA keys: name, email, birthDate…). */
  payerData?: CounterPartyDataOptions;
  /** Where the sender posts its pay request. */
  callback: string;
}

/** Amounts per payment, in each currency's minor units: one unit up to the worth of USD 100,000. */
const MAX_PAYMENT_MSATS = 100_000 * 100 * 10_000;

function umaCurrency(code: string, at: Date): Currency | undefined {
  const multiplier = msatsPerMinorUnit(code, at);
  if (multiplier === undefined) return undefined;
  const { name, symbol, decimals } = currency(code);
  return new Currency(
    code,
    name,
    symbol,
    multiplier,
    1,
    Math.floor(MAX_PAYMENT_MSATS / multiplier),
    decimals,
  );
}

/** The signed UMA LNURLP response for `request` (UMA SDK getLnurlpResponse). */
export function signedLnurlpResponse(
  request: LnurlpRequest,
  signingPrivateKey: Uint8Array,
  offer: ReceiverOffer,
  at: Date,
): Promise<LnurlpResponse> {
  const currencyOptions = offer.currencies.flatMap((code) => umaCurrency(code, at) ?? []);
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
    payerDataOptions: offer.payerData ?? {
      identifier: { mandatory: true },
      name: { mandatory: false },
      compliance: { mandatory: true },
    },
    currencyOptions,
    receiverKycStatus: KycStatus.Verified,
  });
}
