import { accountEnding, type Corridor, iban, MISSING, mobileMoney, nubanEnding } from "./corridor-helpers.js";

export const africa: Corridor[] = [
  mobileMoney("BWP_ACCOUNT", "BWP", "+26771234567", "+26731234567"),
  {
    accountType: "EGP_ACCOUNT",
    currency: "EGP",
    info: {
      iban: "EG380019000500000000263180002",
      bankName: "National Bank of Egypt",
      phoneNumber: "+201001234567",
    },
    invalid: [
      ["iban", "EG380019000500000000263180003", "IBAN checksum"],
      ["phoneNumber", "+20223456789", "a mobile number of EG"],
    ],
    withSuffix: (suffix) => ({ iban: iban("EG", `0019000500000000263180${suffix}`) }),
  },
  {
    accountType: "GHS_ACCOUNT",
    currency: "GHS",
    info: { accountNumber: "1234567890456", bankName: "GCB Bank", phoneNumber: "+233241234567" },
    invalid: [
      ["bankName", MISSING, "bankName is required"],
      ["phoneNumber", "+233302123456", "a mobile number of GH"],
    ],
    withSuffix: accountEnding("1234567890456"),
  },
  mobileMoney("KES_ACCOUNT", "KES", "+254712345678", "+254202345678"),
  mobileMoney("MWK_ACCOUNT", "MWK", "+265991234567", "+2651234567"),
  {
    accountType: "NGN_ACCOUNT",
    currency: "NGN",
    info: { accountNumber: "2212345674", bankName: "Zenith Bank" },
    invalid: [
      ["accountNumber", "2212345675", "NUBAN check digit"],
      ["accountNumber", "123", "ten digits"],
      ["bankName", "", "1..255 characters"],
    ],
    withSuffix: (suffix) => ({ accountNumber: nubanEnding(suffix) }),
  },
  mobileMoney("RWF_ACCOUNT", "RWF", "+250781234567", "+250252123456"),
  mobileMoney("TZS_ACCOUNT", "TZS", "+255712345678", "+255222123456"),
  mobileMoney("UGX_ACCOUNT", "UGX", "+256712345678", "+256414123456"),
  {
    ...mobileMoney("XAF_ACCOUNT", "XAF", "+237671234567", "+242061234567", { region: "CM" }),
    invalid: [
      ["phoneNumber", "+242061234567", "a mobile number of the region (CG, not CM)"],
      ["region", "GA", "CM or CG"],
    ],
  },
  {
    ...mobileMoney("XOF_ACCOUNT", "XOF", "+221771234567", "+22890123456", { region: "SN" }),
    invalid: [
      ["phoneNumber", "+22890123456", "a mobile number of the region (TG, not SN)"],
      ["region", "ML", "BJ, CI, SN or TG"],
      ["provider", MISSING, "provider is required"],
    ],
  },
  {
    accountType: "ZAR_ACCOUNT",
    currency: "ZAR",
    info: { accountNumber: "62123456789", bankName: "FNB" },
    invalid: [["accountNumber", "12345678", "9 to 13 digits"]],
    withSuffix: accountEnding("62123456789"),
  },
  mobileMoney("ZMW_ACCOUNT", "ZMW", "+260971234567", "+260211123456"),
];
