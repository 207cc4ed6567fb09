import { exampleIds, SANDBOX_OTP } from "./operation-examples-ids.js";

/** Request body examples of customers, their documents and KYC, external accounts and internal accounts. */

const address = {
  line1: "221B Baker Street",
  city: "London",
  postalCode: "NW1 6XE",
  country: "GB",
};

const usdAccountInfo = {
  accountType: "USD_ACCOUNT",
  accountNumber: "483920175",
  routingNumber: "021000021",
  bankAccountType: "CHECKING",
  bankName: "Chase",
  beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" },
};

/** A first-party USD checking account, validated at once in the sandbox (no `008`/`009` suffix). */
const platformExternalAccount = {
  currency: "USD",
  accountInfo: usdAccountInfo,
  ownershipType: "FIRST_PARTY",
};

/** A trust change confirmed with the sandbox's one-time code. */
const trustConfirmation = { challengeId: exampleIds.scaChallenge, code: SANDBOX_OTP };

/** A one-page PDF (`%PDF-1.4`), base64. */
const pdfContent = "JVBERi0xLjQKJXBheXN2YyBleGFtcGxlCg==";

export const accountExamples: Record<string, unknown> = {
  "PATCH /customers/{customerId}": { email: "ada.lovelace@example.com", address },
  "POST /beneficial-owners": {
    customerId: exampleIds.customer,
    roles: ["UBO", "DIRECTOR"],
    ownershipPercentage: 40,
    personalInfo: {
      firstName: "Grace",
      lastName: "Hopper",
      birthDate: "1986-12-09",
      nationality: "US",
      email: "grace.hopper@example.com",
      address: { line1: "1 Main Street", city: "Arlington", state: "VA", postalCode: "22201", country: "US" },
      idType: "SSN",
      identifier: "123-45-6789",
    },
  },
  "PATCH /beneficial-owners/{beneficialOwnerId}": { ownershipPercentage: 35 },
  "POST /customers/{customerId}/kyc-link": { redirectUri: "https://example.com/onboarding/done" },
  "POST /documents": {
    customerId: exampleIds.customer,
    documentType: "PROOF_OF_ADDRESS",
    fileName: "utility-bill.pdf",
    content: pdfContent,
  },
  "PUT /documents/{documentId}": { fileName: "utility-bill-march.pdf", content: pdfContent },
  "POST /verifications": { customerId: exampleIds.customer },
  "POST /customers/external-accounts": {
    customerId: exampleIds.customer,
    currency: "USD",
    accountInfo: usdAccountInfo,
  },
  "POST /platform/external-accounts": platformExternalAccount,
  "POST /agents/me/external-accounts": platformExternalAccount,
  "POST /customers/external-accounts/{externalAccountId}/challenge": { method: "WALLET_SIGNATURE" },
  "POST /platform/external-accounts/{externalAccountId}/challenge": { method: "WALLET_SIGNATURE" },
  "POST /customers/external-accounts/{externalAccountId}/verify": {
    signature: "H9L5yLFjti0QTHhPyFrZCT1V/MMnBtXKmoiKDZ78NDBjERki6ZTQZdSMCtkgoNmp17By9ItJr8o7ChX0XxY91nk=",
    signatureScheme: "bip137",
  },
  "POST /platform/external-accounts/{externalAccountId}/verify": {
    signature: "H9L5yLFjti0QTHhPyFrZCT1V/MMnBtXKmoiKDZ78NDBjERki6ZTQZdSMCtkgoNmp17By9ItJr8o7ChX0XxY91nk=",
    signatureScheme: "bip137",
  },
  "POST /customers/{customerId}/verify-email/confirm": { code: SANDBOX_OTP },
  "POST /customers/{customerId}/verify-phone/confirm": { code: SANDBOX_OTP },
  "POST /customers/external-accounts/{externalAccountId}/trust/confirm": trustConfirmation,
  "POST /customers/external-accounts/{externalAccountId}/untrust/confirm": trustConfirmation,
  "POST /customers/external-accounts/{externalAccountId}/confirm": trustConfirmation,
  "PATCH /internal-accounts/{accountId}": { privateEnabled: true },
  "POST /internal-accounts/{accountId}/statement-confirmations": { periodStart: "2026-10-01T00:00:00-05:00" },
};
