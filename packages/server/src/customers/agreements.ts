import { ApiError, type FieldError, invalidInput } from "../core/errors/api-error.js";

/** The agreements customers accept: the interface's SERVICE_END_USER_TERMS plus six of our naming. */
export const agreementTypes = [
  "SERVICE_END_USER_TERMS",
  "PRIVACY_POLICY",
  "E_SIGN_CONSENT",
  "CARDHOLDER_AGREEMENT",
  "DEPOSIT_ACCOUNT_AGREEMENT",
  "DIGITAL_ASSET_RISK_DISCLOSURE",
  "EMBEDDED_WALLET_TERMS",
] as const;
export type AgreementType = (typeof agreementTypes)[number];

export const acceptanceMethods = ["CLICKWRAP", "BROWSEWRAP", "E_SIGNATURE", "IN_PERSON"] as const;
export type AcceptanceMethod = (typeof acceptanceMethods)[number];

/** Supported versions per agreement, current first. */
const versions: Record<AgreementType, string[]> = {
  SERVICE_END_USER_TERMS: ["2025-10-01", "2024-06-01"],
  PRIVACY_POLICY: ["2025-10-01", "2024-06-01"],
  E_SIGN_CONSENT: ["2024-06-01"],
  CARDHOLDER_AGREEMENT: ["2025-10-01"],
  DEPOSIT_ACCOUNT_AGREEMENT: ["2025-10-01"],
  DIGITAL_ASSET_RISK_DISCLOSURE: ["2025-10-01"],
  EMBEDDED_WALLET_TERMS: ["2025-10-01"],
};

export interface Agreement {
  type: AgreementType;
  version: string;
  url: string;
}

export function agreementUrl(type: AgreementType, version: string): string {
  return `https://paysvc.dev/legal/${type.toLowerCase().replace(/_/g, "-")}/${version}`;
}

/** `GET /customers/agreements`: each agreement with its current version. */
export function listAgreements(): Agreement[] {
  return agreementTypes.map((type) => {
    const version = versions[type][0] ?? "";
    return { type, version, url: agreementUrl(type, version) };
  });
}

export interface ConsentInput {
  type: AgreementType;
  termsVersion: string;
  acceptedAt: string;
  ipAddress: string;
  acceptanceMethod?: AcceptanceMethod | undefined;
}

export interface DeprecatedTermsConsent {
  termsVersion: string;
  acceptedAt: string;
  ipAddress: string;
  acceptanceMethod?: AcceptanceMethod | undefined;
}

/**
 * The consents a create or update carries: `agreementConsents`, or the deprecated `endUserTermsConsent`
 * as one SERVICE_END_USER_TERMS entry; never both. At most one entry per type; every version supported.
 */
export function consentsOf(body: {
  agreementConsents?: ConsentInput[] | undefined;
  endUserTermsConsent?: DeprecatedTermsConsent | undefined;
}): ConsentInput[] {
  if (body.agreementConsents !== undefined && body.endUserTermsConsent !== undefined) {
    throw invalidInput([
      {
        field: "endUserTermsConsent",
        message: "cannot be sent together with agreementConsents; send agreementConsents only",
      },
    ]);
  }
  const consents = body.endUserTermsConsent
    ? [{ ...body.endUserTermsConsent, type: "SERVICE_END_USER_TERMS" as const }]
    : (body.agreementConsents ?? []);
  const seen = new Set<string>();
  const duplicates: FieldError[] = [];
  consents.forEach((consent, index) => {
    if (seen.has(consent.type)) {
      duplicates.push({
        field: `agreementConsents[${index}].type`,
        message: `has a second entry for ${consent.type}; send at most one per type`,
      });
    }
    seen.add(consent.type);
  });
  if (duplicates.length > 0) throw invalidInput(duplicates);
  for (const consent of consents) {
    if (!versions[consent.type].includes(consent.termsVersion)) {
      throw new ApiError("END_USER_TERMS_VERSION_NOT_FOUND", {
        reason: `Version ${consent.termsVersion} is not supported for ${consent.type}.`,
        details: {
          type: consent.type,
          termsVersion: consent.termsVersion,
          supportedVersions: versions[consent.type],
        },
      });
    }
  }
  return consents;
}
