// The package entry. Imports run one way, so the SDK has no import circle (checked by
// packages/server/test/architecture/import-graph.ts): the root files (index, client, agent-client) import the
// folders; resources/, statements/, wallet/ and webhooks/ import core/ and types/ but never a root file;
// core/ (the one request sender, typed errors, retry, pagination) imports only types/; types/ imports nothing.
// This entry is browser-safe: nothing under it imports `node:*` or uses Buffer (packages/sdk/test/packaging
// bundles it for the browser). Node-only code (webhook verification) is in node/, exported by node.ts.
export {
  AgentClient,
  type AgentClientOptions,
  type AgentExternalAccountListParams,
  type AgentInternalAccountListParams,
  type AgentRequestOptions,
  type AgentTransactionListParams,
} from "./agent-client.js";
export { PaysvcClient, type PaysvcClientOptions } from "./client.js";
export {
  ApiServerError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PaysvcError,
  type PaysvcErrorInit,
  PermissionError,
  RateLimitError,
  type StatementCheck,
  StatementIntegrityError,
} from "./core/errors.js";
export { paginate } from "./core/pagination.js";
export type { ApiResult, EmptyResult, RequestOptions, ResponseMeta } from "./core/request.js";
export { AgentsResource } from "./resources/agents.js";
export { CardsResource } from "./resources/cards.js";
export { ConfigResource } from "./resources/config.js";
export { CryptoResource } from "./resources/crypto.js";
export { CustomersResource } from "./resources/customers.js";
export { DiscoveriesResource } from "./resources/discoveries.js";
export { EventsResource } from "./resources/events.js";
export { type ExchangeRateListOptions, ExchangeRatesResource } from "./resources/exchange-rates.js";
export {
  type CustomerExternalAccountsResource,
  ExternalAccountsResource,
  type PlatformExternalAccountsResource,
} from "./resources/external-accounts.js";
export { InternalAccountsResource } from "./resources/internal-accounts.js";
export { InvitationsResource } from "./resources/invitations.js";
export { BeneficialOwnersResource, VerificationsResource } from "./resources/kyc.js";
export type {
  MessageSigner,
  VerifyOwnershipOptions,
  WaitForLivenessOutcomeOptions,
} from "./resources/ownership-flows.js";
export { QuotesResource } from "./resources/quotes.js";
export { SandboxResource } from "./resources/sandbox.js";
export { type ScaAnswerSource, type ScaLoginOptions, ScaResource } from "./resources/sca.js";
export { StablecoinsResource } from "./resources/stablecoins.js";
export { StatementsResource } from "./resources/statements.js";
export { TokensResource } from "./resources/tokens.js";
export { TransactionsResource } from "./resources/transactions.js";
export { ReceiverResource, UmaProvidersResource, VaspsResource } from "./resources/uma.js";
export { type BuildStatementOptions, DEFAULT_MAX_WAIT_MS } from "./statements/build.js";
export { formatMoney } from "./statements/money.js";
export { type StatementPeriod, statementPeriod, toChicagoDateTime } from "./statements/period.js";
export {
  escapeHtml,
  type RenderOptions,
  renderStatement,
  type StatementFormat,
} from "./statements/render.js";
export {
  DEFAULT_QUESTIONS_CONTACT,
  type Statement,
  type StatementLine,
  type StatementLineType,
} from "./statements/statement.js";
export type * from "./types/index.js";
export {
  type DecryptExportBundleInput,
  decryptExportBundle,
  decryptSessionSigningKey,
  type EncryptOtpBundleInput,
  encryptOtpBundle,
  generateKeyPair,
  keyPairFromPrivateKey,
  oidcNonce,
  type SigningKey,
  stamp,
  type WalletKeyPair,
} from "./wallet/crypto.js";
export { DelegatedKeysResource } from "./wallet/delegated-keys.js";
export { type WalletCryptoCheck, WalletCryptoError } from "./wallet/errors.js";
export {
  type ExportedMnemonic,
  type NewCredential,
  type OAuthLoginInput,
  type OtpLoginInput,
  type PasskeyLoginInput,
  type WalletLogin,
  WalletResource,
} from "./wallet/resource.js";
export {
  isExpiredChallenge,
  type SignedRequest,
  type SignedRetryOptions,
} from "./wallet/signed-retry.js";
export type * from "./wallet/types.js";
export {
  type ConsumeResult,
  type ConsumerStore,
  isNewer,
  MemoryConsumerStore,
  type Snapshot,
  WebhookConsumer,
} from "./webhooks/consumer.js";
export {
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookJwk,
  type WebhookJwks,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from "./webhooks/envelope.js";
export { type HeaderBag, signatureFrom, WebhooksResource } from "./webhooks/resource.js";
export type {
  ListDeliveriesQuery,
  WebhookAttempt,
  WebhookDelivery,
  WebhookTestResult,
} from "./webhooks/types.js";
