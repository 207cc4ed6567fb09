import { type Static, Type } from "typebox";
import { StringEnum } from "../core/http/schemas.js";
import { currencyCodes, MAX_AMOUNT } from "../core/money.js";

// The hosted API's PlatformCurrencyConfig: one entry per supported currency, set with `PATCH /config
// supportedCurrencies`. The codes stay in `supported_currencies` (customers' accounts open from them); the rest
// of each entry is kept in `currency_configs` by code, and a code without an entry takes the defaults below.

/** The hosted API's CustomerInfoFieldName: what a counterparty may be asked to provide. */
export const customerInfoFieldNames = [
  "FULL_NAME",
  "BIRTH_DATE",
  "NATIONALITY",
  "PHONE_NUMBER",
  "EMAIL",
  "POSTAL_ADDRESS",
  "TAX_ID",
  "REGISTRATION_NUMBER",
  "USER_TYPE",
  "COUNTRY_OF_RESIDENCE",
  "ACCOUNT_IDENTIFIER",
  "FI_LEGAL_ENTITY_NAME",
  "FI_ADDRESS",
  "PURPOSE_OF_PAYMENT",
  "ULTIMATE_INSTITUTION_COUNTRY",
  "IDENTIFIER",
  "BUSINESS_TYPE",
  "COMPANY_LEGAL_NAME",
  "ID_TYPE",
  "ID_NUMBER",
] as const;
export type CustomerInfoFieldName = (typeof customerInfoFieldNames)[number];

export const CounterpartyFieldDefinition = Type.Object(
  { name: StringEnum(customerInfoFieldNames), mandatory: Type.Boolean() },
  { additionalProperties: false },
);
export type CounterpartyFieldDefinition = Static<typeof CounterpartyFieldDefinition>;

const transactionTypes = ["INCOMING", "OUTGOING"] as const;
export type TransactionType = (typeof transactionTypes)[number];

export const PlatformCurrencyConfig = Type.Object(
  {
    currencyCode: StringEnum(currencyCodes),
    /** The smallest and largest UMA payment in this currency, in its minor units. */
    minAmount: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT }),
    maxAmount: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT }),
    /** What a UMA sender paying this platform's customers in this currency must (or may) say about the payer. */
    requiredCounterpartyFields: Type.Array(CounterpartyFieldDefinition, {
      maxItems: customerInfoFieldNames.length,
    }),
    /** INCOMING: customers receive UMA payments in it; OUTGOING: they send UMA payments from it. */
    enabledTransactionTypes: Type.Array(StringEnum(transactionTypes), { maxItems: 2, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type PlatformCurrencyConfig = Static<typeof PlatformCurrencyConfig>;

/** A currency's entry before the platform sets one: any amount, both directions, the payer's name asked for. */
export function defaultCurrencyConfig(code: string): PlatformCurrencyConfig {
  return {
    currencyCode: code,
    minAmount: 1,
    maxAmount: MAX_AMOUNT,
    requiredCounterpartyFields: [{ name: "FULL_NAME", mandatory: false }],
    enabledTransactionTypes: ["OUTGOING", "INCOMING"],
  } as PlatformCurrencyConfig;
}

type StoredConfigs = Record<string, Omit<PlatformCurrencyConfig, "currencyCode">>;

/** The platform row's columns these settings live in (store.ts's PlatformRow has them). */
interface CurrencyColumns {
  supported_currencies: string[];
  currency_configs?: Record<string, unknown>;
}

/** The platform's supported currencies with their settings, in the order the platform gave them. */
export function currencyConfigsOf(row: CurrencyColumns): PlatformCurrencyConfig[] {
  const stored = (row.currency_configs ?? {}) as StoredConfigs;
  return row.supported_currencies.map((code) => {
    const own = stored[code];
    return own ? ({ currencyCode: code, ...own } as PlatformCurrencyConfig) : defaultCurrencyConfig(code);
  });
}

/** The settings of one currency, or undefined when the platform does not support it. */
export function currencyConfigOf(row: CurrencyColumns, code: string): PlatformCurrencyConfig | undefined {
  return currencyConfigsOf(row).find((c) => c.currencyCode === code);
}

/** The stored form of a `PATCH /config supportedCurrencies` list: codes in order, settings by code. */
export function storedCurrencyConfigs(configs: readonly PlatformCurrencyConfig[]): {
  codes: string[];
  settings: StoredConfigs;
} {
  const settings: StoredConfigs = {};
  for (const { currencyCode, ...rest } of configs) settings[currencyCode] = rest;
  return { codes: configs.map((c) => c.currencyCode), settings };
}
