import { currency as currencyOf } from "../core/money.js";
import { railsFor } from "../rails/corridors.js";
import type { PaymentRail } from "../rails/payment-rails.js";

/**
 * One sandbox collection account: the fields of the hosted `Payment<Ccy>AccountInfo`, the `paymentRails`
 * enum that schema lists (none where it has no `paymentRails`: BRL, COP), and the field that carries the
 * quote's reference: `reference`, a PIX code (`qrCode`), a payment page (`paymentUrl`), or none (INR, whose
 * hosted schema has no such field).
 */
interface CollectionAccount {
  rails?: readonly PaymentRail[];
  carrier?: "reference" | "qrCode" | "paymentUrl" | "none";
  fields?: Readonly<Record<string, string>>;
}

const BANK: readonly PaymentRail[] = ["BANK_TRANSFER"];
const MOBILE: readonly PaymentRail[] = ["MOBILE_MONEY"];
const BANK_OR_MOBILE: readonly PaymentRail[] = ["BANK_TRANSFER", "MOBILE_MONEY"];
const SEPA: readonly PaymentRail[] = ["SEPA", "SEPA_INSTANT"];

/**
 * The platform's sandbox collection account in each corridor currency (rails/corridors.ts), where a
 * REALTIME_FUNDING quote's money is paid in. The values pass the checks external accounts get (IBAN and
 * CLABE check digits, the Vocalink modulus, NUBAN, E.164 mobile numbers of the country, BICs of the
 * country); they name no real account (docs/decisions.md "Realtime funding").
 */
const collectionAccounts: Readonly<Record<string, CollectionAccount>> = {
  USD: {
    rails: ["ACH", "WIRE", "RTP", "FEDNOW"],
    fields: { accountNumber: "9876543210", routingNumber: "021000021", bankName: "paysvc sandbox bank" },
  },
  EUR: { rails: SEPA, fields: { iban: "DE62370400440532013777", swiftCode: "COBADEFFXXX" } },
  GBP: { rails: ["FASTER_PAYMENTS"], fields: { sortCode: "089999", accountNumber: "12345672" } },
  MXN: { rails: ["SPEI"], fields: { clabeNumber: "012180001234567899" } },
  BRL: { carrier: "qrCode" },
  COP: { carrier: "paymentUrl" },
  INR: {
    rails: ["UPI", "NEFT", "RTGS"],
    carrier: "none",
    fields: {
      vpa: "paysvc.collect@hdfcbank",
      accountNumber: "50200012345678",
      ifsc: "HDFC0000240",
      bankName: "HDFC Bank",
    },
  },
  PHP: { rails: BANK, fields: { bankName: "BDO Unibank", accountNumber: "001234567890" } },
  SGD: {
    rails: ["PAYNOW", "FAST", "BANK_TRANSFER"],
    fields: { bankName: "DBS Bank Ltd", accountNumber: "0721234567", swiftCode: "DBSSSGSG" },
  },
  AED: { rails: BANK, fields: { iban: "AE950260001015333999001", swiftCode: "EBILAEAD" } },
  BDT: {
    rails: BANK_OR_MOBILE,
    fields: {
      bankName: "Dutch-Bangla Bank",
      accountNumber: "1071100012345",
      branchCode: "12345",
      swiftCode: "DBBLBDDH",
      phoneNumber: "+8801712345678",
    },
  },
  BWP: { rails: MOBILE, fields: { phoneNumber: "+26772123456", provider: "Orange Money" } },
  CAD: { rails: BANK, fields: { bankCode: "003", branchCode: "00002", accountNumber: "1234567" } },
  CNY: {
    rails: BANK_OR_MOBILE,
    fields: {
      bankName: "Industrial and Commercial Bank of China",
      accountNumber: "6222021234567890123",
      phoneNumber: "+8613812345678",
    },
  },
  DKK: { rails: SEPA, fields: { iban: "DK2600400440119876", swiftCode: "DABADKKK" } },
  EGP: {
    rails: BANK_OR_MOBILE,
    fields: {
      iban: "EG190003000100000000123456789",
      bankName: "National Bank of Egypt",
      phoneNumber: "+201001234567",
    },
  },
  GHS: {
    rails: BANK_OR_MOBILE,
    fields: { accountNumber: "1234567890123", bankName: "GCB Bank", phoneNumber: "+233241234567" },
  },
  GTQ: {
    rails: BANK,
    fields: { accountNumber: "1234567890", bankAccountType: "CHECKING", bankName: "Banco Industrial" },
  },
  HKD: {
    rails: BANK,
    fields: { bankName: "HSBC Hong Kong", accountNumber: "400123456001", swiftCode: "HSBCHKHHHKH" },
  },
  HTG: { rails: MOBILE, fields: { phoneNumber: "+50934123456" } },
  IDR: {
    rails: BANK,
    fields: {
      bankName: "Bank Central Asia",
      accountNumber: "1234567890",
      swiftCode: "CENAIDJA",
      phoneNumber: "+6281234567890",
    },
  },
  JMD: {
    rails: BANK,
    fields: {
      accountNumber: "123456789",
      branchCode: "12345",
      bankAccountType: "CHECKING",
      bankName: "National Commercial Bank Jamaica",
    },
  },
  KES: { rails: MOBILE, fields: { phoneNumber: "+254712345678", provider: "M-PESA" } },
  MWK: { rails: MOBILE, fields: { phoneNumber: "+265991234567", provider: "Airtel Money" } },
  MYR: { rails: BANK, fields: { bankName: "Maybank", accountNumber: "514012345678", swiftCode: "MBBEMYKL" } },
  NGN: { rails: BANK, fields: { accountNumber: "1012345671", bankName: "Zenith Bank" } },
  PKR: {
    rails: BANK_OR_MOBILE,
    fields: {
      bankName: "Standard Chartered Bank (Pakistan)",
      iban: "PK15SCBL0000001123456789",
      phoneNumber: "+923001234567",
    },
  },
  RWF: { rails: MOBILE, fields: { phoneNumber: "+250781234567", provider: "MTN MoMo" } },
  THB: {
    rails: BANK,
    fields: { bankName: "Bangkok Bank", accountNumber: "1234567890", swiftCode: "BKKBTHBK" },
  },
  TZS: { rails: MOBILE, fields: { phoneNumber: "+255754123456", provider: "M-Pesa" } },
  UGX: { rails: MOBILE, fields: { phoneNumber: "+256772123456", provider: "MTN MoMo" } },
  VND: {
    rails: BANK,
    fields: { bankName: "Vietcombank", accountNumber: "0011001234567", swiftCode: "BFTVVNVX" },
  },
  XAF: { rails: MOBILE, fields: { phoneNumber: "+237671234567", provider: "MTN MoMo", region: "CM" } },
  XOF: { rails: MOBILE, fields: { phoneNumber: "+221771234567", provider: "Orange Money", region: "SN" } },
  ZAR: { rails: BANK, fields: { accountNumber: "62123456789", bankName: "First National Bank" } },
  ZMW: { rails: MOBILE, fields: { phoneNumber: "+260961234567", provider: "MTN MoMo" } },
};

