import type { OperationDocs } from "./operation-docs-types.js";

/** Payout and transfer outcomes by suffix (conventions §3.6). */
const payoutSuffixes =
  "**Sandbox:** the outcome follows the last three characters of the external account's `accountNumber` (a wallet's `address`): `002` FAILED QUOTE_EXECUTION_FAILED, refunded; `003` stays PROCESSING about 6 minutes, then COMPLETED; `004` FAILED ACCOUNT_CANNOT_RECEIVE, refunded; `005` COMPLETED then returned (FAILED PAYOUT_RETURNED, refunded); `006` cancelled before payout (FAILED QUOTE_EXECUTION_FAILED, refunded); `007` the payout and its refund both fail; `008` validation pending (409 BANK_ACCOUNT_VALIDATION_PENDING); `009` invalid account (400 INVALID_BANK_ACCOUNT); any other COMPLETED.";

const transferSuffixes =
  "**Sandbox:** by the external account's `accountNumber` suffix: `002` answers 400 INSUFFICIENT_FUNDS and creates nothing; `003` FAILED ACCOUNT_INVALID; `004` FAILED COMPLIANCE_REJECTED; `005` settles, then fails about 30 s later with PAYOUT_RETURNED; any other settles.";

const cardIssuance =
  "**Sandbox:** by the last three characters of `platformCardId` (else `cardholderId`): `001` stays PROCESSING, `002` becomes CLOSED with ISSUER_REJECTED, `005` becomes ACTIVE after about 30 s, any other ACTIVE within about 1 s. A funding account id ending in `002` or `003` answers 400 FUNDING_SOURCE_INELIGIBLE.";

/** The sandbox counterparty VASP's addresses (docs/guides/uma.md). */
export const umaCounterparty =
  "**Sandbox:** the built-in counterparty VASP `counterparty.sandbox.localhost` answers by user: `$success` (USD), `$success.<currency>` (e.g. `$success.eur`), `$travel.rule` (requires FULL_NAME, BIRTH_DATE, NATIONALITY), `$replayed.nonce` (400 INVALID_NONCE the second time), `$malformed` (400 PARSE_LNURLP_RESPONSE_ERROR), `$missing.uma` (400 MISSING_REQUIRED_UMA_PARAMETERS), `$bad.signature` (400 LOOKUP_REQUEST_FAILED), `$stale.timestamp` (400 INVALID_TIMESTAMP), `$old.version` (424 NO_COMPATIBLE_UMA_VERSION), `$unavailable` (424 LNURLP_REQUEST_FAILED), any other 404 UMA_NOT_FOUND; and by subdomain with `$success`: `expired-cert.`, `invalid-cert.`, `bad-pubkey.`, `no-pubkey.`.";

