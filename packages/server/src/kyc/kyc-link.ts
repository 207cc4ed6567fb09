import { randomBytes, randomUUID } from "node:crypto";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { sha256Hex } from "../core/hash.js";
import type { Caller } from "../core/http/context.js";
import { findActiveCustomerOrThrow } from "../customers/customers.js";
import { isTerminalKyc } from "../customers/kyc-outcomes.js";
import type { KycLink } from "./kyc-link-schemas.js";
import { findKycLink, insertKycLink } from "./kyc-link-store.js";
import type { Verification } from "./schemas.js";
import { submitVerification } from "./verifications.js";

/** A KYC link can be used for 24 hours after it is made, on its platform's clock (decisions). */
export const KYC_LINK_TTL_MS = 24 * 60 * 60 * 1000;
// The token is 32 random bytes in base64url: 43 characters, no padding.
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

export const NO_KYC_PROVIDER =
  "No KYC provider is configured for this platform: the hosted verification page serves sandbox platforms only.";

/**
 * `POST /customers/{customerId}/kyc-link`: a link to this service's hosted verification page, where the
 * person submits the customer's verification as `POST /verifications` would. Only the token's hash is kept.
 */
export async function createKycLink(
  deps: Deps,
  caller: Caller,
  input: { rawCustomerId: string; redirectUri?: string | undefined; origin: string },
): Promise<KycLink> {
  return deps.db.transaction(async (tx) => {
    const customer = await findActiveCustomerOrThrow(tx, caller, input.rawCustomerId);
    if (caller.environment !== "SANDBOX") throw new ApiError("NOT_IMPLEMENTED", { reason: NO_KYC_PROVIDER });
    if (isTerminalKyc(customer.kyc_status))
      throw new ApiError("CONFLICT", {
        reason: `Customer ${customer.id} is already ${customer.kyc_status}: its verification is final.`,
      });
    const token = randomBytes(32).toString("base64url");
    const now = nowFor(deps, caller);
    const expiresAt = new Date(now.getTime() + KYC_LINK_TTL_MS);
    await insertKycLink(tx, {
      id: randomUUID(),
      platform_id: caller.platformId,
      customer_id: customer.id,
      token_hash: sha256Hex(token),
      redirect_uri: input.redirectUri ?? null,
      expires_at: expiresAt,
      created_at: now,
    });
    return {
      kycUrl: `${input.origin}/kyc/${token}`,
      expiresAt: expiresAt.toISOString(),
      provider: "SANDBOX",
    };
  });
}

/** What the hosted page shows while its link is usable. */
export interface KycPageView {
  customerType: "INDIVIDUAL" | "BUSINESS";
  name: string | undefined;
  kycStatus: string;
  expiresAt: Date;
  redirectUri: string | null;
}

export type KycPageState =
  | { open: KycPageView }
  | { gone: "UNKNOWN" | "EXPIRED" }
  /** The platform is not a sandbox one: no KYC provider decides. */
  | { unavailable: true };

async function lookUp(deps: Deps, token: string) {
  if (!tokenPattern.test(token)) return undefined;
  const found = await findKycLink(deps.db, sha256Hex(token));
  return found && !found.customer.is_deleted ? found : undefined;
}

/** Whether a link can be used: known, of a live customer, not expired on its platform's clock, sandbox. */
export async function viewKycPage(deps: Deps, token: string): Promise<KycPageState> {
  const found = await lookUp(deps, token);
  if (!found) return { gone: "UNKNOWN" };
  if (nowFor(deps, found).getTime() >= found.link.expires_at.getTime()) return { gone: "EXPIRED" };
  if (found.environment !== "SANDBOX") return { unavailable: true };
  const profile = found.customer.profile as { fullName?: string; businessInfo?: { legalName?: string } };
  return {
    open: {
      customerType: found.customer.customer_type,
      name: profile.fullName ?? profile.businessInfo?.legalName,
      kycStatus: found.customer.kyc_status,
      expiresAt: found.link.expires_at,
      redirectUri: found.link.redirect_uri,
    },
  };
}

/**
 * The hosted page's submission: the same domain call as `POST /verifications` for the link's customer, so
 * every spec rule (packet check, sandbox suffixes, final statuses, events) applies unchanged.
 */
export async function submitByKycLink(
  deps: Deps,
  token: string,
): Promise<KycPageState | { submitted: Verification; view: KycPageView }> {
  const state = await viewKycPage(deps, token);
  if (!("open" in state)) return state;
  const found = await lookUp(deps, token);
  if (!found) return { gone: "UNKNOWN" };
  const caller: Caller = {
    platformId: found.link.platform_id,
    tokenId: `kyc-link:${found.link.id}`,
    permissions: [],
    environment: found.environment,
    clockOffsetMs: found.clockOffsetMs,
  };
  const verification = await submitVerification(deps, caller, { customerId: found.link.customer_id });
  return { submitted: verification, view: state.open };
}
