import type { OperationDocs } from "./operation-docs-types.js";

/** KYC outcomes by suffix (conventions §2.1). */
const kycSuffixes =
  "**Sandbox:** a complete packet resolves by the last three characters of the individual's `fullName`, or of the business's `registrationNumber` or a beneficial owner's `lastName`: `001` stays PENDING (manual review), `002` REJECTED, `003` and any other APPROVED. With the platform config flag `sandboxSkipVerificationPaperwork`, `002` and other suffixes resolve without documents; `001` and `003` still need a complete packet.";

/** Bank validation outcomes by suffix (conventions §4.1). */
const bankValidation =
  "**Sandbox:** bank validation finishes at once (ACTIVE), except by `accountNumber` suffix: `008` stays PENDING (payouts answer 409 BANK_ACCOUNT_VALIDATION_PENDING) and `009` fails validation and becomes INACTIVE (payouts answer 400 INVALID_BANK_ACCOUNT). Payout outcomes by suffix `002`–`007` are described on POST /quotes/{quoteId}/execute.";

const otp = "**Sandbox:** the code is always `000000`; no e-mail or SMS is sent.";

/** Platform configuration, API tokens, customers, internal accounts, KYC, documents, external accounts, SCA. */
export const accountOperationDocs: OperationDocs = {
  "GET /config": {
    id: "getPlatformConfig",
    summary: "Get the platform configuration",
    description:
      "The calling platform's configuration: supported currencies, webhook endpoint and sandbox options.",
    response: "PlatformConfig",
  },
  "PATCH /config": {
    id: "updatePlatformConfig",
    summary: "Update the platform configuration",
    description: "Changes the fields given and leaves the others as they are.",
    request: "PlatformConfigUpdateRequest",
    response: "PlatformConfig",
    example: {
      webhookEndpoint: "https://example.com/paysvc/webhooks",
      sandboxSkipVerificationPaperwork: true,
    },
  },
  "POST /tokens": {
    id: "createToken",
    summary: "Create an API token",
    description:
      "Creates an API token with the given permissions; its clientSecret is returned only in this answer.",
    request: "ApiTokenCreateRequest",
    response: "ApiToken",
    example: { name: "payouts backend", permissions: ["VIEW", "TRANSACT"] },
  },
  "GET /tokens": {
    id: "listTokens",
    summary: "List API tokens",
    description: "The platform's API tokens, newest first, without their secrets.",
    response: "TokenListResponse",
  },
  "GET /tokens/{tokenId}": {
    id: "getTokenById",
    summary: "Get an API token",
    description: "One API token of the platform, without its secret.",
    response: "ApiToken",
  },
  "DELETE /tokens/{tokenId}": {
    id: "deleteTokenById",
    summary: "Delete an API token",
    description: "Deletes the token: its credentials stop working at once.",
  },
  "POST /customers": {
    id: "createCustomer",
    summary: "Create a customer",
    description:
      "Creates an individual or business customer with its internal accounts, accepting the end-user agreements given in `agreementConsents`.",
    note: kycSuffixes,
    request: "CustomerCreateRequestOneOf",
    response: "CustomerOneOf",
    example: {
      customerType: "INDIVIDUAL",
      platformCustomerId: "user-4821",
      fullName: "Ada Lovelace",
      email: "ada@example.com",
      agreementConsents: [
        {
          type: "SERVICE_END_USER_TERMS",
          termsVersion: "2025-10-01",
          acceptedAt: "2026-01-01T00:00:00Z",
          ipAddress: "203.0.113.10",
        },
      ],
    },
  },
  "GET /customers": {
    id: "listCustomers",
    summary: "List customers",
    description: "The platform's customers, filtered and paginated with a cursor.",
    response: "CustomerListResponse",
  },
  "GET /customers/agreements": {
    id: "listCustomerAgreements",
    summary: "List the end-user agreements",
    description: "The agreements a customer accepts at creation, with the version and link of each.",
  },
  "GET /customers/end-user-terms": {
    id: "getEndUserTerms",
    summary: "Get the end-user terms (deprecated)",
    response: "EndUserTerms",
  },
  "GET /customers/{customerId}": {
    id: "getCustomerById",
    summary: "Get a customer",
    description: "One customer of the platform.",
    response: "CustomerOneOf",
  },
  "PATCH /customers/{customerId}": {
    id: "updateCustomerById",
    summary: "Update a customer",
    description:
      "Changes the fields given. For a customer with an embedded wallet, a change of contact details is a signed retry: the first call answers 202 with a payload to sign, the retry carries `Service-Wallet-Signature` and `Request-Id`.",
    request: "CustomerUpdateRequestOneOf",
    response: "CustomerOneOf",
  },
  "DELETE /customers/{customerId}": {
    id: "deleteCustomerById",
    summary: "Delete a customer",
    description:
      "Deletes the customer; it no longer appears in lists unless deleted customers are asked for.",
    response: "CustomerOneOf",
  },
  "POST /customers/bulk/csv": { id: "uploadCustomersCsv", summary: "Import customers from CSV" },
  "GET /customers/bulk/jobs/{jobId}": {
    id: "getBulkCustomerImportJob",
    summary: "Get a customer import job",
    description: "The progress and per-row results of a CSV import.",
    response: "BulkCustomerImportJob",
  },
  "GET /customers/internal-accounts": {
    id: "listCustomerInternalAccounts",
    summary: "List customers' internal accounts",
    description: "Internal accounts of the platform's customers, with their balances.",
    response: "InternalAccountListResponse",
  },
  "GET /platform/internal-accounts": {
    id: "listPlatformInternalAccounts",
    summary: "List the platform's internal accounts",
    description: "The platform's own internal accounts, with their balances.",
    response: "PlatformInternalAccountListResponse",
  },
  "GET /internal-accounts/{accountId}": {
    id: "getInternalAccountById",
    summary: "Get an internal account",
    description: "One internal account, of a customer or of the platform, with its balance.",
    response: "InternalAccount",
  },
  "PATCH /internal-accounts/{accountId}": {
    id: "updateInternalAccount",
    summary: "Update an internal account",
    description:
      "Changes the account's settings. An embedded wallet's change is a signed retry with `Service-Wallet-Signature` and `Request-Id`.",
    request: "InternalAccountUpdateRequest",
    response: "InternalAccountOrProcessing",
  },
  "POST /internal-accounts/{accountId}/export": {
    id: "exportInternalAccount",
    summary: "Export an embedded wallet's key",
    description:
      "Exports the embedded wallet's seed, encrypted to the client's key. A signed retry: the retry carries `Service-Wallet-Signature` and `Request-Id`.",
    request: "InternalAccountExportRequest",
    response: "InternalAccountExportOrProcessing",
  },
  "GET /beneficial-owners": {
    id: "listBeneficialOwners",
    summary: "List beneficial owners",
    description: "The beneficial owners of a business customer.",
    response: "BeneficialOwnerListResponse",
  },
  "POST /beneficial-owners": {
    id: "createBeneficialOwner",
    summary: "Add a beneficial owner",
    description: "Adds a beneficial owner to a business customer.",
    note: kycSuffixes,
    request: "BeneficialOwnerCreateRequest",
    response: "BeneficialOwner",
  },
  "GET /beneficial-owners/{beneficialOwnerId}": {
    id: "getBeneficialOwner",
    summary: "Get a beneficial owner",
    description: "One beneficial owner.",
    response: "BeneficialOwner",
  },
  "PATCH /beneficial-owners/{beneficialOwnerId}": {
    id: "updateBeneficialOwner",
    summary: "Update a beneficial owner",
    description: "Changes the fields given.",
    request: "BeneficialOwnerUpdateRequest",
    response: "BeneficialOwner",
  },
  "POST /customers/{customerId}/kyc-link": {
    id: "createCustomerKycLink",
    summary: "Create a KYC link",
    request: "KycLinkCreateRequest",
    response: "KycLinkResponse",
  },
  "POST /documents": {
    id: "uploadDocument",
    summary: "Upload a document",
    description: "Uploads a verification document (multipart/form-data) for a customer or beneficial owner.",
    response: "Document",
  },
  "GET /documents": {
    id: "listDocuments",
    summary: "List documents",
    description: "Uploaded verification documents, without their content.",
    response: "DocumentListResponse",
  },
  "GET /documents/{documentId}": {
    id: "getDocument",
    summary: "Get a document",
    description: "One uploaded document's metadata.",
    response: "Document",
  },
  "PUT /documents/{documentId}": {
    id: "replaceDocument",
    summary: "Replace a document",
    description: "Replaces the document's file (multipart/form-data), keeping its id.",
    response: "Document",
  },
  "DELETE /documents/{documentId}": {
    id: "deleteDocument",
    summary: "Delete a document",
    description:
      "Deletes an uploaded document while its customer's kycStatus is UNVERIFIED; once a packet is under review or decided its documents are the record of it (409 CONFLICT).",
  },
  "POST /verifications": {
    id: "createVerification",
    summary: "Submit a verification",
    description:
      "Submits the customer's KYC/KYB packet. An incomplete packet answers RESOLVE_ERRORS, one entry per missing field or document.",
    note: kycSuffixes,
    request: "VerificationRequest",
    response: "Verification",
  },
  "GET /verifications": {
    id: "listVerifications",
    summary: "List verifications",
    description: "Verifications of the platform's customers.",
    response: "VerificationListResponse",
  },
  "GET /verifications/{verificationId}": {
    id: "getVerification",
    summary: "Get a verification",
    description: "One verification with its status and errors to resolve.",
    response: "Verification",
  },
  "POST /customers/external-accounts": {
    id: "createCustomerExternalAccount",
    summary: "Add a customer external account",
    description: "Adds a bank account, wallet or other payout destination of a customer.",
    note: bankValidation,
    request: "ExternalAccountCreateRequest",
    response: "ExternalAccount",
  },
  "GET /customers/external-accounts": {
    id: "listCustomerExternalAccounts",
    summary: "List customer external accounts",
    description: "External accounts of the platform's customers.",
    response: "ExternalAccountListResponse",
  },
  "GET /customers/external-accounts/{externalAccountId}": {
    id: "getCustomerExternalAccountById",
    summary: "Get a customer external account",
    description: "One external account of a customer.",
    response: "ExternalAccount",
  },
  "DELETE /customers/external-accounts/{externalAccountId}": {
    id: "deleteCustomerExternalAccountById",
    summary: "Delete a customer external account",
    description: "Deletes the external account; it can no longer receive payouts.",
  },
  "POST /platform/external-accounts": {
    id: "createPlatformExternalAccount",
    summary: "Add a platform external account",
    description: "Adds an external account of the platform itself.",
    note: bankValidation,
    request: "PlatformExternalAccountCreateRequest",
    response: "ExternalAccount",
  },
  "GET /platform/external-accounts": {
    id: "listPlatformExternalAccounts",
    summary: "List platform external accounts",
    description: "The platform's own external accounts.",
    response: "ExternalAccountListResponse",
  },
  "GET /platform/external-accounts/{externalAccountId}": {
    id: "getPlatformExternalAccountById",
    summary: "Get a platform external account",
    description: "One external account of the platform.",
    response: "ExternalAccount",
  },
  "DELETE /platform/external-accounts/{externalAccountId}": {
    id: "deletePlatformExternalAccountById",
    summary: "Delete a platform external account",
    description: "Deletes the platform's external account.",
  },
  "POST /customers/external-accounts/{externalAccountId}/challenge": {
    id: "createExternalAccountOwnershipChallenge",
    summary: "Start an ownership challenge",
    request: "OwnershipChallengeRequest",
    response: "OwnershipChallenge",
  },
  "POST /customers/external-accounts/{externalAccountId}/verify": {
    id: "verifyExternalAccountOwnership",
    summary: "Verify external account ownership",
    request: "OwnershipVerifyRequest",
    response: "ExternalAccount",
  },
  "POST /platform/external-accounts/{externalAccountId}/challenge": {
    id: "createPlatformExternalAccountOwnershipChallenge",
    summary: "Start an ownership challenge (platform account)",
    request: "OwnershipChallengeRequest",
    response: "OwnershipChallenge",
  },
  "POST /platform/external-accounts/{externalAccountId}/verify": {
    id: "verifyPlatformExternalAccountOwnership",
    summary: "Verify ownership (platform account)",
    request: "OwnershipVerifyRequest",
    response: "ExternalAccount",
  },
  "POST /customers/external-accounts/{externalAccountId}/trust": {
    id: "startBeneficiaryTrust",
    summary: "Start trusting a beneficiary",
    note: otp,
    response: "BeneficiaryTrustStart",
  },
  "POST /customers/external-accounts/{externalAccountId}/untrust": {
    id: "startBeneficiaryUntrust",
    summary: "Start untrusting a beneficiary",
    note: otp,
    response: "BeneficiaryTrustStart",
  },
  "POST /customers/external-accounts/{externalAccountId}/trust/confirm": {
    id: "confirmBeneficiaryTrust",
    summary: "Confirm trusting a beneficiary",
    request: "BeneficiaryTrustConfirmRequest",
    response: "BeneficiaryTrustConfirm",
  },
  "POST /customers/external-accounts/{externalAccountId}/untrust/confirm": {
    id: "confirmBeneficiaryUntrust",
    summary: "Confirm untrusting a beneficiary",
    request: "BeneficiaryTrustConfirmRequest",
    response: "BeneficiaryTrustConfirm",
  },
  "POST /customers/external-accounts/{externalAccountId}/confirm": {
    id: "confirmBeneficiaryTrustChange",
    summary: "Confirm untrusting a beneficiary (alias)",
  },
  "GET /sca/factors": { id: "listScaFactors", summary: "List SCA factors", response: "ScaFactorList" },
  "POST /sca/factors": {
    id: "startScaFactorEnrollment",
    summary: "Start enrolling an SCA factor",
    note: otp,
    response: "ScaFactorEnrollStartOneOf",
  },
  "POST /sca/factors/confirm": {
    id: "confirmScaFactorEnrollment",
    summary: "Confirm an SCA factor enrolment",
    response: "ScaFactorConfirmResponseOneOf",
  },
  "DELETE /sca/factors/{credentialId}": { id: "deleteScaFactor", summary: "Delete an SCA factor" },
  "POST /sca/factors/reset": {
    id: "startTwoFactorReset",
    summary: "Start a two-factor reset",
    request: "TwoFactorResetStartRequest",
    response: "TwoFactorResetStart",
  },
  "GET /sca/factors/reset/{resetId}": {
    id: "getTwoFactorResetStatus",
    summary: "Get a two-factor reset",
    response: "TwoFactorResetStatus",
  },
  "POST /sca/factors/reset/{resetId}/complete": {
    id: "completeTwoFactorReset",
    summary: "Complete a two-factor reset",
    request: "TwoFactorResetCompleteRequest",
  },
  "POST /sca/login/start": {
    id: "startScaLogin",
    summary: "Start an SCA login",
    note: otp,
    request: "ScaLoginStartRequest",
    response: "ScaLoginStart",
  },
  "POST /sca/login/complete": {
    id: "completeScaLogin",
    summary: "Complete an SCA login",
    request: "ScaLoginCompleteRequest",
    response: "ScaLoginComplete",
  },
  "POST /sca/record-event": {
    id: "recordSecurityEvent",
    summary: "Record a security event",
    request: "RecordSecurityEventRequest",
    response: "RecordSecurityEventResponse",
  },
  "POST /customers/{customerId}/verify-email": {
    id: "sendCustomerEmailVerification",
    summary: "Send an e-mail verification code",
    note: otp,
  },
  "POST /customers/{customerId}/verify-email/confirm": {
    id: "confirmCustomerEmailVerification",
    summary: "Confirm the customer's e-mail",
    request: "ContactVerificationConfirmRequest",
  },
  "POST /customers/{customerId}/verify-phone": {
    id: "sendCustomerPhoneVerification",
    summary: "Send a phone verification code",
    note: otp,
  },
  "POST /customers/{customerId}/verify-phone/confirm": {
    id: "confirmCustomerPhoneVerification",
    summary: "Confirm the customer's phone number",
    request: "ContactVerificationConfirmRequest",
  },
};