/** Transactions, quotes, statements, exchange rates, UMA, transfers, cards, stablecoins, invitations. */
export const paymentOperationDocs: OperationDocs = {
  "GET /transactions": {
    id: "listTransactions",
    summary: "List transactions",
    description:
      "Transactions of the platform and its customers (payments and card transactions), filtered and paginated.",
    response: "TransactionListResponse",
  },
  "GET /transactions/{transactionId}": {
    id: "getTransactionById",
    summary: "Get a transaction",
    description: "One transaction with its current status.",
    response: "TransactionOneOf",
  },
  "POST /transactions/{transactionId}/cancel": {
    id: "cancelTransaction",
    summary: "Cancel a transaction",
    request: "CancelTransactionRequest",
    response: "Transaction",
  },
  "POST /transactions/{transactionId}/confirm": {
    id: "confirmReceiptDelivery",
    summary: "Confirm receipt delivery",
    request: "ConfirmReceiptDeliveryRequest",
    response: "Transaction",
  },
  "POST /transactions/{transactionId}/approve": {
    id: "approvePendingPayment",
    summary: "Approve a pending payment",
    request: "ApprovePaymentRequest",
  },
  "POST /transactions/{transactionId}/reject": {
    id: "rejectPendingPayment",
    summary: "Reject a pending payment",
    description:
      "Rejects an agent-initiated payment awaiting platform approval: the transaction and its quote FAIL and its agent action is REJECTED with the optional reason; no money moves.",
    request: "RejectPaymentRequest",
  },
  "POST /crypto/estimate-withdrawal-fee": {
    id: "estimateCryptoWithdrawalFee",
    summary: "Estimate a crypto withdrawal fee",
    request: "EstimateCryptoWithdrawalFeeRequest",
    response: "EstimateCryptoWithdrawalFeeResponse",
  },
  "GET /internal-accounts/{accountId}/balance-changes": {
    id: "listBalanceChanges",
    summary: "List an account's balance changes",
  },
  "POST /internal-accounts/{accountId}/statement-confirmations": {
    id: "confirmStatementDelivery",
    summary: "Confirm a statement delivery",
  },
  "GET /internal-accounts/{accountId}/statement-deliveries": {
    id: "listStatementDeliveries",
    summary: "List statement deliveries",
  },
  "POST /quotes": {
    id: "createQuote",
    summary: "Create a quote",
    note: payoutSuffixes,
    request: "QuoteRequest",
    response: "Quote",
    example: {
      source: { sourceType: "ACCOUNT", accountId: "InternalAccount:019542f5-b3e7-1d02-0000-0000000a1b2c" },
      destination: {
        destinationType: "ACCOUNT",
        accountId: "ExternalAccount:019542f5-b3e7-1d02-0000-0000000d4e5f",
      },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 10000,
      description: "Invoice 1042",
    },
  },
  "GET /quotes/{quoteId}": {
    id: "getQuoteById",
    summary: "Get a quote",
    description: "One quote with its status and, once executed, its transaction.",
    response: "Quote",
  },
  "POST /quotes/{quoteId}/execute": {
    id: "executeQuote",
    summary: "Execute a quote",
    note: payoutSuffixes,
    request: "ExecuteQuoteRequest",
    response: "Quote",
  },
  "POST /quotes/{quoteId}/authorize": {
    id: "authorizeQuote",
    summary: "Authorize a quote (SCA)",
    note: "**Sandbox:** the SMS_OTP code is always `000000`.",
    request: "ScaAuthorization",
    response: "Quote",
  },
  "POST /quotes/{quoteId}/authorize/resend": {
    id: "resendQuoteScaCode",
    summary: "Resend a quote's SCA code",
  },
  "GET /exchange-rates": {
    id: "getExchangeRates",
    summary: "Get exchange rates",
    response: "ExchangeRateListResponse",
  },
  "GET /receiver/external-account/{accountId}": {
    id: "lookupExternalAccount",
    summary: "Look up an external account",
    description:
      "What a payment to the external account can be before quoting it: the account's currency at the platform's cached rate from USD, from 1 minor unit to the corridor's single-transaction maximum; no payer data is asked for. A payout quote may cite the answer's lookupId.",
    response: "ReceiverExternalAccountLookupResponse",
  },
  "GET /receiver/uma/{receiverUmaAddress}": {
    id: "lookupUma",
    summary: "Look up a UMA receiver",
    note: umaCounterparty,
    response: "ReceiverUmaLookupResponse",
  },
  "GET /uma-providers": {
    id: "getAvailableUmaProviders",
    summary: "List UMA providers",
    response: "UmaProviderListResponse",
  },
  "GET /vasps": { id: "listVasps", summary: "List VASPs", response: "VaspListResponse" },
  "GET /discoveries": {
    id: "getDiscoveries",
    summary: "List payout destinations",
    response: "DiscoveryListResponse",
  },
  "POST /transfer-out": {
    id: "createTransferOut",
    summary: "Transfer out (deprecated)",
    note: transferSuffixes,
    request: "TransferOutRequest",
    response: "Transaction",
  },
  "POST /transfer-in": {
    id: "createTransferIn",
    summary: "Transfer in (deprecated)",
    note: transferSuffixes,
    request: "TransferInRequest",
    response: "Transaction",
  },
  "POST /cards": {
    id: "createCard",
    summary: "Issue a card",
    note: cardIssuance,
    request: "CardCreateRequest",
    response: "Card",
    example: {
      cardholderId: "Customer:019542f5-b3e7-1d02-0000-0000000c0ffe",
      form: "VIRTUAL",
      fundingSources: ["InternalAccount:019542f5-b3e7-1d02-0000-0000000a1b2c"],
    },
  },
  "GET /cards": {
    id: "listCards",
    summary: "List cards",
    description: "The platform's cards, filtered by cardholder, account, platformCardId or status.",
    response: "CardListResponse",
  },
  "GET /cards/{cardId}": {
    id: "getCardById",
    summary: "Get a card",
    description: "One card.",
    response: "Card",
  },
  "PATCH /cards/{cardId}": {
    id: "updateCardById",
    summary: "Update a card",
    request: "CardUpdateRequest",
    response: "Card",
  },
  "POST /cards/{cardId}/pin": { id: "setCardPin", summary: "Set a card's PIN" },
  "POST /cards/{cardId}/reveal": {
    id: "revealCard",
    summary: "Reveal a card",
    response: "CardRevealResponse",
  },
  "POST /cards/{cardId}/tokenize": { id: "tokenizeCard", summary: "Push a card to a digital wallet" },
  "POST /invitations": {
    id: "createInvitation",
    summary: "Create an invitation",
    request: "UmaInvitationCreateRequest",
    response: "UmaInvitation",
  },
  "GET /invitations/{invitationCode}": {
    id: "getInvitation",
    summary: "Get an invitation",
    description: "One invitation by its code.",
    response: "UmaInvitation",
  },
  "POST /invitations/{invitationCode}/claim": {
    id: "claimInvitation",
    summary: "Claim an invitation",
    request: "UmaInvitationClaimRequest",
    response: "UmaInvitation",
  },
  "POST /invitations/{invitationCode}/cancel": {
    id: "cancelInvitation",
    summary: "Cancel an invitation",
    response: "UmaInvitation",
  },
  "POST /stablecoins": {
    id: "registerStablecoin",
    summary: "Register a stablecoin",
    description: "Registers a stablecoin the platform issues; it starts NOT_ENABLED.",
    request: "StablecoinRegisterRequest",
    response: "Stablecoin",
  },
  "GET /stablecoins": {
    id: "listStablecoins",
    summary: "List stablecoins",
    description: "The platform's stablecoins.",
    response: "StablecoinListResponse",
  },
  "GET /stablecoins/{stablecoinId}": {
    id: "getStablecoin",
    summary: "Get a stablecoin",
    description: "One stablecoin with its enablement status.",
    response: "Stablecoin",
  },
  "POST /stablecoins/{stablecoinId}/request-enablement": {
    id: "requestStablecoinEnablement",
    summary: "Request stablecoin enablement",
  },
  "POST /stablecoins/{stablecoinId}/mints": {
    id: "createStablecoinMint",
    summary: "Mint a stablecoin",
    description:
      "Mints an amount of the stablecoin into destination.accountId (an external wallet, or a provider account's treasury); the operation settles asynchronously.",
    request: "StablecoinMintRequest",
    response: "StablecoinOperation",
  },
  "POST /stablecoins/{stablecoinId}/burns": {
    id: "createStablecoinBurn",
    summary: "Burn a stablecoin",
    description: "Burns an amount of the stablecoin; the operation settles asynchronously.",
    request: "StablecoinBurnRequest",
    response: "StablecoinOperation",
  },
  "GET /stablecoins/{stablecoinId}/operations": {
    id: "listStablecoinOperations",
    summary: "List stablecoin operations",
    description: "Mints and burns of the stablecoin, newest first.",
    response: "StablecoinOperationListResponse",
  },
  "GET /stablecoin-operations/{stablecoinOperationId}": {
    id: "getStablecoinOperation",
    summary: "Get a stablecoin operation",
    description: "One mint or burn with its status.",
    response: "StablecoinOperation",
  },
  "POST /stablecoin-provider-accounts": {
    id: "linkStablecoinProviderAccount",
    summary: "Link a stablecoin provider account",
    description: "Links an account at a stablecoin provider to the platform.",
    request: "StablecoinProviderAccountLinkRequest",
    response: "StablecoinProviderAccount",
  },
  "GET /stablecoin-provider-accounts": {
    id: "listStablecoinProviderAccounts",
    summary: "List stablecoin provider accounts",
    description: "The platform's linked provider accounts.",
    response: "StablecoinProviderAccountListResponse",
  },
  "GET /stablecoin-provider-accounts/{providerAccountId}": {
    id: "getStablecoinProviderAccount",
    summary: "Get a stablecoin provider account",
    description: "One linked provider account.",
    response: "StablecoinProviderAccount",
  },
  "POST /stablecoin-provider-accounts/{providerAccountId}/revoke": {
    id: "revokeStablecoinProviderAccount",
    summary: "Revoke a stablecoin provider account",
  },
};
