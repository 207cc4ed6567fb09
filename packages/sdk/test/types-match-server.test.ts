import type { Static } from "typebox";
import { expectTypeOf, test } from "vitest";
import type * as auth from "../../server/src/auth/schemas.js";
import type * as management from "../../server/src/cards/management-schemas.js";
import type * as cards from "../../server/src/cards/schemas.js";
import type * as bulk from "../../server/src/customers/bulk/schemas.js";
import type * as customers from "../../server/src/customers/schemas.js";
import type * as liveness from "../../server/src/external-accounts/ownership/liveness-schemas.js";
import type * as ownership from "../../server/src/external-accounts/ownership/schemas.js";
import type * as externalAccounts from "../../server/src/external-accounts/schemas.js";
import type * as owners from "../../server/src/kyc/beneficial-owner-schemas.js";
import type * as kycLink from "../../server/src/kyc/kyc-link-schemas.js";
import type * as kyc from "../../server/src/kyc/schemas.js";
import type * as payments from "../../server/src/payments/schemas.js";
import type * as transfers from "../../server/src/payments/transfer-schemas.js";
import type * as platform from "../../server/src/platform/schemas.js";
import type * as sandboxCards from "../../server/src/sandbox/card-routes.js";
import type * as statements from "../../server/src/statements/schemas.js";
import type * as webhooks from "../../server/src/webhooks/schemas.js";
import type * as sdk from "../src/index.js";

