import { type CalendarId, TARGET2 } from "./calendars.js";
import { type PaymentRail, type RailKind, railKind } from "./payment-rails.js";

/**
 * The corridor table: one entry per receiving currency, and the only place a corridor is described
 * (docs/guides/rails.md). It drives external-account rails, rail selection, settlement, limits and
 * discovery. Account types and rails follow the hosted API's account schemas (issue 18); decisions where
 * the spec and the reference are silent are in docs/decisions-rails.md.
 */

/** Where a corridor pays out: the countries (discovery), the banking calendar and its time zone. */
export interface Market {
  /** ISO 3166-1 alpha-2 countries the corridor pays into. */
  countries: readonly string[];
  /** Banking calendar (calendars.ts): an ISO 3166-1 alpha-2 country, an ISO 3166-2 subdivision, or TARGET2. */
  calendar: CalendarId;
  /** IANA time zone of cut-offs and settlement hours. */
  timeZone: string;
}

interface CorridorEntry {
  currency: string;
  market: Market;
  /** Single-transaction maximum in major units: about USD 1,000,000, rounded. */
  maximum: number;
  /** Account types receiving the currency, each with the rails that pay it, in order of preference. */
  accounts: Readonly<Record<string, readonly PaymentRail[]>>;
  /** Account types paid in another market than the corridor's (El Salvador's SLV_ACCOUNT receives USD). */
  accountMarkets?: Readonly<Record<string, Market>>;
  /** Per-payment caps of a rail in major units: auto selection passes over the rail above it. */
  railCaps?: Partial<Readonly<Record<PaymentRail, number>>>;
}

/** A one-country market; `calendar` names a subdivision where the financial centre's holidays differ. */
const market = (country: string, timeZone: string, calendar: CalendarId = country): Market => ({
  countries: [country],
  calendar,
  timeZone,
});

/** The euro area on 2026-01-01 (Bulgaria joined that day). */
const EURO_AREA = "AT BE BG CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK".split(" ");

