import { isIP } from "node:net";

// ISO 3166-1 alpha-2, officially assigned codes.
const alpha2 = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
    "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
    "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO " +
    "JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR " +
    "MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO " +
    "RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV " +
    "TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,3})?(Z|[+-](\d{2}):(\d{2}))$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** RFC 3339 with an explicit offset and at most 3 fractional digits (conventions §1.5). */
export function isDateTime(value: string): boolean {
  const m = dateTimePattern.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s, , , oh, om] = m;
  if (!isCalendarDate(Number(y), Number(mo), Number(d))) return false;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return false;
  return oh === undefined || (Number(oh) <= 23 && Number(om) <= 59);
}

export function isDate(value: string): boolean {
  const m = datePattern.exec(value);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** ABA routing number: 9 digits whose weighted sum 3-7-1 is a multiple of 10. */
export function isAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const sum = [0, 3, 6].reduce((acc, i) => acc + 3 * (d[i] ?? 0) + 7 * (d[i + 1] ?? 0) + (d[i + 2] ?? 0), 0);
  return sum % 10 === 0;
}

/**
 * Formats named with the interface's FieldConstraint vocabulary (HTML5 input types and slugs), so a
 * failing format is reported to clients under the same name the schema uses.
 */
export const formats: Record<string, (value: string) => boolean> = {
  "date-time": isDateTime,
  date: isDate,
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) && v.length <= 254,
  url: isHttpUrl,
  uri: isHttpUrl,
  tel: (v) => /^\+?[0-9 ()-]{4,20}$/.test(v),
  "e.164": (v) => /^\+[1-9]\d{1,14}$/.test(v),
  "iso3166-1-alpha-2": (v) => alpha2.has(v),
  "bcp47-language-tag": (v) => /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(v),
  "us-ssn": (v) => /^(?!000|666|9\d\d)\d{3}-?(?!00)\d{2}-?(?!0000)\d{4}$/.test(v),
  ip: (v) => isIP(v) !== 0,
  "aba-routing-number": isAbaRoutingNumber,
};
