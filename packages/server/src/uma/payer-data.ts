import type { CounterPartyDataOptions } from "@uma-sdk/core";
import {
  type CounterpartyFieldDefinition,
  type CustomerInfoFieldName,
  customerInfoFieldNames,
} from "../platform/currency-configs.js";

// Payer data between the hosted API's CustomerInfoFieldName (platform config, lookups, `senderCustomerInfo`,
// `counterpartyInformation`) and UMA's payer-data keys. A name UMA has no key for travels under its own name.

const umaKeys: Partial<Record<CustomerInfoFieldName, string>> = {
  FULL_NAME: "name",
  EMAIL: "email",
  BIRTH_DATE: "birthDate",
  NATIONALITY: "nationality",
  COUNTRY_OF_RESIDENCE: "countryOfResidence",
  PHONE_NUMBER: "phoneNumber",
  POSTAL_ADDRESS: "postalAddress",
  TAX_ID: "taxId",
  IDENTIFIER: "identifier",
};
const namesByKey = new Map(
  Object.entries(umaKeys).map(([name, key]) => [key, name as CustomerInfoFieldName]),
);
const isFieldName = (key: string): key is CustomerInfoFieldName =>
  (customerInfoFieldNames as readonly string[]).includes(key);

/** The UMA payer-data key of a CustomerInfoFieldName. */
export const umaKeyOf = (name: CustomerInfoFieldName): string => umaKeys[name] ?? name;

/** The CustomerInfoFieldName of a UMA payer-data key; undefined for compliance and unknown keys. */
export const fieldNameOf = (key: string): CustomerInfoFieldName | undefined =>
  namesByKey.get(key) ?? (isFieldName(key) ? key : undefined);

/**
 * The payer data a receiver asks for in its LNURLP response: the identifier and the compliance data always
 * (UMA needs them), then each configured field, mandatory where any currency makes it mandatory.
 */
export function payerDataOptions(fields: readonly CounterpartyFieldDefinition[]): CounterPartyDataOptions {
  const options: CounterPartyDataOptions = {
    identifier: { mandatory: true },
    compliance: { mandatory: true },
  };
  for (const field of fields) {
    const key = umaKeyOf(field.name);
    options[key] = { mandatory: field.mandatory || Boolean(options[key]?.mandatory) };
  }
  return options;
}

const present = (value: unknown) => value !== undefined && value !== null && value !== "";

/** The mandatory fields `payerData` lacks, by CustomerInfoFieldName. */
export function missingPayerData(
  fields: readonly CounterpartyFieldDefinition[],
  payerData: Record<string, unknown> | undefined,
): CustomerInfoFieldName[] {
  return fields.filter((f) => f.mandatory && !present(payerData?.[umaKeyOf(f.name)])).map((f) => f.name);
}

/** What a sender said about its payer, by CustomerInfoFieldName (an incoming payment's `counterpartyInformation`). */
export function counterpartyInformation(
  payerData: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const info: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payerData ?? {})) {
    const name = fieldNameOf(key);
    if (name && present(value)) info[name] = value;
  }
  return info;
}

/** `senderCustomerInfo` as UMA payer data: each field the receiver asked for, under its UMA key. */
export function payerDataFor(
  asked: readonly CounterpartyFieldDefinition[],
  info: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const { name } of asked) if (present(info[name])) data[umaKeyOf(name)] = info[name];
  return data;
}

/** The payer data a receiver's LNURLP response asks for, by CustomerInfoFieldName (the identifier is always sent). */
export function askedPayerData(options: CounterPartyDataOptions | undefined): CounterpartyFieldDefinition[] {
  return Object.entries(options ?? {}).flatMap(([key, option]) => {
    const name = fieldNameOf(key);
    return name && name !== "IDENTIFIER" ? [{ name, mandatory: Boolean(option?.mandatory) }] : [];
  });
}
