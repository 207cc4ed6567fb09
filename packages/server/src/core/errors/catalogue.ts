/**
 * The error catalogue: every code the interface names (Errors section and the conventions' additions),
 * with its HTTP status and a default reason. `satisfies` makes the compiler check every entry.
 */
interface CatalogueEntry {
  readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 423 | 424 | 429 | 500 | 501 | 503;
  readonly reason: string;
}

const badRequest = (reason: string) => ({ status: 400, reason }) as const;
const unauthorized = (reason: string) => ({ status: 401, reason }) as const;
const notFound = (reason: string) => ({ status: 404, reason }) as const;
const conflict = (reason: string) => ({ status: 409, reason }) as const;
const failedDependency = (reason: string) => ({ status: 424, reason }) as const;

export const catalogue = {
  // 400
  INVALID_INPUT: badRequest("Invalid input."),
  END_USER_TERMS_VERSION_NOT_FOUND: badRequest(
    "The submitted terms version is not supported for that agreement.",
  ),
  END_USER_TERMS_NOT_ACCEPTED: badRequest("The customer has not accepted the end-user terms."),
  MISSING_MANDATORY_USER_INFO: badRequest("Required customer information is missing."),
  INVITATION_ALREADY_CLAIMED: badRequest("The invitation was already claimed."),
  INVITATIONS_NOT_CONFIGURED: badRequest("Invitations are not configured."),
  INVALID_UMA_ADDRESS: badRequest("The UMA address format is invalid."),
  INVITATION_CANCELLED: badRequest("The invitation was cancelled."),
  QUOTE_REQUEST_FAILED: badRequest("There was an issue during quoting; retry."),
  INVALID_PAYREQ_RESPONSE: badRequest("The counterparty payreq response is invalid."),
  INVALID_RECEIVER: badRequest("The receiver is invalid."),
  PARSE_PAYREQ_RESPONSE_ERROR: badRequest("The receiver payreq response could not be parsed."),
  CERT_CHAIN_INVALID: badRequest("The counterparty certificate chain is invalid."),
  CERT_CHAIN_EXPIRED: badRequest("The counterparty certificate chain has expired."),
  INVALID_PUBKEY_FORMAT: badRequest("The counterparty public key format is invalid."),
  MISSING_REQUIRED_UMA_PARAMETERS: badRequest("Counterparty UMA parameters are missing."),
  SENDER_NOT_ACCEPTED: badRequest("The sender is not accepted."),
  AMOUNT_OUT_OF_RANGE: badRequest("The amount is out of range."),
  INVALID_CURRENCY: badRequest("The currency is invalid."),
  INVALID_TIMESTAMP: badRequest("The timestamp is invalid."),
  INVALID_NONCE: badRequest("The nonce is invalid."),
  INVALID_REQUEST_FORMAT: badRequest("The request format is invalid."),
  INVALID_BANK_ACCOUNT: badRequest("The bank account is invalid."),
  SELF_PAYMENT: badRequest("Self payment is not allowed."),
  LOOKUP_REQUEST_FAILED: badRequest("The lookup request failed."),
  PARSE_LNURLP_RESPONSE_ERROR: badRequest("The LNURLP response could not be parsed."),
  INVALID_AMOUNT: badRequest("The amount is invalid."),
  WEBHOOK_ENDPOINT_NOT_SET: badRequest("No webhook endpoint is set."),
  WEBHOOK_DELIVERY_ERROR: badRequest("The webhook could not be delivered."),
  LOW_QUALITY: badRequest("The document quality is too low."),
  DATA_MISMATCH: badRequest("The document details differ from the provided information."),
  EXPIRED: badRequest("The document has expired."),
  SUSPECTED_FRAUD: badRequest("The document is suspected to be forged or edited."),
  UNSUITABLE_DOCUMENT: badRequest("The document type is not accepted."),
  INCOMPLETE: badRequest("The document is missing pages or sides."),
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: badRequest(
    "An EMAIL_OTP credential already exists on the internal account.",
  ),
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: badRequest(
    "An SMS_OTP credential already exists on the internal account.",
  ),
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: badRequest("The same WebAuthn credential id is already registered."),
  STABLECOIN_PROVIDER_ACCOUNT_INVALID: badRequest("The provider account link is not usable."),
  STABLECOIN_PROVIDER_ACCOUNT_REVOKED: badRequest("The provider account link was revoked."),
  STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED: badRequest(
    "Several provider account links are active; pass stablecoinProviderAccountId.",
  ),
  CARDHOLDER_KYC_NOT_APPROVED: badRequest(
    "The cardholder's KYC status is not APPROVED; no card can be issued.",
  ),
  TRANSACTION_SIZE_LIMIT_EXCEEDED: badRequest(
    "The amount exceeds the configured single-transaction maximum.",
  ),
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: badRequest(
    "The destination account's ownership must be verified first.",
  ),
  INSUFFICIENT_FUNDS: badRequest("Insufficient funds."),
  QUOTE_EXPIRED: badRequest("The quote has expired; request a new one."),
  QUOTE_RATE_UNAVAILABLE: badRequest("No exchange rate is available for the corridor now."),
  STABLECOIN_AMOUNT_NOT_REPRESENTABLE: badRequest(
    "The amount is not representable at the token's precision.",
  ),
  STABLECOIN_BURN_SOURCE_NOT_SUPPORTED: badRequest("The burn source account cannot be used."),
  STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED: badRequest("Linking the external account failed."),
  STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED: badRequest("The external account needs a link method."),
  STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED: badRequest("The external account is not linked."),
  STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED: badRequest("The external account type is not supported."),
  STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED: badRequest(
    "The provider could not link the external account.",
  ),
  STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED: badRequest(
    "The external account must be linked with the provider first.",
  ),
  STABLECOIN_GRID_OPERATIONS_NOT_ENABLED: badRequest("The stablecoin is not enabled for operations."),
  STABLECOIN_NOT_PROVISIONED: badRequest("The stablecoin is not provisioned for issuer operations."),
  STABLECOIN_OPERATION_NOT_SUPPORTED: badRequest("The stablecoin does not support the operation."),
  STABLECOIN_PROVIDER_ERROR: badRequest("The provider rejected the operation."),
  STABLECOIN_PROVIDER_SOURCE_NOT_LINKED: badRequest("The provider source account is not linked."),
  STABLECOIN_VERIFICATION_FAILED: badRequest("The stablecoin could not be verified with the provider."),
  FUNDING_SOURCE_INELIGIBLE: badRequest("A card funding source is not eligible."),
  // 401
  UNAUTHORIZED: unauthorized("The API credentials are missing or invalid."),
  INVALID_SIGNATURE: unauthorized("The signature header is invalid."),
  WALLET_SIGNATURE_MISSING: unauthorized("The Service-Wallet-Signature header is required but absent."),
  WALLET_SIGNATURE_MALFORMED: unauthorized("The Service-Wallet-Signature header could not be parsed."),
  WALLET_SIGNATURE_BODY_MISMATCH: unauthorized("The signature was computed over a different request."),
  WALLET_SIGNATURE_INVALID: unauthorized("The wallet signature failed verification."),
  REQUEST_ID_MISSING: unauthorized("The Request-Id header is required on the signed retry but absent."),
  // 403
  FORBIDDEN: { status: 403, reason: "The API token lacks the permission this operation needs." },
  USER_NOT_READY: { status: 403, reason: "The user is not ready for this operation." },
  COUNTERPARTY_NOT_ALLOWED: { status: 403, reason: "The counterparty is not allowed." },
  VELOCITY_LIMIT_EXCEEDED: { status: 403, reason: "A velocity limit was exceeded." },
  // 404
  TRANSACTION_NOT_FOUND: notFound("The transaction does not exist."),
  INVITATION_NOT_FOUND: notFound("The invitation does not exist."),
  USER_NOT_FOUND: notFound("The user does not exist."),
  QUOTE_NOT_FOUND: notFound("The quote does not exist."),
  LOOKUP_REQUEST_NOT_FOUND: notFound("The lookup request does not exist."),
  TOKEN_NOT_FOUND: notFound("The API token does not exist."),
  BULK_UPLOAD_JOB_NOT_FOUND: notFound("The bulk upload job does not exist."),
  REFERENCE_NOT_FOUND: notFound("The reference does not exist."),
  UMA_NOT_FOUND: notFound("No receiver exists at the counterparty for this UMA address."),
  STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND: notFound("The stablecoin provider account does not exist."),
  ACCOUNT_NOT_FOUND: notFound("The account does not exist."),
  AUTH_METHOD_NOT_FOUND: notFound("The credential does not exist."),
  CUSTOMER_NOT_FOUND: notFound("The customer does not exist."),
  DOCUMENT_HOLDER_NOT_FOUND: notFound("The document holder does not exist."),
  NOT_FOUND: notFound("The resource does not exist."),
  PAYMENT_URL_NOT_FOUND: notFound("The payment URL does not exist."),
  PLATFORM_NOT_FOUND: notFound("The platform does not exist."),
  REQUEST_NOT_FOUND: notFound("The request does not exist."),
  SESSION_NOT_FOUND: notFound("The session does not exist."),
  STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND: notFound("The stablecoin external account does not exist."),
  STABLECOIN_NOT_FOUND: notFound("The stablecoin does not exist."),
  STABLECOIN_OPERATION_NOT_FOUND: notFound("The stablecoin operation does not exist."),
  VERIFICATION_NOT_FOUND: notFound("The verification does not exist."),
  // 405
  METHOD_NOT_ALLOWED: { status: 405, reason: "The method is not allowed on this path." },
  // 409
  TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: conflict("The transaction is not pending platform approval."),
  TRANSACTION_NOT_CANCELLABLE: conflict("The transaction is already settled or past cancellation."),
  UMA_ADDRESS_EXISTS: conflict("The UMA address already exists."),
  EMAIL_OTP_EMAIL_ALREADY_EXISTS: conflict("The e-mail is already tied to an EMAIL_OTP credential."),
  EMAIL_OTP_CREDENTIAL_SET_CHANGED: conflict(
    "The tied EMAIL_OTP credential set changed after the challenge.",
  ),
  PASSKEY_ALREADY_ENROLLED: conflict("The customer already has an enrolled passkey; delete it first."),
  SCA_SESSION_REQUIRED: conflict("The customer's SCA login session is missing or expired; re-authenticate."),
  BENEFICIARY_TRUSTED: conflict("A trusted beneficiary cannot be deleted; untrust it first."),
  BANK_ACCOUNT_VALIDATION_PENDING: conflict(
    "The US bank account is still being validated; retry after completion.",
  ),
  INVALID_STATE_TRANSITION: conflict("The requested card status transition is not allowed."),
  CARD_ALREADY_CLOSED: conflict("The card is already closed."),
  CARD_NOT_MUTABLE: conflict("The card is closed and cannot be changed."),
  CARD_LIMIT_REACHED: conflict("The live card limit is reached; closing a card frees a slot."),
  STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE: conflict("Enablement can be requested only from NOT_ENABLED."),
  NOT_YET_AVAILABLE: conflict("The result could still change; retry later."),
  CONFLICT: conflict("The request conflicts with the current state."),
  DOCUMENT_ALREADY_EXISTS: conflict("A document of this type exists; replace it with PUT."),
  DUPLICATE_EXTERNAL_ACCOUNT: conflict("An equivalent external account exists."),
  DUPLICATE_PAY_REQUEST: conflict("A pay request with this idempotency key exists."),
  SMS_OTP_CREDENTIAL_SET_CHANGED: conflict("The SMS_OTP credential set changed in flight."),
  SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS: conflict("The phone number is already tied to an SMS_OTP credential."),
  STABLECOIN_SYMBOL_ALREADY_EXISTS: conflict("The stablecoin symbol is already registered."),
  STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS: conflict("The token identifier is already registered."),
  WALLET_NOT_PROVISIONED: conflict("The embedded wallet is not provisioned."),
  // 423, 424, 429
  ACCOUNT_LOCKED: { status: 423, reason: "The account is locked." },
  PAYREQ_REQUEST_FAILED: failedDependency("The payreq request failed."),
  COUNTERPARTY_PUBKEY_FETCH_ERROR: failedDependency("The counterparty public key could not be fetched."),
  NO_COMPATIBLE_UMA_VERSION: failedDependency("No compatible UMA version."),
  LNURLP_REQUEST_FAILED: failedDependency("The LNURLP request failed."),
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: failedDependency("The EMAIL_OTP credential could not be synchronized."),
  DAILY_VOLUME_LIMIT_EXCEEDED: { status: 429, reason: "The platform's daily volume limit is exceeded." },
  RATE_LIMITED: { status: 429, reason: "Too many requests; retry after the Retry-After interval." },
  // 500, 501, 503
  GRID_SWITCH_ERROR: { status: 500, reason: "Switch error." },
  INTERNAL_ERROR: { status: 500, reason: "Internal server error." },
  NOT_IMPLEMENTED: { status: 501, reason: "This operation is not implemented." },
  UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY: {
    status: 501,
    reason: "A mandatory payee data key is not recognized.",
  },
  // Our addition (docs/decisions.md "Edges of the error contract"): the interface has no code for a
  // request that arrives while the service drains for shutdown.
  SERVICE_UNAVAILABLE: {
    status: 503,
    reason: "The service is shutting down; retry after the Retry-After interval.",
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof catalogue;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(catalogue, value);
}
