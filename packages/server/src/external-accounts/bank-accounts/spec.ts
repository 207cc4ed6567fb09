import type { TObject } from "typebox";
import type { FieldError } from "../../core/errors/api-error.js";
import type { Check } from "./checks.js";

export type Info = Readonly<Record<string, unknown>>;

/**
 * One bank account type: everything the create path needs, as data. The tables are in usd.ts, americas.ts,
 * europe.ts, africa.ts, asia.ts and swift.ts, gathered by table.ts.
 */
export interface BankAccountSpec {
  /** The `accountInfo` schema (hosted `<Ccy>ExternalAccountCreateInfo`); names the accountType. */
  readonly schema: TObject;
  /** The account's currency; null: the request's `currency`, any ISO 4217 code (SWIFT_ACCOUNT). */
  readonly currency: string | null;
  /** Fields naming the bank or branch (routing number, sort code, BIC…): part of the identity. */
  readonly bank: readonly string[];
  /**
   * Fields that can name the account at the bank, in order of preference: the first one present is the
   * account's number, part of its identity and, by its last three characters, of the sandbox validation.
   */
  readonly number: readonly string[];
  /** Groups of fields the hosted schema leaves optional, at least one group of which must be complete. */
  readonly requires?: readonly (readonly string[])[];
  /** Checks beyond the schema (checksums, country rules), by `accountInfo` field. */
  readonly checks?: Readonly<Record<string, Check>>;
  /** USD_ACCOUNT: micro-entries (conventions §4.1); every other type: the sandbox suffix alone. */
  readonly validation: "MICRO_ENTRIES" | "SANDBOX_SUFFIX";
  /** Rules over the whole accountInfo that no single field carries. */
  readonly rules?: (info: Info) => FieldError[];
}

/** The accountType a spec's schema names (its discriminator's only value). */
export function accountTypeOf(spec: BankAccountSpec): string {
  const property = spec.schema.properties.accountType as unknown as { enum: string[] };
  const [name] = property.enum;
  if (name === undefined) throw new Error("a bank account schema without accountType");
  return name;
}

// Codes ISO 4217 lists that are not money a bank account holds: precious metals, funds and test codes.
const notAccountCurrencies = new Set([
  "XAG",
  "XAU",
  "XPD",
  "XPT",
  "XBA",
  "XBB",
  "XBC",
  "XBD",
  "XDR",
  "XSU",
  "XTS",
  "XUA",
  "XXX",
]);
const isoCurrencies = new Set(Intl.supportedValuesOf("currency").filter((c) => !notAccountCurrencies.has(c)));

function currencyProblems(spec: BankAccountSpec, accountType: string, currency: string): FieldError[] {
  if (spec.currency === null)
    return isoCurrencies.has(currency)
      ? []
      : [{ field: "currency", message: `must be an ISO 4217 currency code for a ${accountType}` }];
  return currency === spec.currency
    ? []
    : [{ field: "currency", message: `must be ${spec.currency} for a ${accountType}` }];
}

function requiresProblems(spec: BankAccountSpec, info: Info): FieldError[] {
  const groups = spec.requires;
  const present = (field: string) => info[field] !== undefined;
  if (!groups || groups.some((group) => group.every(present))) return [];
  const started = groups.find((group) => group.some(present));
  if (started)
    return started
      .filter((field) => !present(field))
      .map((field) => ({
        field: `accountInfo.${field}`,
        message: `is required with ${started.filter(present).join(" and ")}`,
      }));
  const choices = groups.map((group) => group.join(" and ")).join(", or ");
  return [{ field: "accountInfo", message: `needs ${choices}` }];
}

/**
 * Every rule of a schema-valid bank account beyond its schema, as FieldErrors for one `400 INVALID_INPUT`:
 * the currency of the type, the field checks, the required alternatives, the type's own rules.
 */
