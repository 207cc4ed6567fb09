import type { AgreementConsentInput } from "../src/index.js";

/**
 * A customer's acceptance of the end-user terms, spread into `customers.create`: money moves only for
 * customers with it on file (`400 END_USER_TERMS_NOT_ACCEPTED`), so every test customer that quotes has it.
 */
export const withEndUserTerms: { agreementConsents: AgreementConsentInput[] } = {
  agreementConsents: [
    {
      type: "SERVICE_END_USER_TERMS",
      termsVersion: "2025-10-01",
      acceptedAt: "2026-01-01T00:00:00Z",
      ipAddress: "203.0.113.10",
    },
  ],
};
