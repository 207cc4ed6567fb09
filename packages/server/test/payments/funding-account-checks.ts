import { createRequire } from "node:module";
import { clabe } from "clabe-validator";
import { isSEPACountry, validateBIC, validateIBAN } from "ibantools";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { bankAccountSpec } from "../../src/external-accounts/bank-accounts/table.js";
import { corridorFor, railsFor } from "../../src/rails/corridors.js";

// uk-modulus-checking 0.1.x is CommonJS without types: the one method used here, typed.
type UkModulusCheck = new (input: { accountNumber: string; sortCode: string }) => { isValid(): boolean };
const UkModulusChecking = createRequire(import.meta.url)("uk-modulus-checking") as UkModulusCheck;

const BANK = "BANK_TRANSFER";
const MOBILE = "MOBILE_MONEY";
const BOTH = `${BANK} ${MOBILE}`;

/**
 * The hosted `Payment<Ccy>AccountInfo` schemas (hosted API reference, schemas.md), copied by hand: the
 * fields besides accountType (`?` optional), the `paymentRails` enum ("" where the schema has none), and
 * the patterns that differ from `commonPatterns`.
 */
const hosted: Record<string, [fields: string, rails: string, patterns?: Record<string, RegExp>]> = {
  USD: [
    "accountNumber routingNumber bankName? bankAccountType? intermediaryBankName? intermediaryRoutingNumber? fiToFiInformation? paymentRails reference bankAddress?",
    "ACH WIRE RTP FEDNOW",
    { intermediaryRoutingNumber: /^[0-9]{9}$/ },
  ],
  EUR: [
    "iban swiftCode? paymentRails reference",
    "SEPA SEPA_INSTANT",
    { iban: /^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/ },
  ],
  GBP: [
    "sortCode accountNumber paymentRails reference",
    "FASTER_PAYMENTS",
    { sortCode: /^[0-9]{6}$/, accountNumber: /^[0-9]{8}$/ },
  ],
  MXN: ["clabeNumber paymentRails reference", "SPEI", { clabeNumber: /^[0-9]{18}$/ }],
  BRL: ["qrCode", ""],
  COP: ["paymentUrl", ""],
  INR: [
    "vpa? accountNumber? ifsc? rail? bankName? paymentRails",
    "UPI NEFT RTGS",
    {
      vpa: /^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$/,
      accountNumber: /^[0-9]{9,18}$/,
      ifsc: /^[A-Z]{4}0[A-Z0-9]{6}$/,
    },
  ],
  PHP: ["bankName accountNumber paymentRails reference", BANK, { accountNumber: /^[0-9]{8,16}$/ }],
  SGD: ["bankName? accountNumber swiftCode paymentRails reference", "PAYNOW FAST BANK_TRANSFER"],
  AED: ["iban swiftCode? paymentRails reference", BANK, { iban: /^AE[0-9]{21}$/ }],
  BDT: ["accountNumber? bankName branchCode? swiftCode? phoneNumber? paymentRails reference", BOTH],
  BWP: ["phoneNumber provider paymentRails reference", MOBILE],
  CAD: [
    "bankCode branchCode accountNumber paymentRails reference",
    BANK,
    { bankCode: /^[0-9]{3}$/, accountNumber: /^[0-9]{7,12}$/ },
  ],
  CNY: ["accountNumber? bankName phoneNumber? paymentRails reference", BOTH],
  DKK: ["iban swiftCode? paymentRails reference", "SEPA SEPA_INSTANT", { iban: /^DK[0-9]{16}$/ }],
  EGP: ["iban? bankName phoneNumber? paymentRails reference", BOTH, { iban: /^EG[0-9]{27}$/ }],
  GHS: ["accountNumber? bankName phoneNumber? paymentRails reference", BOTH],
  GTQ: ["accountNumber bankAccountType bankName paymentRails reference", BANK],
  HKD: ["bankName accountNumber swiftCode paymentRails reference", BANK],
  HTG: ["phoneNumber paymentRails reference", MOBILE],
  IDR: [
    "bankName accountNumber swiftCode phoneNumber paymentRails reference",
    BANK,
    { phoneNumber: /^\+62[0-9]{9,12}$/ },
  ],
  JMD: ["accountNumber branchCode bankAccountType bankName paymentRails reference", BANK],
  KES: ["phoneNumber provider paymentRails reference", MOBILE, { phoneNumber: /^\+254[0-9]{9}$/ }],
  MWK: ["phoneNumber provider paymentRails reference", MOBILE],
  MYR: ["bankName accountNumber swiftCode paymentRails reference", BANK],
  NGN: ["accountNumber bankName paymentRails reference", BANK, { accountNumber: /^[0-9]{10}$/ }],
  PKR: [
    "bankName accountNumber? iban? phoneNumber? paymentRails reference",
    BOTH,
    { iban: /^PK[0-9]{2}[A-Z]{4}[0-9]{16}$/ },
  ],
  RWF: ["phoneNumber provider paymentRails reference", MOBILE, { phoneNumber: /^\+250[0-9]{9}$/ }],
  THB: ["bankName accountNumber swiftCode paymentRails reference", BANK],
  TZS: ["phoneNumber provider paymentRails reference", MOBILE, { phoneNumber: /^\+255[0-9]{9}$/ }],
  UGX: ["phoneNumber provider paymentRails reference", MOBILE],
  VND: ["bankName accountNumber swiftCode paymentRails reference", BANK],
  XAF: ["phoneNumber provider region paymentRails reference", MOBILE, { region: /^(CM|CG)$/ }],
  XOF: ["phoneNumber provider region paymentRails reference", MOBILE, { region: /^(BJ|CI|SN|TG)$/ }],
  ZAR: ["accountNumber bankName paymentRails reference", BANK, { accountNumber: /^[0-9]{9,13}$/ }],
  ZMW: ["phoneNumber provider paymentRails reference", MOBILE, { phoneNumber: /^\+260[0-9]{9}$/ }],
};