/** The fiat currencies a REALTIME_FUNDING quote can be paid in by bank or mobile money. */
export const fundingCurrencies: ReadonlySet<string> = new Set(Object.keys(collectionAccounts));

/** An amount in minor units as major units with the currency's decimals (`5000` EUR → `"50.00"`), exactly. */
export function majorUnits(amount: number, code: string): string {
  const { decimals } = currencyOf(code);
  if (decimals === 0) return String(amount);
  const digits = String(amount).padStart(decimals + 1, "0");
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** One EMV tag-length-value field (EMVCo merchant-presented QR; lengths are two decimal digits). */
const tlv = (id: string, value: string) => `${id}${String(value.length).padStart(2, "0")}${value}`;

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), the checksum closing a BR Code (tag 63). */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** The PIX key (a random EVP key) the sandbox BRL collection account receives on. */
const PIX_KEY = "5f0c3a8e-2b7d-4c1e-9a6f-3d8b1e7c4a20";

/**
 * A PIX "copia e cola" payload (Banco Central do Brasil's BR Code, EMV QRCPS): the platform's PIX key, the
 * amount in reais, and the reference as the transaction id (tag 62-05 allows letters and digits only,
 * so its hyphen is dropped), closed by its CRC.
 */
function pixCopiaECola(reference: string, amount: number): string {
  const payload = [
    tlv("00", "01"),
    tlv("01", "12"),
    tlv("26", tlv("00", "br.gov.bcb.pix") + tlv("01", PIX_KEY)),
    tlv("52", "0000"),
    tlv("53", "986"),
    tlv("54", majorUnits(amount, "BRL")),
    tlv("58", "BR"),
    tlv("59", "PAYSVC SANDBOX"),
    tlv("60", "SAO PAULO"),
    tlv("62", tlv("05", reference.replace(/[^A-Za-z0-9]/g, ""))),
    "6304",
  ].join("");
  return `${payload}${crc16(payload)}`;
}

/** The sandbox payment page of a COP funding (PSE-style checkout), on a reserved domain (RFC 2606). */
const COP_PAYMENT_PAGE = "https://checkout.sandbox.paysvc.example/co";

/**
 * The `accountOrWalletInfo` of a fiat funding quote, in the hosted `Payment<Ccy>AccountInfo` shape: the
 * collection account's fields, `paymentRails` (the corridor's rails to `<Ccy>_ACCOUNT` that the hosted
 * schema lists), and the reference where that schema carries one; undefined for a currency without one.
 */
export function fundingAccount(
  code: string,
  payment: { reference: string; amount: number },
): Record<string, unknown> | undefined {
  const account = collectionAccounts[code];
  if (account === undefined) return undefined;
  const accountType = `${code}_ACCOUNT`;
  const hosted = account.rails;
  const carried = {
    reference: () => ({ reference: payment.reference }),
    qrCode: () => ({ qrCode: pixCopiaECola(payment.reference, payment.amount) }),
    paymentUrl: () => ({ paymentUrl: `${COP_PAYMENT_PAGE}/${payment.reference}` }),
    none: () => ({}),
  }[account.carrier ?? "reference"];
  return {
    accountType,
    ...account.fields,
    ...(hosted ? { paymentRails: railsFor(code, accountType).filter((rail) => hosted.includes(rail)) } : {}),
    ...carried(),
  };
}
