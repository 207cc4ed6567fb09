import {
  getSignedLnurlpRequestUrl,
  isValidUmaAddress,
  LnurlpResponse,
  selectHighestSupportedVersion,
  verifyUmaLnurlpResponseSignature,
} from "@uma-sdk/core";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId } from "../core/ids.js";
import { currency as currencyOf, isKnownCurrency } from "../core/money.js";
import { umaPattern } from "../customers/customers.js";
import type { CounterpartyFieldDefinition } from "../platform/currency-configs.js";
import { findPlatform } from "../platform/store.js";
import { umaDomainOf } from "../platform/uma-domain.js";
import {
  counterpartyGet,
  counterpartyPubKeys,
  databaseNonceValidator,
  describe,
  fromUmaError,
  vaspBaseUrl,
} from "./counterparty.js";
import { msatsPerMinorUnit } from "./lightning-price.js";
import { askedPayerData } from "./payer-data.js";
import { vaspKeys } from "./vasp-keys.js";

export interface UmaLookup {
  lookupId: string;
  receiverUmaAddress: string;
  supportedCurrencies: {
    currency: { code: string; name: string; symbol: string; decimals: number };
    estimatedExchangeRate: number;
    min: number;
    max: number;
  }[];
  requiredPayerDataFields: CounterpartyFieldDefinition[];
}

function checkAddress(address: string): { user: string; domain: string } {
  if (!isValidUmaAddress(address) || !umaPattern.test(address))
    throw new ApiError("INVALID_UMA_ADDRESS", {
      reason: `${address} is not a UMA address ($name@domain.tld).`,
    });
  const [user, domain] = address.slice(1).split("@") as [string, string];
  return { user, domain: domain.toLowerCase() };
}

/** The LNURLP round trip, with one retry at the receiver's highest version we also speak (UMA's 412). */
async function fetchLnurlp(
  deps: Deps,
  caller: Caller,
  target: { user: string; domain: string; base: string; address: string },
  signing: { domain: string; key: Uint8Array },
): Promise<string> {
  let version: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const signed = await getSignedLnurlpRequestUrl({
      isSubjectToTravelRule: true,
      receiverAddress: target.address,
      senderVaspDomain: signing.domain,
      signingPrivateKey: signing.key,
      ...(version ? { umaVersionOverride: version } : {}),
    });
    // The SDK names the receiver by `$user` in the path, as it signed it; only the base is ours.
    const url = `${target.base}${signed.pathname}${signed.search}`;
    let answer: { status: number; text: string };
    try {
      answer = await counterpartyGet(deps, caller.environment, url);
    } catch (error) {
      throw new ApiError("LNURLP_REQUEST_FAILED", {
        reason: `${target.domain} could not be reached: ${describe(error)}.`,
      });
    }
    if (answer.status === 200) return answer.text;
    if (answer.status === 404)
      throw new ApiError("UMA_NOT_FOUND", { reason: `${target.domain} has no receiver ${target.address}.` });
    if (answer.status === 412 && attempt === 0) {
      version = highestCommonVersion(supportedMajorVersions(answer.text));
      if (version) continue;
      throw new ApiError("NO_COMPATIBLE_UMA_VERSION", {
        reason: `${target.domain} speaks no UMA version this service speaks.`,
      });
    }
    break;
  }
  throw new ApiError("LNURLP_REQUEST_FAILED", { reason: `${target.domain} refused the LNURLP request.` });
}

/** The highest version of a major version both sides speak; undefined when they share none. */
function highestCommonVersion(majorVersions: number[]): string | undefined {
  try {
    return selectHighestSupportedVersion(majorVersions);
  } catch {
    return undefined;
  }
}

function supportedMajorVersions(text: string): number[] {
  try {
    const versions = (JSON.parse(text) as { supportedMajorVersions?: unknown }).supportedMajorVersions;
    return Array.isArray(versions) ? versions.filter((v): v is number => Number.isInteger(v)) : [];
  } catch {
    return [];
  }
}