// The SDK writes its wire types out so the published package does not depend on the server or TypeBox;
// these assertions are checked by `tsc -p packages/sdk` and fail the build when a server schema drifts.
test("SDK wire types equal the server's TypeBox schemas", () => {
  expectTypeOf<sdk.CreateTokenBody>().toEqualTypeOf<Static<typeof auth.CreateTokenBody>>();
  expectTypeOf<sdk.ApiToken>().toEqualTypeOf<Static<typeof auth.ApiToken>>();
  expectTypeOf<sdk.CreatedApiToken>().toEqualTypeOf<Static<typeof auth.CreatedApiToken>>();
  expectTypeOf<sdk.CreateCustomerBody>().toEqualTypeOf<Static<typeof customers.CreateCustomerBody>>();
  expectTypeOf<sdk.UpdateCustomerBody>().toEqualTypeOf<Static<typeof customers.UpdateCustomerBody>>();
  expectTypeOf<sdk.Customer>().toEqualTypeOf<Static<typeof customers.Customer>>();
  expectTypeOf<sdk.BulkCustomerImportJob>().toEqualTypeOf<Static<typeof bulk.BulkCustomerImportJob>>();
  expectTypeOf<sdk.BulkCustomerImportJobAccepted>().toEqualTypeOf<
    Static<typeof bulk.BulkCustomerImportJobAccepted>
  >();
  expectTypeOf<sdk.CreateBeneficialOwnerBody>().toEqualTypeOf<
    Static<typeof owners.CreateBeneficialOwnerBody>
  >();
  expectTypeOf<sdk.UpdateBeneficialOwnerBody>().toEqualTypeOf<
    Static<typeof owners.UpdateBeneficialOwnerBody>
  >();
  expectTypeOf<sdk.BeneficialOwner>().toEqualTypeOf<Static<typeof owners.BeneficialOwner>>();
  expectTypeOf<sdk.BeneficialOwnerListParams>().toEqualTypeOf<
    Static<typeof owners.ListBeneficialOwnersQuery>
  >();
  expectTypeOf<sdk.Verification>().toEqualTypeOf<Static<typeof kyc.Verification>>();
  expectTypeOf<sdk.CreateVerificationBody>().toEqualTypeOf<Static<typeof kyc.CreateVerificationBody>>();
  expectTypeOf<sdk.CreateKycLinkBody>().toEqualTypeOf<Static<typeof kycLink.CreateKycLinkBody>>();
  expectTypeOf<sdk.KycLink>().toEqualTypeOf<Static<typeof kycLink.KycLink>>();
  expectTypeOf<sdk.Agreement>().toEqualTypeOf<Static<typeof customers.Agreement>>();
  expectTypeOf<sdk.InternalAccount>().toEqualTypeOf<Static<typeof customers.InternalAccount>>();
  expectTypeOf<sdk.PlatformConfig>().toEqualTypeOf<Static<typeof platform.PlatformConfig>>();
  expectTypeOf<sdk.UpdateConfigBody>().toEqualTypeOf<Static<typeof platform.UpdateConfigBody>>();
  expectTypeOf<sdk.Transaction>().toEqualTypeOf<Static<typeof payments.Transaction>>();
  expectTypeOf<sdk.BalanceChangeParams>().toEqualTypeOf<Static<typeof statements.BalanceChangesQuery>>();
  expectTypeOf<sdk.BalanceChange>().toEqualTypeOf<Static<typeof statements.BalanceChange>>();
  expectTypeOf<sdk.BalanceChangeWindow>().toEqualTypeOf<Static<typeof statements.BalanceChangeWindow>>();
  expectTypeOf<sdk.StatementConfirmationBody>().toEqualTypeOf<
    Static<typeof statements.StatementConfirmationBody>
  >();
  expectTypeOf<sdk.DeliveryRecord>().toEqualTypeOf<Static<typeof statements.DeliveryRecord>>();
  expectTypeOf<sdk.ConfirmedDeliveryRecord>().toEqualTypeOf<
    Static<typeof statements.ConfirmedDeliveryRecord>
  >();
  expectTypeOf<sdk.Card>().toEqualTypeOf<Static<typeof cards.Card>>();
  expectTypeOf<sdk.CreateCardBody>().toEqualTypeOf<Static<typeof cards.CreateCardBody>>();
  expectTypeOf<sdk.UpdateCardBody>().toEqualTypeOf<Static<typeof cards.UpdateCardBody>>();
  expectTypeOf<sdk.CardListParams>().toEqualTypeOf<Static<typeof cards.ListCardsQuery>>();
  expectTypeOf<sdk.CardMerchant>().toEqualTypeOf<Static<typeof cards.Merchant>>();
  expectTypeOf<sdk.CardTransaction>().toEqualTypeOf<Static<typeof cards.CardTransaction>>();
  expectTypeOf<{ pin: string }>().toEqualTypeOf<Static<typeof management.SetPinBody>>();
  expectTypeOf<sdk.RevealLink>().toEqualTypeOf<Static<typeof management.RevealLink>>();
  expectTypeOf<sdk.TokenizeCardBody>().toEqualTypeOf<Static<typeof management.TokenizeCardBody>>();
  expectTypeOf<sdk.TokenizeCardResult>().toEqualTypeOf<Static<typeof management.TokenizeCardResult>>();
  expectTypeOf<{ pin: string }>().toEqualTypeOf<Static<typeof management.PinAttemptBody>>();
  expectTypeOf<sdk.PinAttemptResult>().toEqualTypeOf<Static<typeof management.PinAttemptResult>>();
  expectTypeOf<sdk.CardSimulationResult>().toEqualTypeOf<Static<typeof sandboxCards.SimulationResult>>();
  expectTypeOf<sdk.Beneficiary>().toEqualTypeOf<Static<typeof externalAccounts.Beneficiary>>();
  expectTypeOf<sdk.UsdAccountInfo>().toEqualTypeOf<Static<typeof externalAccounts.UsdAccountInfo>>();
  expectTypeOf<sdk.WalletAccountInfo>().toEqualTypeOf<Static<typeof externalAccounts.WalletAccountInfo>>();
  expectTypeOf<sdk.LightningAccountInfo>().toEqualTypeOf<
    Static<typeof externalAccounts.LightningAccountInfo>
  >();
  expectTypeOf<sdk.AccountInfo>().toEqualTypeOf<Static<typeof externalAccounts.AccountInfo>>();
  expectTypeOf<sdk.WalletAccountType>().toEqualTypeOf<externalAccounts.WalletAccountType>();
  expectTypeOf<sdk.CreateCustomerExternalAccountBody>().toEqualTypeOf<
    Static<typeof externalAccounts.CreateCustomerExternalAccountBody>
  >();
  expectTypeOf<sdk.CreatePlatformExternalAccountBody>().toEqualTypeOf<
    Static<typeof externalAccounts.CreatePlatformExternalAccountBody>
  >();
  expectTypeOf<sdk.ExternalAccount>().toEqualTypeOf<Static<typeof externalAccounts.ExternalAccount>>();
  expectTypeOf<sdk.OwnershipChallengeRequest>().toEqualTypeOf<
    Static<typeof ownership.OwnershipChallengeRequest>
  >();
  expectTypeOf<sdk.WalletSignatureChallenge>().toEqualTypeOf<
    Static<typeof ownership.WalletSignatureChallenge>
  >();
  expectTypeOf<sdk.LivenessChallenge>().toEqualTypeOf<Static<typeof ownership.LivenessChallenge>>();
  expectTypeOf<sdk.OwnershipChallenge>().toEqualTypeOf<Static<typeof ownership.OwnershipChallenge>>();
  expectTypeOf<sdk.VerifyOwnershipBody>().toEqualTypeOf<Static<typeof ownership.VerifyOwnershipBody>>();
  expectTypeOf<sdk.LivenessCaptureBody>().toEqualTypeOf<Static<typeof liveness.LivenessSessionBody>>();
  expectTypeOf<sdk.LivenessCaptureResult>().toEqualTypeOf<Static<typeof liveness.LivenessSession>>();
});

