import { type Static, Type } from "typebox";
import { DateTime, DiscriminatedUnion, StringEnum } from "../core/http/schemas.js";
import { currencyCodes, isFiat } from "../core/money.js";

const object = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

/** Networks a stablecoin can live on; the token identifier is checked as that network's address. */
export const stablecoinNetworks = ["ETHEREUM", "BASE", "POLYGON", "PLASMA", "SOLANA", "TRON"] as const;
export type StablecoinNetwork = (typeof stablecoinNetworks)[number];

export const stablecoinOperationTypes = ["MINT", "BURN"] as const;
export type StablecoinOperationType = (typeof stablecoinOperationTypes)[number];

/** Interface "Stablecoin enablement". */
export const enablementStatuses = [
  "NOT_ENABLED",
  "PENDING_APPROVAL",
  "ENABLING",
  "ENABLED",
  "DISABLED",
] as const;
export type EnablementStatus = (typeof enablementStatuses)[number];

export const fiatCurrencyCodes = currencyCodes.filter(isFiat);

export const RegisterStablecoinBody = object({
  symbol: Type.String({ pattern: "^[A-Z0-9]{2,12}$", description: "2 to 12 uppercase letters or digits." }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  network: StringEnum(stablecoinNetworks),
  tokenIdentifier: Type.String({
    minLength: 1,
    maxLength: 100,
    description: "The token's contract address (EVM, TRON) or mint address (SOLANA) on `network`.",
  }),
  decimals: Type.Integer({ minimum: 0, maximum: 18, description: "The token's on-chain precision." }),
  backingCurrency: Type.Optional(
    StringEnum(fiatCurrencyCodes, {
      description: "The fiat currency the token is redeemable for one to one; default USD.",
    }),
  ),
  supportedOperations: Type.Optional(
    Type.Array(StringEnum(stablecoinOperationTypes), {
      minItems: 1,
      uniqueItems: true,
      description: "Issuer operations the token allows; default both.",
    }),
  ),
});
export type RegisterStablecoinBody = Static<typeof RegisterStablecoinBody>;

export const Stablecoin = Type.Object({
  id: Type.String(),
  symbol: Type.String(),
  name: Type.String(),
  network: StringEnum(stablecoinNetworks),
  tokenIdentifier: Type.String(),
  decimals: Type.Integer(),
  backingCurrency: Type.String(),
  supportedOperations: Type.Array(StringEnum(stablecoinOperationTypes)),
  enablementStatus: StringEnum(enablementStatuses),
  provisioned: Type.Boolean({
    description: "Whether the service operator provisioned the token for issuer operations (mint, burn).",
  }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type Stablecoin = Static<typeof Stablecoin>;

export const StablecoinParams = Type.Object({ stablecoinId: Type.String() });
export const OperationParams = Type.Object({ stablecoinOperationId: Type.String() });
export const ProviderAccountParams = Type.Object({ providerAccountId: Type.String() });

export const stablecoinProviders = ["BRALE", "PAXOS", "BRIDGE", "AGORA"] as const;
export const providerAccountStatuses = ["ACTIVE", "REVOKED"] as const;

export const CreateProviderAccountBody = object({
  provider: StringEnum(stablecoinProviders),
  accountReference: Type.String({
    minLength: 1,
    maxLength: 200,
    description: "The platform's account id at the provider.",
  }),
  networks: Type.Array(StringEnum(stablecoinNetworks), {
    minItems: 1,
    uniqueItems: true,
    description: "Networks the provider account can issue on.",
  }),
});
export type CreateProviderAccountBody = Static<typeof CreateProviderAccountBody>;

export const StablecoinProviderAccount = Type.Object({
  id: Type.String(),
  provider: StringEnum(stablecoinProviders),
  accountReference: Type.String(),
  networks: Type.Array(StringEnum(stablecoinNetworks)),
  status: StringEnum(providerAccountStatuses),
  revokedAt: Type.Optional(DateTime()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type StablecoinProviderAccount = Static<typeof StablecoinProviderAccount>;

/** Request amounts, as the hosted `StablecoinMintRequest.amount`: the token's smallest on-chain units. */
const Amount = Type.String({
  pattern: "^[0-9]+$",
  maxLength: 40,
  description:
    "Decimal string of the token's smallest on-chain units (10^-decimals of one token), greater than zero; " +
    "it must be a whole number of the backing currency's minor units.",
});
const Description = Type.Optional(Type.String({ maxLength: 1024 }));
const InternalAccountId = Type.String({
  description: "Internal account in the stablecoin's backing currency (`InternalAccount:` id).",
});
const ExternalAccountId = Type.String({ description: "`ExternalAccount:` id." });

/** The hosted `StablecoinMintFundingSource`; the sandbox provider is paid only from an internal account. */
export const mintFundingTypes = [
  "WIRE",
  "ACH_DEBIT",
  "SAME_DAY_ACH_DEBIT",
  "GRID_INTERNAL_ACCOUNT",
  "PROVIDER_INTERNAL_BALANCE",
] as const;
export const MintFundingSource = DiscriminatedUnion("type", [
  object({ type: Type.Literal("WIRE") }),
  object({ type: Type.Literal("ACH_DEBIT"), externalAccountId: ExternalAccountId }),
  object({ type: Type.Literal("SAME_DAY_ACH_DEBIT"), externalAccountId: ExternalAccountId }),
  object({ type: Type.Literal("GRID_INTERNAL_ACCOUNT"), accountId: InternalAccountId }),
  object({
    type: Type.Literal("PROVIDER_INTERNAL_BALANCE"),
    sourceTokenIdentifier: Type.String(),
    cryptoNetwork: Type.String(),
  }),
]);
export type MintFundingSource = Static<typeof MintFundingSource>;

/** The hosted `StablecoinMintRequest`, plus the spec's `stablecoinProviderAccountId` (whose provider mints). */
export const MintBody = object({
  amount: Amount,
  fundingSource: MintFundingSource,
  destination: object({
    accountId: Type.String({
      description:
        "Where the minted tokens go: an `ExternalAccount:` wallet on the stablecoin's network (the platform's or a " +
        "customer's), or a `StablecoinProviderAccount:` link whose treasury holds them (burns draw from it).",
    }),
  }),
  description: Description,
  stablecoinProviderAccountId: Type.Optional(
    Type.String({
      description:
        "The provider account that mints; required when the platform has several ACTIVE ones and the destination is a wallet.",
    }),
  ),
});
export type MintBody = Static<typeof MintBody>;

/** The hosted `StablecoinBurnSource`; the tokens come from the provider account's treasury. */
export const BurnSource = DiscriminatedUnion("type", [
  object({ type: Type.Literal("EXTERNAL_ACCOUNT") }),
  object({ type: Type.Literal("GRID_INTERNAL_ACCOUNT"), accountId: Type.String() }),
  object({ type: Type.Literal("PROVIDER_INTERNAL_BALANCE") }),
]);
export type BurnSource = Static<typeof BurnSource>;

export const burnRails = ["WIRE", "ACH_CREDIT", "SAME_DAY_ACH_CREDIT", "RTP_CREDIT"] as const;

/**
 * The hosted `StablecoinBurnDestination` (`EXTERNAL_ACCOUNT`: the redeemed money is paid out to the bank
 * account over `rail`), plus `GRID_INTERNAL_ACCOUNT`: the redeemed money is credited to an internal account.
 */
export const BurnDestination = DiscriminatedUnion("type", [
  object({
    type: Type.Literal("EXTERNAL_ACCOUNT"),
    externalAccountId: ExternalAccountId,
    rail: StringEnum(burnRails),
  }),
  object({ type: Type.Literal("GRID_INTERNAL_ACCOUNT"), accountId: InternalAccountId }),
]);
export type BurnDestination = Static<typeof BurnDestination>;

/** The hosted `StablecoinBurnRequest`, plus the spec's `stablecoinProviderAccountId` (whose treasury burns). */
export const BurnBody = object({
  amount: Amount,
  source: BurnSource,
  destination: BurnDestination,
  description: Description,
  stablecoinProviderAccountId: Type.Optional(
    Type.String({ description: "Required when the platform has several ACTIVE provider accounts." }),
  ),
});
export type BurnBody = Static<typeof BurnBody>;

export const operationStatuses = ["PROCESSING", "COMPLETED", "FAILED"] as const;
export type OperationStatus = (typeof operationStatuses)[number];

/** The hosted `StablecoinProviderEnvironment`: the platform's environment (a sandbox platform's provider is the sandbox one). */
export const providerEnvironments = ["SANDBOX", "PRODUCTION"] as const;

/** Where an operation takes from: the paying internal account (MINT) or the provider account's treasury (BURN). */
export const operationSourceTypes = ["GRID_INTERNAL_ACCOUNT", "PROVIDER_INTERNAL_BALANCE"] as const;

export const StablecoinOperationSource = Type.Object({
  type: StringEnum(operationSourceTypes),
  accountId: Type.Optional(
    Type.String({
      description: "The internal account debited in the backing currency (GRID_INTERNAL_ACCOUNT).",
    }),
  ),
});
export type StablecoinOperationSource = Static<typeof StablecoinOperationSource>;

export const StablecoinOperationDestination = Type.Object({
  accountId: Type.String({
    description:
      "MINT: the external wallet, or the provider account link whose treasury, received the tokens; BURN: the internal account credited, or the external account paid out to.",
  }),
  rail: Type.Optional(
    StringEnum(burnRails, { description: "BURN to an external account: the rail the payout takes." }),
  ),
});
export type StablecoinOperationDestination = Static<typeof StablecoinOperationDestination>;

/** The hosted `StablecoinOperation` shape (docs/guides/stablecoins.md). */
export const StablecoinOperation = Type.Object({
  id: Type.String(),
  stablecoinId: Type.String(),
  operationType: StringEnum(stablecoinOperationTypes),
  status: StringEnum(operationStatuses),
  amount: Type.String({
    pattern: "^[0-9]+$",
    description:
      "Decimal string of the token's smallest on-chain units (10^-decimals of one token), exact at any precision.",
  }),
  provider: StringEnum(stablecoinProviders),
  providerEnvironment: StringEnum(providerEnvironments),
  stablecoinProviderAccountId: Type.String(),
  source: StablecoinOperationSource,
  destination: Type.Optional(StablecoinOperationDestination),
  failureReason: Type.Optional(StringEnum(["PROVIDER_REJECTED"])),
  description: Type.Optional(Type.String()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type StablecoinOperation = Static<typeof StablecoinOperation>;

export const OperatorEnablementBody = object({
  status: StringEnum(enablementStatuses, { description: "The state the operator moves the stablecoin to." }),
});
export type OperatorEnablementBody = Static<typeof OperatorEnablementBody>;