function parseResponse(text: string, domain: string): LnurlpResponse {
  let response: LnurlpResponse;
  try {
    response = LnurlpResponse.fromJson(text);
  } catch (error) {
    throw new ApiError("PARSE_LNURLP_RESPONSE_ERROR", {
      reason: `The LNURLP response of ${domain} does not parse: ${describe(error)}.`,
    });
  }
  if (!response.compliance || !response.umaVersion || !response.currencies?.length)
    throw new ApiError("MISSING_REQUIRED_UMA_PARAMETERS", {
      reason: `The LNURLP response of ${domain} lacks compliance, umaVersion or currencies.`,
    });
  return response;
}

/**
 * `GET /receiver/uma/{receiverUmaAddress}`: the signed LNURLP round trip with the receiver's VASP and
 * its public keys, checked, then kept as a lookup for the quote (`lookupId`).
 */
export async function lookupUma(
  deps: Deps,
  caller: Caller,
  origin: string,
  receiverUmaAddress: string,
  options: { senderUmaAddress?: string | undefined; customerId?: string | undefined },
): Promise<UmaLookup> {
  const { user, domain } = checkAddress(receiverUmaAddress);
  if (options.senderUmaAddress !== undefined) checkAddress(options.senderUmaAddress);
  const platform = await findPlatform(deps.db, caller.platformId);
  if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
  const ownDomain = umaDomainOf(platform, deps.publicUrl);
  const keys = await vaspKeys(deps, platform.id, ownDomain);
  const base = await vaspBaseUrl(deps, domain, origin);
  const target = { user, domain, base, address: receiverUmaAddress };
  const text = await fetchLnurlp(deps, caller, target, { domain: ownDomain, key: keys.signingPrivateKey });
  const response = parseResponse(text, domain);
  const pubKeys = await counterpartyPubKeys(deps, caller.environment, base, domain);
  let valid: boolean;
  try {
    valid = await verifyUmaLnurlpResponseSignature(response, pubKeys, databaseNonceValidator(deps, domain));
  } catch (error) {
    throw fromUmaError(error, "LOOKUP_REQUEST_FAILED");
  }
  if (!valid)
    throw new ApiError("LOOKUP_REQUEST_FAILED", {
      reason: `The LNURLP response of ${domain} is not signed by the key ${domain} publishes.`,
    });
  const lookup = toLookup(response, receiverUmaAddress, deps.clock.now());
  await deps.db.query(
    `INSERT INTO uma_lookups (id, platform_id, customer_id, receiver_address, sender_address, response, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
    [
      lookup.lookupId,
      platform.id,
      options.customerId ?? null,
      receiverUmaAddress,
      options.senderUmaAddress ?? null,
      JSON.stringify({ domain, base, lnurlp: JSON.parse(response.toJsonString()), lookup }),
      deps.clock.now(),
    ],
  );
  return lookup;
}

/** The API's answer from the receiver's currencies: an estimated rate from USD, min and max per payment. */
function toLookup(response: LnurlpResponse, address: string, at: Date): UmaLookup {
  const usdMsats = msatsPerMinorUnit("USD", at) as number;
  const supportedCurrencies = (response.currencies ?? [])
    .filter((c) => isKnownCurrency(c.code))
    .map((c) => {
      const wire = currencyOf(c.code);
      // Receiving major units per USD: msats per dollar over msats per receiving major unit.
      const rate = (usdMsats * 100) / (c.multiplier * 10 ** wire.decimals);
      return {
        currency: wire,
        estimatedExchangeRate: Number(rate.toPrecision(10)),
        min: Math.max(1, c.minSendable),
        max: Math.max(1, c.maxSendable),
      };
    });
  const requiredPayerDataFields = askedPayerData(response.payerData);
  return {
    lookupId: newId("Lookup"),
    receiverUmaAddress: address,
    supportedCurrencies,
    requiredPayerDataFields,
  };
}