// Embedded wallet authentication (conventions §5.1, §5.2). Inline `import()` types keep this block append-only.
type WalletSchemas = typeof import("../../server/src/wallet-auth/schemas.js");
type CredentialSchemas = typeof import("../../server/src/wallet-auth/credential-schemas.js");
type ExportSchemas = typeof import("../../server/src/wallet-auth/export-routes.js");
type AccountRoutes = typeof import("../../server/src/customers/account-routes.js");

test("SDK wallet wire types equal the server's TypeBox schemas", () => {
  expectTypeOf<sdk.AuthMethod>().toEqualTypeOf<Static<WalletSchemas["AuthMethod"]>>();
  expectTypeOf<sdk.AuthSession>().toEqualTypeOf<Static<WalletSchemas["AuthSession"]>>();
  expectTypeOf<sdk.SignedRetryChallenge>().toEqualTypeOf<Static<WalletSchemas["SignedRetryChallenge"]>>();
  expectTypeOf<sdk.WalletOperationProcessing>().toEqualTypeOf<
    Static<WalletSchemas["WalletOperationProcessing"]>
  >();
  expectTypeOf<sdk.CredentialType>().toEqualTypeOf<WalletSchemas["credentialTypes"][number]>();
  expectTypeOf<sdk.CreateCredentialBody>().toEqualTypeOf<Static<CredentialSchemas["CreateCredentialBody"]>>();
  expectTypeOf<sdk.ChallengeCredentialBody>().toEqualTypeOf<Static<CredentialSchemas["ChallengeBody"]>>();
  expectTypeOf<sdk.VerifyCredentialBody>().toEqualTypeOf<Static<CredentialSchemas["VerifyCredentialBody"]>>();
  expectTypeOf<sdk.PasskeyAuthChallenge>().toEqualTypeOf<Static<CredentialSchemas["PasskeyAuthChallenge"]>>();
  expectTypeOf<sdk.RefreshSessionBody>().toEqualTypeOf<Static<CredentialSchemas["RefreshSessionBody"]>>();
  expectTypeOf<sdk.ExportWalletBody>().toEqualTypeOf<Static<ExportSchemas["ExportWalletBody"]>>();
  expectTypeOf<sdk.ExportedWallet>().toEqualTypeOf<Static<ExportSchemas["ExportedWallet"]>>();
  expectTypeOf<sdk.UpdateInternalAccountBody>().toEqualTypeOf<
    Static<AccountRoutes["UpdateInternalAccountBody"]>
  >();
});

