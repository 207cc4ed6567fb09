/**
 * Banks and wallet providers a payout can reach, by country (`GET /discoveries`). Sandbox data: a few
 * well-known receiving institutions per country; a country without an entry lists its sandbox bank.
 */
const known: Readonly<Record<string, readonly string[]>> = {
  US: ["JPMorgan Chase Bank", "Bank of America", "Wells Fargo Bank"],
  SV: ["Banco Agrícola", "Banco Cuscatlán"],
  MX: ["BBVA México", "Banorte", "Santander México"],
  BR: ["Itaú Unibanco", "Banco do Brasil", "Nu Pagamentos"],
  CO: ["Bancolombia", "Banco de Bogotá", "Nequi"],
  GT: ["Banco Industrial", "Banrural"],
  HT: ["Unibank", "Sogebank"],
  JM: ["National Commercial Bank Jamaica", "Scotiabank Jamaica"],
  CA: ["Royal Bank of Canada", "TD Canada Trust"],
  GB: ["Barclays", "HSBC UK", "Lloyds Bank"],
  DE: ["Deutsche Bank", "Commerzbank"],
  FR: ["BNP Paribas", "Société Générale"],
  ES: ["Banco Santander", "BBVA"],
  IT: ["Intesa Sanpaolo", "UniCredit"],
  NL: ["ING", "ABN AMRO"],
  DK: ["Danske Bank", "Nordea Danmark"],
  IN: ["State Bank of India", "HDFC Bank", "ICICI Bank"],
  PH: ["BDO Unibank", "Bank of the Philippine Islands", "GCash"],
  SG: ["DBS Bank", "OCBC Bank", "UOB"],
  HK: ["HSBC Hong Kong", "Bank of China (Hong Kong)"],
  CN: ["Industrial and Commercial Bank of China", "Bank of China"],
  ID: ["Bank Central Asia", "Bank Mandiri"],
  MY: ["Maybank", "CIMB Bank"],
  TH: ["Bangkok Bank", "Kasikornbank"],
  VN: ["Vietcombank", "Techcombank"],
  PK: ["Habib Bank", "JazzCash"],
  BD: ["Sonali Bank", "bKash"],
  AE: ["Emirates NBD", "First Abu Dhabi Bank"],
  EG: ["National Bank of Egypt", "Banque Misr"],
  NG: ["Zenith Bank", "Access Bank", "Guaranty Trust Bank"],
  GH: ["GCB Bank", "MTN Mobile Money"],
  KE: ["Equity Bank", "M-PESA"],
  TZ: ["CRDB Bank", "M-Pesa Tanzania"],
  UG: ["Stanbic Bank Uganda", "MTN Mobile Money Uganda"],
  RW: ["Bank of Kigali", "MTN MoMo Rwanda"],
  MW: ["National Bank of Malawi", "Airtel Money Malawi"],
  ZM: ["Zanaco", "MTN MoMo Zambia"],
  BW: ["First National Bank Botswana", "Orange Money Botswana"],
  ZA: ["Standard Bank", "FirstRand Bank"],
  SN: ["Ecobank Sénégal", "Orange Money Sénégal", "Wave"],
  CM: ["Afriland First Bank", "MTN Mobile Money Cameroon"],
};

/** The receiving institutions of a country: its known ones, else its sandbox bank. */
export function providersIn(country: string): readonly string[] {
  return known[country] ?? [`paysvc sandbox bank (${country})`];
}