export function bankAccountProblems(
  spec: BankAccountSpec,
  input: { currency: string; accountInfo: Info },
): FieldError[] {
  const info = input.accountInfo;
  const errors = currencyProblems(spec, accountTypeOf(spec), input.currency);
  for (const [field, check] of Object.entries(spec.checks ?? {})) {
    const value = info[field];
    const problem = typeof value === "string" ? check(value, info) : undefined;
    if (problem) errors.push({ field: `accountInfo.${field}`, ...problem });
  }
  errors.push(...requiresProblems(spec, info), ...(spec.rules?.(info) ?? []));
  return errors;
}

/**
 * The bank rules of a body the schema refused, beside the schema's own errors, so that one `400` names
 * every invalid field: each check runs on a field the schema let through, and only if it reads no field
 * the schema refused (a UK account number's modulus reads its sort code); the type's whole-account rules
 * likewise.
 */
export function bankAccountProblemsBeside(
  spec: BankAccountSpec,
  body: { currency?: unknown; accountInfo: Info },
  schemaErrors: readonly FieldError[],
): FieldError[] {
  const failed = new Set(schemaErrors.map((error) => error.field));
  const passed = (field: string) =>
    ![...failed].some((f) => f === field || f.startsWith(`${field}.`) || f.startsWith(`${field}[`));
  const info = body.accountInfo;
  const refusedRead = Symbol("reads a field the schema refused");
  // What a check sees: the account, where reading a refused field stops the check instead.
  const readable = new Proxy(info, {
    get(target, key) {
      if (typeof key === "string" && !passed(`accountInfo.${key}`)) throw refusedRead;
      return target[key as string];
    },
  });
  const unlessRefused = (run: () => FieldError[]): FieldError[] => {
    try {
      return run();
    } catch (error) {
      if (error === refusedRead) return [];
      throw error;
    }
  };
  const errors: FieldError[] = [];
  if (typeof body.currency === "string" && passed("currency"))
    errors.push(...currencyProblems(spec, accountTypeOf(spec), body.currency));
  for (const [field, check] of Object.entries(spec.checks ?? {})) {
    const value = info[field];
    if (typeof value !== "string" || !passed(`accountInfo.${field}`)) continue;
    errors.push(
      ...unlessRefused(() => {
        const problem = check(value, readable);
        return problem ? [{ field: `accountInfo.${field}`, ...problem }] : [];
      }),
    );
  }
  errors.push(...requiresProblems(spec, info).filter((error) => passed(error.field)));
  errors.push(...unlessRefused(() => spec.rules?.(readable) ?? []));
  return errors;
}

/** The account's number: the first of the spec's number fields present. */
export function numberField(spec: BankAccountSpec, info: Info): string | undefined {
  return spec.number.find((name) => typeof info[name] === "string");
}

/** A BIC names its bank by its first 8 characters; the 3 more name a branch (`XXX`: the head office). */
const identifierOf: Readonly<Record<string, (value: string) => string>> = {
  swiftCode: (value) => value.slice(0, 8),
};

/**
 * What makes two accounts of a type equivalent (with owner, currency and type; store.ts): the bank fields
 * and the account's number (numberField), compared case-insensitively, absent bank fields empty. Other
 * details (names, a second number such as a mobile money phone beside an account number) do not count.
 * USD_ACCOUNT gives `routing:account`, as every USD row stored before this table.
 */
export function bankIdentity(spec: BankAccountSpec, info: Info): string {
  const number = numberField(spec, info);
  return [...spec.bank, ...(number === undefined ? [] : [number])]
    .map((field) => {
      const value = info[field];
      if (typeof value !== "string") return "";
      return (identifierOf[field]?.(value) ?? value).toUpperCase();
    })
    .join(":");
}

/**
 * The number whose last three characters are the sandbox suffix (conventions §1.9, §4.1): the account's
 * number (numberField). Payouts read the same number (../sandbox-number.ts).
 */
export function sandboxNumber(spec: BankAccountSpec, info: Info): string {
  const field = numberField(spec, info);
  return field === undefined ? "" : String(info[field]);
}
