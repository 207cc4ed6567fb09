import {
  ErrorCode,
  isLnurlpRequestForUma,
  type LnurlpRequest,
  parseLnurlpRequest,
  UmaError,
  UnsupportedVersionError,
  verifyUmaLnurlpQuerySignature,
} from "@uma-sdk/core";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { listAccountsOfCustomer } from "../customers/accounts-store.js";
import { findCustomerByUmaAddress } from "../customers/store.js";
import { currencyConfigsOf } from "../platform/currency-configs.js";
import { findPlatformByIdSuffix, findPlatformByUmaDomain, type PlatformRow } from "../platform/store.js";
import { defaultDomainPlatformLabel, umaDomainOf } from "../platform/uma-domain.js";
import { counterpartyPubKeys, databaseNonceValidator, vaspBaseUrl } from "./counterparty.js";
import { signedLnurlpResponse } from "./lnurlp-response.js";
import { payerDataOptions } from "./payer-data.js";
import { vaspKeys } from "./vasp-keys.js";

/** An answer of a UMA protocol endpoint: its status and JSON body (UMA's own error shape on failure). */
export interface ProtocolAnswer {
  status: number;
  body: unknown;
}

/** UMA's error body: `{status: "ERROR", reason, code}` (the protocol's, not the API's error body). */
export const umaErrorAnswer = (status: number, code: string, reason: string, extra = {}): ProtocolAnswer => ({
  status,
  body: { status: "ERROR", reason, code, ...extra },
});

/** Customers created before UMA receiving existed got addresses on this domain; they still receive. */
const LEGACY_SANDBOX_DOMAIN = "sandbox.paysvc.dev";

/** The platform whose UMA domain `domain` is. */
export async function platformOfDomain(deps: Deps, domain: string): Promise<PlatformRow | undefined> {
  const configured = await findPlatformByUmaDomain(deps.db, domain);
  if (configured) return configured;
  const label = defaultDomainPlatformLabel(domain, deps.publicUrl);
  return label === undefined ? undefined : findPlatformByIdSuffix(deps.db, label);
}

export async function receiverOf(deps: Deps, platform: PlatformRow, user: string, domain: string) {
  return (
    (await findCustomerByUmaAddress(deps.db, platform.id, `$${user}@${domain}`)) ??
    (await findCustomerByUmaAddress(deps.db, platform.id, `$${user}@${LEGACY_SANDBOX_DOMAIN}`))
  );
}

/** The sender's signature, checked against the public keys its domain publishes. */
async function checkSender(deps: Deps, platform: PlatformRow, request: LnurlpRequest, origin: string) {
  const senderDomain = request.vaspDomain as string;
  const base = await vaspBaseUrl(deps, senderDomain, origin);
  const keys = await counterpartyPubKeys(deps, platform.environment, base, senderDomain);
  const valid = await verifyUmaLnurlpQuerySignature(
    request,
    keys,
    databaseNonceValidator(deps, senderDomain),
  );
  if (!valid) throw new UmaError("The request's signature does not verify.", ErrorCode.INVALID_SIGNATURE);
}

/**
 * `GET /.well-known/lnurlp/{user}` of a platform's UMA domain: the signed LNURLP response naming the
 * customer's currencies (those of its internal accounts) and the pay request callback.
 */
export async function answerLnurlp(
  deps: Deps,
  origin: string,
  domain: string,
  user: string,
  query: URLSearchParams,
): Promise<ProtocolAnswer> {
  const platform = await platformOfDomain(deps, domain);
  const customer = platform ? await receiverOf(deps, platform, user, domain) : undefined;
  if (!platform || !customer) return umaErrorAnswer(404, "USER_NOT_FOUND", `No receiver $${user}@${domain}.`);
  let request: LnurlpRequest;
  try {
    request = parseLnurlpRequest(new URL(`https://${domain}/.well-known/lnurlp/$${user}?${query}`));
    if (!isLnurlpRequestForUma(request))
      return umaErrorAnswer(400, "MISSING_REQUIRED_UMA_PARAMETERS", "This receiver takes UMA requests only.");
    await checkSender(deps, platform, request, origin);
  } catch (error) {
    return protocolError(error);
  }
  const ownDomain = umaDomainOf(platform, deps.publicUrl);
  const keys = await vaspKeys(deps, platform.id, ownDomain);
  const accounts = await listAccountsOfCustomer(deps.db, customer.id);
  const held = new Set(accounts.filter((a) => a.status === "ACTIVE").map((a) => a.currency));
  // The customer's currencies that the platform receives UMA payments in, with the platform's settings.
  const offered = currencyConfigsOf(platform).filter(
    (c) => held.has(c.currencyCode) && c.enabledTransactionTypes.includes("INCOMING"),
  );
  const base = await vaspBaseUrl(deps, ownDomain, origin);
  const response = await signedLnurlpResponse(
    request,
    keys.signingPrivateKey,
    {
      receiverAddress: `$${user}@${domain}`,
      currencies: offered.map((c) => ({
        code: c.currencyCode,
        minAmount: c.minAmount,
        maxAmount: c.maxAmount,
      })),
      payerData: payerDataOptions(offered.flatMap((c) => c.requiredCounterpartyFields)),
      callback: `${base}/uma/payreq/${user}`,
    },
    deps.clock.now(),
  );
  return { status: 200, body: JSON.parse(response.toJsonString()) };
}

/** A failure while reading or checking a protocol request, in UMA's error shape. */
export function protocolError(error: unknown): ProtocolAnswer {
  if (error instanceof UnsupportedVersionError)
    return umaErrorAnswer(412, "UNSUPPORTED_UMA_VERSION", error.message, error.getAdditionalParams());
  if (error instanceof UmaError)
    return umaErrorAnswer(error.httpStatusCode ?? 400, String(error.code), error.message);
  if (error instanceof ApiError) return umaErrorAnswer(error.status, error.code, error.reason);
  throw error;
}