// Stablecoins, agents, strong customer authentication, invitations and exchange rates (issue 8).
type StablecoinSchemas = typeof import("../../server/src/stablecoins/schemas.js");
type AgentSchemas = typeof import("../../server/src/agents/schemas.js");
type ScaSchemas = typeof import("../../server/src/sca/schemas.js");
type QuoteSchemas = typeof import("../../server/src/quotes/schemas.js");
type InvitationSchemas = typeof import("../../server/src/invitations/schemas.js");
type RateSchemas = typeof import("../../server/src/exchange-rates/schemas.js");

test("SDK stablecoin, agent, SCA, invitation and exchange-rate wire types equal the server's TypeBox schemas", () => {
  expectTypeOf<sdk.RegisterStablecoinBody>().toEqualTypeOf<
    Static<StablecoinSchemas["RegisterStablecoinBody"]>
  >();
  expectTypeOf<sdk.Stablecoin>().toEqualTypeOf<Static<StablecoinSchemas["Stablecoin"]>>();
  expectTypeOf<sdk.StablecoinEnablementStatus>().toEqualTypeOf<
    StablecoinSchemas["enablementStatuses"][number]
  >();
  expectTypeOf<sdk.CreateStablecoinProviderAccountBody>().toEqualTypeOf<
    Static<StablecoinSchemas["CreateProviderAccountBody"]>
  >();
  expectTypeOf<sdk.StablecoinProviderAccount>().toEqualTypeOf<
    Static<StablecoinSchemas["StablecoinProviderAccount"]>
  >();
  expectTypeOf<sdk.MintBody>().toEqualTypeOf<Static<StablecoinSchemas["MintBody"]>>();
  expectTypeOf<sdk.BurnBody>().toEqualTypeOf<Static<StablecoinSchemas["BurnBody"]>>();
  expectTypeOf<sdk.StablecoinOperation>().toEqualTypeOf<Static<StablecoinSchemas["StablecoinOperation"]>>();
  expectTypeOf<sdk.StablecoinOperationSource>().toEqualTypeOf<
    Static<StablecoinSchemas["StablecoinOperationSource"]>
  >();
  expectTypeOf<sdk.StablecoinProviderEnvironment>().toEqualTypeOf<
    StablecoinSchemas["providerEnvironments"][number]
  >();
  expectTypeOf<{ status: sdk.StablecoinEnablementStatus }>().toEqualTypeOf<
    Static<StablecoinSchemas["OperatorEnablementBody"]>
  >();

  // The hosted AgentPolicy is both the create body's policy and the answered one.
  expectTypeOf<sdk.AgentPolicy>().toEqualTypeOf<Static<AgentSchemas["AgentPolicyInput"]>>();
  expectTypeOf<sdk.AgentUsage>().toEqualTypeOf<Static<AgentSchemas["AgentUsage"]>>();
  expectTypeOf<sdk.AgentAction>().toEqualTypeOf<Static<AgentSchemas["AgentAction"]>>();
  expectTypeOf<sdk.AgentTransactionListParams>().toEqualTypeOf<
    Static<AgentSchemas["AgentTransactionsQuery"]>
  >();
  expectTypeOf<sdk.AgentTransferInBody>().toEqualTypeOf<Static<typeof transfers.TransferInBody>>();
  expectTypeOf<sdk.AgentPolicy>().toEqualTypeOf<Static<AgentSchemas["AgentPolicy"]>>();
  expectTypeOf<sdk.CreateAgentBody>().toEqualTypeOf<Static<AgentSchemas["CreateAgentBody"]>>();
  expectTypeOf<sdk.UpdateAgentBody>().toEqualTypeOf<Static<AgentSchemas["UpdateAgentBody"]>>();
  expectTypeOf<sdk.Agent>().toEqualTypeOf<Static<AgentSchemas["Agent"]>>();
  expectTypeOf<sdk.DeviceCode>().toEqualTypeOf<Static<AgentSchemas["DeviceCode"]>>();
  expectTypeOf<sdk.CreatedAgent>().toEqualTypeOf<Static<AgentSchemas["CreatedAgent"]>>();
  expectTypeOf<sdk.RedeemedDeviceCode>().toEqualTypeOf<Static<AgentSchemas["RedeemedDeviceCode"]>>();
  expectTypeOf<sdk.UpdateAgentPolicyBody>().toEqualTypeOf<Static<AgentSchemas["UpdatePolicyBody"]>>();
  expectTypeOf<sdk.DeviceCodeStatus>().toEqualTypeOf<Static<AgentSchemas["DeviceCodeStatus"]>>();
  expectTypeOf<sdk.RejectAgentActionBody>().toEqualTypeOf<Static<AgentSchemas["RejectActionBody"]>>();

  expectTypeOf<sdk.ScaPasskeyAssertion>().toEqualTypeOf<Static<ScaSchemas["PasskeyAssertion"]>>();
  expectTypeOf<sdk.ScaChallenge>().toEqualTypeOf<Static<ScaSchemas["ScaChallenge"]>>();
  expectTypeOf<sdk.ScaFactorView>().toEqualTypeOf<Static<ScaSchemas["ScaFactorView"]>>();
  expectTypeOf<sdk.ScaFactorList>().toEqualTypeOf<Static<ScaSchemas["ScaFactorList"]>>();
  expectTypeOf<sdk.ScaFactorEnrollRequest>().toEqualTypeOf<Static<ScaSchemas["ScaFactorEnrollRequest"]>>();
  expectTypeOf<sdk.PasskeyEnrollmentStart>().toEqualTypeOf<Static<ScaSchemas["PasskeyEnrollmentStart"]>>();
  expectTypeOf<sdk.PasskeyEnrollmentConfirmResponse>().toEqualTypeOf<
    Static<ScaSchemas["PasskeyEnrollmentConfirmResponse"]>
  >();
  expectTypeOf<sdk.TotpEnrollmentStart>().toEqualTypeOf<Static<ScaSchemas["TotpEnrollmentStart"]>>();
  expectTypeOf<sdk.TotpEnrollmentConfirmResponse>().toEqualTypeOf<
    Static<ScaSchemas["TotpEnrollmentConfirmResponse"]>
  >();
  expectTypeOf<sdk.TwoFactorResetStart>().toEqualTypeOf<Static<ScaSchemas["TwoFactorResetStart"]>>();
  expectTypeOf<sdk.TwoFactorResetStatus>().toEqualTypeOf<Static<ScaSchemas["TwoFactorResetStatus"]>>();
  expectTypeOf<sdk.TwoFactorResetCompleteRequest>().toEqualTypeOf<
    Static<ScaSchemas["TwoFactorResetCompleteRequest"]>
  >();
  expectTypeOf<sdk.ScaLoginStartRequest>().toEqualTypeOf<Static<ScaSchemas["ScaLoginStartRequest"]>>();
  expectTypeOf<sdk.ScaLoginStart>().toEqualTypeOf<Static<ScaSchemas["ScaLoginStart"]>>();
  expectTypeOf<sdk.ScaLoginCompleteRequest>().toEqualTypeOf<Static<ScaSchemas["ScaLoginCompleteRequest"]>>();
  expectTypeOf<sdk.ScaLoginComplete>().toEqualTypeOf<Static<ScaSchemas["ScaLoginComplete"]>>();
  expectTypeOf<sdk.RecordSecurityEventRequest>().toEqualTypeOf<
    Static<ScaSchemas["RecordSecurityEventRequest"]>
  >();
  expectTypeOf<sdk.RecordSecurityEventResponse>().toEqualTypeOf<
    Static<ScaSchemas["RecordSecurityEventResponse"]>
  >();
  expectTypeOf<sdk.ScaAuthorization>().toEqualTypeOf<Static<ScaSchemas["ScaAuthorization"]>>();
  expectTypeOf<sdk.ContactVerificationConfirmBody>().toEqualTypeOf<
    Static<ScaSchemas["ContactVerificationConfirmBody"]>
  >();
  expectTypeOf<sdk.ContactVerification>().toEqualTypeOf<Static<typeof customers.ContactVerification>>();
  expectTypeOf<sdk.BeneficiaryTrustStart>().toEqualTypeOf<Static<ScaSchemas["BeneficiaryTrustStart"]>>();
  expectTypeOf<sdk.BeneficiaryTrustConfirmRequest>().toEqualTypeOf<
    Static<ScaSchemas["BeneficiaryTrustConfirmRequest"]>
  >();
  expectTypeOf<sdk.BeneficiaryTrustConfirm>().toEqualTypeOf<Static<ScaSchemas["BeneficiaryTrustConfirm"]>>();
  expectTypeOf<sdk.Quote>().toEqualTypeOf<Static<QuoteSchemas["Quote"]>>();
  expectTypeOf<sdk.QuoteSource>().toEqualTypeOf<Static<QuoteSchemas["QuoteSource"]>>();
  expectTypeOf<sdk.QuoteDestination>().toEqualTypeOf<Static<QuoteSchemas["QuoteDestination"]>>();
  expectTypeOf<sdk.CreateQuoteBody>().toEqualTypeOf<Static<QuoteSchemas["CreateQuoteBody"]>>();
  expectTypeOf<sdk.ExecuteQuoteBody>().toEqualTypeOf<Static<QuoteSchemas["ExecuteQuoteBody"]>>();

  expectTypeOf<sdk.Invitation>().toEqualTypeOf<Static<InvitationSchemas["Invitation"]>>();
  expectTypeOf<sdk.CreateInvitationBody>().toEqualTypeOf<Static<InvitationSchemas["CreateInvitationBody"]>>();
  expectTypeOf<sdk.ClaimInvitationBody>().toEqualTypeOf<Static<InvitationSchemas["ClaimInvitationBody"]>>();

  expectTypeOf<sdk.ExchangeRateParams>().toEqualTypeOf<Static<RateSchemas["ExchangeRatesQuery"]>>();
  expectTypeOf<sdk.ExchangeRate>().toEqualTypeOf<Static<RateSchemas["ExchangeRate"]>>();
  expectTypeOf<sdk.ExchangeRateFees>().toEqualTypeOf<Static<RateSchemas["ExchangeRateFees"]>>();
  expectTypeOf<sdk.ExchangeRateListResponse>().toEqualTypeOf<
    Static<RateSchemas["ExchangeRateListResponse"]>
  >();
});