const table: readonly CorridorEntry[] = [
  {
    currency: "USD",
    market: market("US", "America/Chicago"),
    maximum: 1_000_000,
    accounts: {
      USD_ACCOUNT: ["ACH", "ACH_SAME_DAY", "RTP", "FEDNOW", "WIRE"],
      SLV_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"],
    },
    accountMarkets: { SLV_ACCOUNT: market("SV", "America/El_Salvador") },
  },
  {
    currency: "EUR",
    market: { countries: EURO_AREA, calendar: TARGET2, timeZone: "Europe/Berlin" },
    maximum: 1_000_000,
    accounts: { EUR_ACCOUNT: ["SEPA_INSTANT", "SEPA"] },
  },
  {
    currency: "GBP",
    market: market("GB", "Europe/London", "GB-ENG"),
    maximum: 1_000_000,
    accounts: { GBP_ACCOUNT: ["FASTER_PAYMENTS"] },
  },
  {
    currency: "MXN",
    market: market("MX", "America/Mexico_City"),
    maximum: 20_000_000,
    accounts: { MXN_ACCOUNT: ["SPEI"] },
  },
  {
    currency: "BRL",
    market: market("BR", "America/Sao_Paulo"),
    maximum: 5_000_000,
    accounts: { BRL_ACCOUNT: ["PIX"] },
  },
  {
    currency: "COP",
    market: market("CO", "America/Bogota"),
    maximum: 4_000_000_000,
    accounts: { COP_ACCOUNT: ["BRE_B", "ACH_COLOMBIA", "BANK_TRANSFER", "MOBILE_MONEY"] },
  },
  {
    currency: "INR",
    market: market("IN", "Asia/Kolkata", "IN-MH"),
    maximum: 80_000_000,
    accounts: { INR_ACCOUNT: ["UPI", "NEFT", "RTGS"] },
    railCaps: { UPI: 100_000 },
  },
  {
    currency: "PHP",
    market: market("PH", "Asia/Manila"),
    maximum: 50_000_000,
    accounts: { PHP_ACCOUNT: ["INSTAPAY", "PESONET", "BANK_TRANSFER"] },
    railCaps: { INSTAPAY: 50_000 },
  },
  {
    currency: "SGD",
    market: market("SG", "Asia/Singapore"),
    maximum: 1_000_000,
    accounts: { SGD_ACCOUNT: ["FAST", "PAYNOW", "BANK_TRANSFER"] },
    railCaps: { FAST: 200_000, PAYNOW: 200_000 },
  },
  {
    currency: "AED",
    market: market("AE", "Asia/Dubai"),
    maximum: 3_500_000,
    accounts: { AED_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "BDT",
    market: market("BD", "Asia/Dhaka"),
    maximum: 120_000_000,
    accounts: { BDT_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"] },
  },
  {
    currency: "BWP",
    market: market("BW", "Africa/Gaborone"),
    maximum: 13_000_000,
    accounts: { BWP_ACCOUNT: ["MOBILE_MONEY"] },
  },
  {
    currency: "CAD",
    market: market("CA", "America/Toronto", "CA-ON"),
    maximum: 1_000_000,
    accounts: { CAD_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "CNY",
    market: market("CN", "Asia/Shanghai"),
    maximum: 7_000_000,
    accounts: { CNY_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY", "CIPS", "UNIONPAY"] },
  },
  {
    currency: "DKK",
    market: market("DK", "Europe/Copenhagen"),
    maximum: 7_000_000,
    accounts: { DKK_ACCOUNT: ["SEPA_INSTANT", "SEPA"] },
  },
  {
    currency: "EGP",
    market: market("EG", "Africa/Cairo"),
    maximum: 50_000_000,
    accounts: { EGP_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"] },
  },
  {
    currency: "GHS",
    market: market("GH", "Africa/Accra"),
    maximum: 10_000_000,
    accounts: { GHS_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"] },
  },
  {
    currency: "GTQ",
    market: market("GT", "America/Guatemala"),
    maximum: 8_000_000,
    accounts: { GTQ_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "HKD",
    market: market("HK", "Asia/Hong_Kong"),
    maximum: 8_000_000,
    accounts: { HKD_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "HTG",
    market: market("HT", "America/Port-au-Prince"),
    maximum: 130_000_000,
    accounts: { HTG_ACCOUNT: ["MOBILE_MONEY"] },
  },
  {
    currency: "IDR",
    market: market("ID", "Asia/Jakarta"),
    maximum: 16_000_000_000,
    accounts: { IDR_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "JMD",
    market: market("JM", "America/Jamaica"),
    maximum: 160_000_000,
    accounts: { JMD_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "KES",
    market: market("KE", "Africa/Nairobi"),
    maximum: 130_000_000,
    accounts: { KES_ACCOUNT: ["MOBILE_MONEY"] },
  },
  {
    currency: "MWK",
    market: market("MW", "Africa/Blantyre"),
    maximum: 1_700_000_000,
    accounts: { MWK_ACCOUNT: ["MOBILE_MONEY"] },
  },
  {
    currency: "MYR",
    market: market("MY", "Asia/Kuala_Lumpur"),
    maximum: 4_000_000,
    accounts: { MYR_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "NGN",
    market: market("NG", "Africa/Lagos"),
    maximum: 1_500_000_000,
    accounts: { NGN_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "PKR",
    market: market("PK", "Asia/Karachi"),
    maximum: 280_000_000,
    accounts: { PKR_ACCOUNT: ["BANK_TRANSFER", "MOBILE_MONEY"] },
  },
  {
    currency: "RWF",
    market: market("RW", "Africa/Kigali"),
    maximum: 1_400_000_000,
    accounts: { RWF_ACCOUNT: ["MOBILE_MONEY"] },
  },
  {
    currency: "THB",
    market: market("TH", "Asia/Bangkok"),
    maximum: 35_000_000,
    accounts: { THB_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "TZS",
    market: market("TZ", "Africa/Dar_es_Salaam"),
    maximum: 2_500_000_000,
    accounts: { TZS_ACCOUNT: ["MOBILE_MONEY"] },
  },
  {
    currency: "UGX",
    market: market("UG", "Africa/Kampala"),
    maximum: 3_700_000_000,
    accounts: { UGX_ACCOUNT: ["MOBILE_MONEY"] },
  },
  {
    currency: "VND",
    market: market("VN", "Asia/Ho_Chi_Minh"),
    maximum: 25_000_000_000,
    accounts: { VND_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "XAF",
    market: { countries: ["CM", "CG"], calendar: "CM", timeZone: "Africa/Douala" },
    maximum: 600_000_000,
    accounts: { XAF_ACCOUNT: ["MOBILE_MONEY"] },
  },
  {
    currency: "XOF",
    market: { countries: ["BJ", "CI", "SN", "TG"], calendar: "SN", timeZone: "Africa/Dakar" },
    maximum: 600_000_000,
    accounts: { XOF_ACCOUNT: ["MOBILE_MONEY"] },
  },
  {
    currency: "ZAR",
    market: market("ZA", "Africa/Johannesburg"),
    maximum: 18_000_000,
    accounts: { ZAR_ACCOUNT: ["BANK_TRANSFER"] },
  },
  {
    currency: "ZMW",
    market: market("ZM", "Africa/Lusaka"),
    maximum: 25_000_000,
    accounts: { ZMW_ACCOUNT: ["MOBILE_MONEY"] },
  },
];

/** SWIFT_ACCOUNT receives every corridor's currency over SWIFT, settling on that currency's calendar. */
export const SWIFT_ACCOUNT = "SWIFT_ACCOUNT";

/** ACH_SAME_DAY is never chosen automatically (spec, Versioning 5; conventions §3.5). */
const pinnedOnlyRails: ReadonlySet<PaymentRail> = new Set(["ACH_SAME_DAY"]);

/** One rail of a corridor. */
export interface RailRoute {
  rail: PaymentRail;
  kind: RailKind;
  /** Account types paid over this rail. */
  accountTypes: readonly string[];
  /** Whether automatic selection may choose it (false: only when pinned). */
  automatic: boolean;
  /** Per-payment cap in major units, if the rail has one below the corridor maximum. */
  cap?: number;
  /** The market whose calendar and time zone settle it. */
  market: Market;
}

export interface Corridor {
  currency: string;
  market: Market;
  /** Single-transaction maximum in major units. */
  maximum: number;
  /** Every account type receiving the currency, SWIFT_ACCOUNT last. */
  accountTypes: readonly string[];
  /** Every rail, in order of preference. */
  rails: readonly RailRoute[];
}

function build(entry: CorridorEntry): Corridor {
  const accounts: Record<string, readonly PaymentRail[]> = { ...entry.accounts, [SWIFT_ACCOUNT]: ["SWIFT"] };
  const routes = new Map<PaymentRail, RailRoute & { accountTypes: string[] }>();
  for (const [accountType, rails] of Object.entries(accounts)) {
    const routeMarket = entry.accountMarkets?.[accountType] ?? entry.market;
    for (const rail of rails) {
      const known = routes.get(rail);
      if (known) {
        if (known.market !== routeMarket) throw new Error(`${entry.currency} ${rail}: two markets`);
        known.accountTypes.push(accountType);
        continue;
      }
      const cap = entry.railCaps?.[rail];
      routes.set(rail, {
        rail,
        kind: railKind(rail),
        accountTypes: [accountType],
        automatic: !pinnedOnlyRails.has(rail),
        ...(cap === undefined ? {} : { cap }),
        market: routeMarket,
      });
    }
  }
  return {
    currency: entry.currency,
    market: entry.market,
    maximum: entry.maximum,
    accountTypes: Object.keys(accounts),
    rails: [...routes.values()],
  };
}

/** Every corridor, in table order. */
export const corridors: readonly Corridor[] = table.map(build);

const byCurrency = new Map(corridors.map((corridor) => [corridor.currency, corridor]));

/** The corridor receiving `currency`, or undefined where there is none. */
export function corridorFor(currency: string): Corridor | undefined {
  return byCurrency.get(currency);
}

/** The routes of a corridor, in order of preference, optionally only those paying an account type. */
export function routesFor(currency: string, accountType?: string): RailRoute[] {
  const rails = corridorFor(currency)?.rails ?? [];
  return accountType === undefined
    ? [...rails]
    : rails.filter((route) => route.accountTypes.includes(accountType));
}

/** The rails serving `currency` (to `accountType`, if given), in order of preference. */
export function railsFor(currency: string, accountType?: string): PaymentRail[] {
  return routesFor(currency, accountType).map((route) => route.rail);
}

/**
 * The rail chosen when `destination.paymentRail` is not pinned: the first automatic rail (to
 * `accountType`, if given). USD is ACH; ACH_SAME_DAY is never automatic.
 */
export function defaultRail(currency: string, accountType?: string): PaymentRail | undefined {
  return routesFor(currency, accountType).find((route) => route.automatic)?.rail;
}

/** Whether the corridor of `currency` serves `rail` (to `accountType`, if given). */
export function servesRail(currency: string, rail: string, accountType?: string): boolean {
  return routesFor(currency, accountType).some((route) => route.rail === rail);
}

/** The route of `rail` in the corridor of `currency`, or undefined. */
export function routeOf(currency: string, rail: string): RailRoute | undefined {
  return corridorFor(currency)?.rails.find((route) => route.rail === rail);
}

/** The currencies an account type receives (SWIFT_ACCOUNT: every corridor's). */
export function currenciesFor(accountType: string): string[] {
  return corridors.filter((corridor) => corridor.accountTypes.includes(accountType)).map((c) => c.currency);
}
