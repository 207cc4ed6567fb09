import { createRequire } from "node:module";
import { clabe } from "clabe-validator";
import { cnpj, cpf } from "cpf-cnpj-validator";
import { isSEPACountry, ValidationErrorsIBAN, validateBIC, validateIBAN } from "ibantools";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import type { FieldError } from "../../core/errors/api-error.js";
import { formats } from "../../core/http/formats.js";
import { nubanBank, nubanCheckDigit } from "./nuban.js";

// uk-modulus-checking 0.1.x is CommonJS without types: the one method paysvc calls, typed here.
type UkModulusCheck = new (input: { accountNumber: string; sortCode: string }) => { isValid(): boolean };
const UkModulusChecking = createRequire(import.meta.url)("uk-modulus-checking") as UkModulusCheck;

/** What is wrong with one field: a FieldError without its path. */
export type Problem = Omit<FieldError, "field">;

/**
 * A check of one `accountInfo` field beyond its schema, run once the whole body passed the schema: `value`
 * is the field's (schema-valid) string, `info` the whole accountInfo for the checks that read a sibling.
 */
export type Check = (value: string, info: Readonly<Record<string, unknown>>) => Problem | undefined;

/** A country fixed by the corridor, or read from the account (SWIFT `country`, XOF `region`). */
export type CountryOf = string | ((info: Readonly<Record<string, unknown>>) => unknown);

const countryOf = (where: CountryOf, info: Readonly<Record<string, unknown>>) =>
  typeof where === "string" ? where : String(where(info));

const ibanMessages: Partial<Record<ValidationErrorsIBAN, string>> = {
  [ValidationErrorsIBAN.NoIBANCountry]: "names no IBAN country",
  [ValidationErrorsIBAN.WrongBBANLength]: "does not have the length of its country's IBAN",
  [ValidationErrorsIBAN.WrongBBANFormat]: "does not have its country's account format",
  [ValidationErrorsIBAN.ChecksumNotNumber]: "has check digits that are not digits",
  [ValidationErrorsIBAN.WrongIBANChecksum]: "fails the IBAN checksum (ISO 13616 mod 97)",
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum]: "fails its country's national check digits",
};

/** ISO 13616 (ibantools): checksum, the country's length and BBAN format, national check digits. */
export function iban(options: { sepa?: boolean } = {}): Check {
  return (value) => {
    const electronic = value.toUpperCase();
    const result = validateIBAN(electronic);
    const [code] = result.errorCodes;
    if (!result.valid && code !== undefined)
      return { constraint: { format: "iban" }, message: ibanMessages[code] ?? "is not a valid IBAN" };
    if (options.sepa && !isSEPACountry(electronic.slice(0, 2)))
      return { message: `is an IBAN of ${electronic.slice(0, 2)}, which is outside the SEPA area` };
    return undefined;
  };
}

/** The country of an IBAN field of the account (EUR: its BIC must be of the same country). */
export const ibanCountry = (info: Readonly<Record<string, unknown>>) =>
  String(info.iban ?? "")
    .slice(0, 2)
    .toUpperCase();

/** ISO 9362 (ibantools): format and an assigned country; a corridor's BIC is of a bank in its country. */
export function bic(country?: CountryOf): Check {
  return (value, info) => {
    if (!validateBIC(value).valid) return { constraint: { format: "bic" }, message: "is not a valid BIC" };
    const expected = country === undefined ? undefined : countryOf(country, info);
    if (expected && value.slice(4, 6) !== expected)
      return { message: `must be the BIC of a bank in ${expected}, not ${value.slice(4, 6)}` };
    return undefined;
  };
}

/** CLABE (clabe-validator): the weighted mod-10 check digit, a known bank code and a known city code. */
export const clabeNumber: Check = (value) => {
  const result = clabe.validate(value);
  return result.ok
    ? undefined
    : { constraint: { format: "clabe" }, message: `is not a valid CLABE: ${result.message}` };
};

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A Brazilian CPF (11 digits) or CNPJ (14) with its mod-11 check digits (cpf-cnpj-validator). */
function cpfOrCnpj(value: string, kind: "CPF" | "CNPJ"): Problem | undefined {
  if (kind === "CPF")
    return /^[0-9]{11}$/.test(value) && cpf.isValid(value, true)
      ? undefined
      : { constraint: { format: "br-cpf" }, message: "is not a valid CPF (11 digits, check digits)" };
  return /^[0-9A-Z]{12}[0-9]{2}$/.test(value) && cnpj.isValid(value, true)
    ? undefined
    : { constraint: { format: "br-cnpj" }, message: "is not a valid CNPJ (14 characters, check digits)" };
}

/** A phone number valid for `country` (libphonenumber-js, full metadata), optionally a mobile one. */
export function phone(country: CountryOf, options: { mobile?: boolean } = {}): Check {
  return (value, info) => {
    const expected = countryOf(country, info);
    const parsed = parsePhoneNumberFromString(value);
    const kind = options.mobile ? "mobile number" : "phone number";
    if (!parsed?.isValid() || parsed.country !== expected || parsed.number !== value)
      return { message: `must be a valid ${kind} of ${expected} in E.164 form` };
    const type = parsed.getType();
    if (options.mobile && type !== "MOBILE" && type !== "FIXED_LINE_OR_MOBILE")
      return {
        message: `must be a mobile number of ${expected} (mobile money); this one is ${type ?? "of no known type"}`,
      };
    return undefined;
  };
}

const brazilianPhone = phone("BR");

/** A PIX key, checked as its `pixKeyType` says (Banco Central do Brasil, DICT key formats). */
export const pixKey: Check = (value, info) => {
  switch (info.pixKeyType) {
    case "CPF":
    case "CNPJ":
      return cpfOrCnpj(value, info.pixKeyType);
    case "EMAIL":
      return formats.email?.(value)
        ? undefined
        : { constraint: { format: "email" }, message: "is not an e-mail address" };
    case "PHONE":
      return brazilianPhone(value, info);
    case "RANDOM":
      return uuid.test(value)
        ? undefined
        : { constraint: { format: "uuid" }, message: "is not a random key (a UUID)" };
    default:
      return undefined;
  }
};

/** `taxId` of a BRL account: a CPF (11 digits) or a CNPJ (14 digits). */
export const brazilianTaxId: Check = (value) => {
  if (value.length === 11) return cpfOrCnpj(value, "CPF");
  if (value.length === 14) return cpfOrCnpj(value, "CNPJ");
  return { message: "must be a CPF (11 digits) or a CNPJ (14 digits)" };
};

/** A UK account number against its sort code: the Vocalink modulus check (uk-modulus-checking). */
export const ukAccountNumber: Check = (value, info) => {
  const sortCode = String(info.sortCode ?? "");
  return new UkModulusChecking({ accountNumber: value, sortCode }).isValid()
    ? undefined
    : { message: `fails the Vocalink modulus check for sort code ${sortCode}` };
};

/**
 * A NUBAN against the bank named by `bankName` (nuban.ts). A bank not in the CBN code table is not checked:
 * the hosted schema has no bank code, and refusing an unlisted bank would refuse real accounts.
 */
export const nubanAccountNumber: Check = (value, info) => {
  const bank = nubanBank(String(info.bankName ?? ""));
  if (!bank || nubanCheckDigit(bank.code, value.slice(0, 9)) === Number(value[9])) return undefined;
  return { message: `fails the NUBAN check digit for ${bank.name} (CBN bank code ${bank.code})` };
};