/** Patterns the hosted schemas give a field wherever it appears. */
const commonPatterns: Record<string, RegExp> = {
  routingNumber: /^[0-9]{9}$/,
  swiftCode: /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/,
  phoneNumber: /^\+[0-9]{6,14}$/,
  branchCode: /^[0-9]{5}$/,
  bankAccountType: /^(CHECKING|SAVINGS)$/,
};

/** The currencies the hosted reference has a `Payment<Ccy>AccountInfo` for (of those the corridors use). */
export const hostedCurrencies = Object.keys(hosted);

/** CRC-16/CCITT-FALSE, the BR Code checksum (EMV QRCPS §4.7.3); "123456789" gives 29B1. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** The tag-length-value fields of an EMV payload. */
function emvFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let at = 0; at < text.length; ) {
    const length = Number(text.slice(at + 2, at + 4));
    fields.set(text.slice(at, at + 2), text.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

/** What is wrong with a PIX "copia e cola" payload for this amount (in centavos) and reference. */
function pixProblems(code: string, amount: number, reference: string): string[] {
  const top = emvFields(code);
  const account = emvFields(top.get("26") ?? "");
  const expected: [string, string | undefined, string][] = [
    ["00 payload format", top.get("00"), "01"],
    ["26-00 GUI", account.get("00"), "br.gov.bcb.pix"],
    ["53 currency", top.get("53"), "986"],
    ["54 amount", top.get("54"), (amount / 100).toFixed(2)],
    ["58 country", top.get("58"), "BR"],
    ["62-05 txid", emvFields(top.get("62") ?? "").get("05"), reference.replace(/[^A-Za-z0-9]/g, "")],
    ["63 CRC", top.get("63"), crc16(code.slice(0, -4))],
  ];
  return expected
    .filter(([, actual, wanted]) => actual !== wanted)
    .map(([what, actual, wanted]) => `qrCode ${what}: ${actual} is not ${wanted}`);
}

/** ABA routing number checksum (weights 3, 7, 1). */
const abaValid = (value: string) =>
  [...value].reduce((sum, digit, i) => sum + Number(digit) * ([3, 7, 1][i % 3] as number), 0) % 10 === 0;

/** The real checks of each field: check digits, country and kind, beyond the hosted patterns. */
function realProblems(code: string, info: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const fail = (field: string, why: string) => problems.push(`${field} ${String(info[field])}: ${why}`);
  const countries = corridorFor(code)?.market.countries ?? [];
  const iban = typeof info.iban === "string" ? info.iban : undefined;
  if (iban !== undefined && !validateIBAN(iban).valid) fail("iban", "fails ISO 13616 check digits");
  if (code === "EUR" && iban !== undefined && !isSEPACountry(iban.slice(0, 2))) fail("iban", "not SEPA");
  if (typeof info.swiftCode === "string") {
    const country = code === "EUR" && iban ? iban.slice(0, 2) : countries[0];
    if (!validateBIC(info.swiftCode).valid || info.swiftCode.slice(4, 6) !== country)
      fail("swiftCode", `not a valid BIC of ${country}`);
  }
  if (typeof info.clabeNumber === "string" && !clabe.validate(info.clabeNumber).ok)
    fail("clabeNumber", "fails the CLABE check digit or codes");
  if (code === "GBP") {
    const input = { accountNumber: String(info.accountNumber), sortCode: String(info.sortCode) };
    if (!new UkModulusChecking(input).isValid()) fail("accountNumber", "fails the Vocalink modulus check");
  }
  if (typeof info.routingNumber === "string" && !abaValid(info.routingNumber))
    fail("routingNumber", "fails the ABA checksum");
  if (typeof info.phoneNumber === "string") {
    const phone = parsePhoneNumberFromString(info.phoneNumber);
    const country = typeof info.region === "string" ? info.region : countries[0];
    const type = phone?.getType();
    if (!phone?.isValid() || phone.country !== country || phone.number !== info.phoneNumber)
      fail("phoneNumber", `not an E.164 number of ${country}`);
    else if (type !== "MOBILE" && type !== "FIXED_LINE_OR_MOBILE") fail("phoneNumber", "not a mobile number");
  }
  // The checks an external account of the same type gets (NUBAN, IBAN, BIC, phone…): the server's own.
  const spec = bankAccountSpec(`${code}_ACCOUNT`);
  for (const [field, check] of Object.entries(spec?.checks ?? {})) {
    const value = info[field];
    const problem = typeof value === "string" ? check(value, info) : undefined;
    if (problem) fail(field, `external-account check: ${problem.message}`);
  }
  return problems;
}

/**
 * Everything wrong with a funding quote's `accountOrWalletInfo` in `code`: its accountType, fields not in
 * the hosted schema or required ones missing, the hosted patterns, `paymentRails` (the corridor's rails to
 * the account type that the hosted enum lists, in the corridor's order), the reference where the schema
 * carries one, and the real checks of each field.
 */
export function fundingAccountProblems(
  code: string,
  info: Record<string, unknown>,
  funding: { amount: number; reference: string },
): string[] {
  const entry = hosted[code];
  if (!entry) return [`no hosted Payment${code}AccountInfo in the test's table`];
  const [fieldList, railList, own = {}] = entry;
  const accountType = `${code}_ACCOUNT`;
  const fields = fieldList.split(" ");
  const allowed = new Set(["accountType", ...fields.map((f) => f.replace("?", ""))]);
  const problems: string[] = [];
  if (info.accountType !== accountType) problems.push(`accountType ${String(info.accountType)}`);
  for (const key of Object.keys(info))
    if (!allowed.has(key)) problems.push(`${key}: not in the hosted schema`);
  for (const field of fields.filter((f) => !f.endsWith("?")))
    if (info[field] === undefined) problems.push(`${field}: required, missing`);
  for (const [field, value] of Object.entries(info)) {
    const pattern = own[field] ?? commonPatterns[field];
    if (typeof value === "string" && (value.length === 0 || value.length > 255))
      problems.push(`${field}: length ${value.length}`);
    if (pattern && !(typeof value === "string" && pattern.test(value)))
      problems.push(`${field} ${String(value)}: does not match ${pattern}`);
  }
  if (railList !== "") {
    const enumerated = railList.split(" ");
    const expected = railsFor(code, accountType).filter((rail) => enumerated.includes(rail));
    const rails = JSON.stringify(info.paymentRails);
    if (expected.length === 0 || rails !== JSON.stringify(expected))
      problems.push(`paymentRails ${rails}: expected ${JSON.stringify(expected)}`);
  }
  if (allowed.has("reference") && info.reference !== funding.reference)
    problems.push(`reference ${String(info.reference)}: expected ${funding.reference}`);
  if (typeof info.qrCode === "string")
    problems.push(...pixProblems(info.qrCode, funding.amount, funding.reference));
  if (info.paymentUrl !== undefined) {
    const url = URL.canParse(String(info.paymentUrl)) ? new URL(String(info.paymentUrl)) : undefined;
    if (url?.protocol !== "https:" || !url.pathname.endsWith(`/${funding.reference}`))
      problems.push(`paymentUrl ${String(info.paymentUrl)}: not an https URL naming the reference`);
  }
  return [...problems, ...realProblems(code, info)];
}
