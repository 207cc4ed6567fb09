import { type Static, Type } from "typebox";
import { Currency, DateTime, DiscriminatedUnion, StringEnum } from "../core/http/schemas.js";

import { bankAccountInfos } from "./bank-accounts/table.js";
import { Beneficiary } from "./bank-accounts/usd.js";

export { Beneficiary, UsdAccountInfo } from "./bank-accounts/usd.js";

const object = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

/** Wallet account types whose `address` identifies a self-custody or custodied wallet (conventions §4.1). */
export const walletAccountTypes = [
  "ETHEREUM_WALLET",
  "BASE_WALLET",
  "POLYGON_WALLET",
  "PLASMA_WALLET",
  "SOLANA_WALLET",
  "BITCOIN_WALLET",
  "TRON_WALLET",
  "SPARK_WALLET",
] as const;
export type WalletAccountType = (typeof walletAccountTypes)[number];

/** A crypto wallet; without `vaspName` it is self-custody. The address is checked per network in the domain. */
export const WalletAccountInfo = object({
  accountType: StringEnum(walletAccountTypes),
  address: Type.String({ minLength: 1, maxLength: 200 }),
  beneficiary: Type.Optional(Beneficiary),
  vaspName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

/** A Lightning destination: exactly one of `invoice`, `bolt12`, `lightningAddress`. */
export const LightningAccountInfo = object({
  accountType: StringEnum(["LIGHTNING"]),
  invoice: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  bolt12: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  lightningAddress: Type.Optional(Type.String({ minLength: 3, maxLength: 320 })),
  beneficiary: Type.Optional(Beneficiary),
  vaspName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

/** Told apart by `accountType`: a bank account of any corridor (bank-accounts/table.ts), a wallet, Lightning. */
export const AccountInfo = DiscriminatedUnion("accountType", [
  ...bankAccountInfos,
  WalletAccountInfo,
  LightningAccountInfo,
]);
export type AccountInfo = Static<typeof AccountInfo>;

const accountFields = {
  currency: Type.String({ pattern: "^[A-Z]{3,5}$" }),
  accountInfo: AccountInfo,
  ownershipType: Type.Optional(StringEnum(["FIRST_PARTY", "THIRD_PARTY"])),
  platformAccountId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  defaultUmaDepositAccount: Type.Optional(Type.Boolean()),
};

export const CreateCustomerExternalAccountBody = object({
  customerId: Type.String({ maxLength: 100 }),
  ...accountFields,
});
export type CreateCustomerExternalAccountBody = Static<typeof CreateCustomerExternalAccountBody>;
export const CreatePlatformExternalAccountBody = object(accountFields);
export type CreatePlatformExternalAccountBody = Static<typeof CreatePlatformExternalAccountBody>;

export const externalAccountStatuses = [
  "PENDING",
  "ACTIVE",
  "PENDING_OWNERSHIP_VERIFICATION",
  "UNVERIFIED",
  "UNDER_REVIEW",
  "INACTIVE",
] as const;

/**
 * Progress of a USD account's validation by micro-entries (docs/decisions/bank-validation-invitations.md):
 * sent at create, the account turns ACTIVE when the return window closes with no return, INACTIVE on a return.
 */
export const BankValidation = Type.Object({
  method: StringEnum(["MICRO_ENTRIES"]),
  status: StringEnum(["PENDING", "SUCCEEDED", "FAILED"]),
  microEntriesSentAt: DateTime(),
  returnWindowEndsAt: DateTime(),
  completedAt: Type.Optional(DateTime()),
  /** The NACHA return code of the returned micro-entries; FAILED only. */
  returnCode: Type.Optional(Type.String()),
});
export type BankValidation = Static<typeof BankValidation>;

export const ExternalAccount = Type.Object({
  id: Type.String(),
  status: StringEnum(externalAccountStatuses),
  currency: Type.String(),
  accountInfo: Type.Object({ accountType: Type.String() }, { additionalProperties: true }),
  customerId: Type.Optional(Type.String()),
  platformAccountId: Type.Optional(Type.String()),
  ownershipType: Type.Optional(StringEnum(["FIRST_PARTY", "THIRD_PARTY"])),
  defaultUmaDepositAccount: Type.Boolean(),
  /** Trusted beneficiary (SCA exemption): `/trust` sets it; `/untrust` + `/confirm` clears it. */
  beneficiaryTrustStatus: Type.Optional(StringEnum(["TRUSTED", "UNTRUSTED"])),
  bankValidation: Type.Optional(BankValidation),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type ExternalAccount = Static<typeof ExternalAccount>;

export const ExternalAccountParams = Type.Object({ externalAccountId: Type.String() });

/** The hosted API's ReceiverExternalAccountLookupResponse. */
export const ReceiverExternalAccountLookup = Type.Object({
  lookupId: Type.String(),
  accountId: Type.String(),
  supportedCurrencies: Type.Array(
    Type.Object({
      currency: Currency,
      estimatedExchangeRate: Type.Number({ exclusiveMinimum: 0 }),
      min: Type.Integer({ minimum: 1 }),
      max: Type.Integer({ minimum: 1 }),
    }),
  ),
  requiredPayerDataFields: Type.Array(Type.Object({ name: Type.String(), mandatory: Type.Boolean() })),
});
export type ReceiverExternalAccountLookup = Static<typeof ReceiverExternalAccountLookup>;

export const ReceiverLookupParams = Type.Object({ accountId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ReceiverLookupQuery = Type.Object(
  {
    senderUmaAddress: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    customerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
