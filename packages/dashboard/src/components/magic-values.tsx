/**
 * The sandbox's magic values (conventions §2.1, §3.6, §4.1, §5.4, §6.5): suffixes of the named strings that
 * choose an outcome. Kept next to the data so a developer can pick one while integrating.
 */
const TABLES: { title: string; reads: string; rows: [string, string][] }[] = [
  {
    title: "KYC",
    reads:
      "last 3 characters of fullName (individual), registrationNumber or a beneficial owner's lastName (business)",
    rows: [
      ["001", "PENDING (manual review; stays)"],
      ["002", "REJECTED"],
      ["003", "APPROVED after a complete packet"],
    ],
  },
  {
    title: "Payouts and transfers",
    reads: "last 3 characters of the external account's accountNumber (address for a wallet)",
    rows: [
      ["002", "quote payout FAILED QUOTE_EXECUTION_FAILED, refunded · transfer 400 INSUFFICIENT_FUNDS"],
      ["003", "PROCESSING about 6 minutes, then COMPLETED · transfer FAILED ACCOUNT_INVALID"],
      ["004", "FAILED ACCOUNT_CANNOT_RECEIVE, refunded · transfer FAILED COMPLIANCE_REJECTED"],
      ["005", "COMPLETED, then returned: FAILED PAYOUT_RETURNED"],
      ["006", "cancelled before payout: FAILED QUOTE_EXECUTION_FAILED, refunded"],
      ["007", "payout fails and so does its refund"],
    ],
  },
  {
    title: "Bank account validation",
    reads: "last 3 characters of accountNumber",
    rows: [
      ["008", "stays PENDING; payouts 409 BANK_ACCOUNT_VALIDATION_PENDING"],
      ["009", "INACTIVE; payouts 400 INVALID_BANK_ACCOUNT"],
    ],
  },
  {
    title: "Card authorizations",
    reads: "last 3 characters of the merchant descriptor",
    rows: [
      ["002", "DECLINED INSUFFICIENT_FUNDS"],
      ["003", "DECLINED CARD_NOT_ACTIVE"],
      ["005", "approved; funding pull and hold land about 30 s later"],
      ["006", "approved; its first clearing ends in EXCEPTION"],
      ["007 / 008 / 009", "DECLINED BLOCKED / UNSUPPORTED_NETWORK / OTHER"],
    ],
  },
  {
    title: "Card issuance",
    reads: "last 3 characters of platformCardId, else cardholderId",
    rows: [
      ["001", "stays PROCESSING"],
      ["002", "CLOSED ISSUER_REJECTED"],
      ["005", "ACTIVE after about 30 s"],
    ],
  },
];

export function MagicValues() {
  return (
    <>
      <p>
        One-time passcodes in the sandbox are always <code>000000</code>. Any other suffix takes the normal
        path.
      </p>
      {TABLES.map((table) => (
        <section key={table.title}>
          <h3>{table.title}</h3>
          <p>
            <small>Reads the {table.reads}.</small>
          </p>
          <table>
            <tbody>
              {table.rows.map(([suffix, outcome]) => (
                <tr key={suffix}>
                  <td>
                    <code>{suffix}</code>
                  </td>
                  <td>{outcome}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </>
  );
}
