/**
 * Every PaymentRail (conventions §3.5; the hosted API's enum plus ACH_SAME_DAY) and how it settles in the
 * sandbox (docs/guides/rails.md "Settlement"). The calendar and time zone come from the corridor.
 */
export const paymentRails = [
  "ACH",
  "ACH_SAME_DAY",
  "ACH_COLOMBIA",
  "BANK_TRANSFER",
  "BRE_B",
  "CIPS",
  "FAST",
  "FASTER_PAYMENTS",
  "FEDNOW",
  "INSTAPAY",
  "MOBILE_MONEY",
  "NEFT",
  "PAYNOW",
  "PESONET",
  "PIX",
  "RTGS",
  "RTP",
  "SEPA",
  "SEPA_INSTANT",
  "SPEI",
  "SWIFT",
  "UNIONPAY",
  "UPI",
  "WIRE",
] as const;
export type PaymentRail = (typeof paymentRails)[number];

/**
 * - `instant`: settles {@link INSTANT_SETTLEMENT_SECONDS} after execution, any day and hour.
 * - `batch`: settles at {@link SETTLEMENT_HOUR} local on a banking day of the corridor's calendar.
 * - `wire`: a gross payment released on banking days before a cut-off; settles at SETTLEMENT_HOUR local.
 */
export type RailKind = "instant" | "batch" | "wire";

/** A local wall time of the corridor's time zone. */
export interface WallClock {
  hour: number;
  minute: number;
}

export interface RailProfile {
  kind: RailKind;
  /**
   * Banking days to settlement, counted from the local date of execution (see `bankingDayFrom`): 0 is
   * that date if it is a banking day, else the next one; n ≥ 1 is the n-th banking day after it. A payment
   * at or after the cut-off on a banking day counts from the next banking day (one day more).
   */
  settlementDays: number;
  cutoff?: WallClock;
}

/** Instant rails settle this many seconds after execution on the platform clock. */
export const INSTANT_SETTLEMENT_SECONDS = 10;
/** Batch and wire rails settle at this local hour of the corridor's time zone (17:00 Chicago for ACH). */
export const SETTLEMENT_HOUR = 17;
/** Same-day ACH payouts after this Chicago wall time settle the next business day. */
export const SAME_DAY_CUTOFF: WallClock = { hour: 14, minute: 45 };
/** Fedwire's customer-transfer cut-off, 18:00 New York, as Chicago time (the USD corridor's zone). */
export const WIRE_CUTOFF: WallClock = { hour: 17, minute: 0 };
/** CIPS same-day cut-off, local (Asia/Shanghai). */
export const CIPS_CUTOFF: WallClock = { hour: 17, minute: 0 };
/** SWIFT payments instructed after this local time of the receiving corridor count from the next banking day. */
export const SWIFT_CUTOFF: WallClock = { hour: 15, minute: 0 };
/** SWIFT settles on the second banking day (T+2) of the receiving currency's calendar. */
export const SWIFT_SETTLEMENT_DAYS = 2;

const instant: RailProfile = { kind: "instant", settlementDays: 0 };
const nextBankingDay: RailProfile = { kind: "batch", settlementDays: 1 };

export const railProfiles: Readonly<Record<PaymentRail, RailProfile>> = {
  ACH: nextBankingDay,
  ACH_SAME_DAY: { kind: "batch", settlementDays: 0, cutoff: SAME_DAY_CUTOFF },
  ACH_COLOMBIA: nextBankingDay,
  BANK_TRANSFER: nextBankingDay,
  BRE_B: instant,
  CIPS: { kind: "wire", settlementDays: 0, cutoff: CIPS_CUTOFF },
  FAST: instant,
  FASTER_PAYMENTS: instant,
  FEDNOW: instant,
  INSTAPAY: instant,
  MOBILE_MONEY: instant,
  NEFT: nextBankingDay,
  PAYNOW: instant,
  PESONET: nextBankingDay,
  PIX: instant,
  // India's RTGS runs 24x7 since December 2020: real-time gross settlement, so instant here.
  RTGS: instant,
  RTP: instant,
  SEPA: nextBankingDay,
  SEPA_INSTANT: instant,
  SPEI: instant,
  SWIFT: { kind: "wire", settlementDays: SWIFT_SETTLEMENT_DAYS, cutoff: SWIFT_CUTOFF },
  // UnionPay card payouts are pushed to the card in real time.
  UNIONPAY: instant,
  UPI: instant,
  WIRE: { kind: "wire", settlementDays: 0, cutoff: WIRE_CUTOFF },
};

/** Whether a string is a PaymentRail. */
export function isPaymentRail(value: string): value is PaymentRail {
  return (paymentRails as readonly string[]).includes(value);
}

/** The settlement kind of a rail. */
export function railKind(rail: PaymentRail): RailKind {
  return railProfiles[rail].kind;
}