// Embedded wallet delegated keys (issue 21 §6).
type DelegatedKeySchemas = typeof import("../../server/src/wallet-auth/delegated-keys-schemas.js");

test("SDK delegated-key wire types equal the server's TypeBox schemas", () => {
  expectTypeOf<sdk.DelegatedKey>().toEqualTypeOf<Static<DelegatedKeySchemas["DelegatedKey"]>>();
  expectTypeOf<sdk.DelegatedKeyStatus>().toEqualTypeOf<DelegatedKeySchemas["delegatedKeyStatuses"][number]>();
  expectTypeOf<sdk.CreateDelegatedKeyBody>().toEqualTypeOf<
    Static<DelegatedKeySchemas["CreateDelegatedKeyBody"]>
  >();
  expectTypeOf<sdk.DelegatedKeyListParams>().toEqualTypeOf<
    Static<DelegatedKeySchemas["ListDelegatedKeysQuery"]>
  >();
  expectTypeOf<sdk.SignedRetryChallenge>().toMatchTypeOf<
    Static<DelegatedKeySchemas["DelegatedKeySignedRequestChallenge"]>
  >();
  expectTypeOf<sdk.WebhookJwk>().toEqualTypeOf<Static<typeof webhooks.SigningKey>>();
  expectTypeOf<sdk.WebhookJwks>().toEqualTypeOf<Static<typeof webhooks.SigningKeys>>();
});
