import { Type } from "typebox";
import { StringEnum } from "../../core/http/schemas.js";

// TypeBox pieces of the bank-account schemas. Patterns and bounds are those of the hosted API's
// `<Ccy>ExternalAccountCreateInfo` schemas (../shared/reference/hosted-api/index.md "External account types").

/** A closed object: an unknown field is one FieldError (conventions §1.1). */
export const object = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

/** ISO 3166-1 alpha-2, officially assigned. */
export const Country = Type.String({ format: "iso3166-1-alpha-2" });

/** Free text of 1..`maxLength` characters. */
export const Text = (maxLength = 255) => Type.String({ minLength: 1, maxLength });

/** The account type's own name, the discriminator of `accountInfo`. */
export const accountType = <const T extends string>(name: T) => StringEnum([name]);

/** An account number the hosted schema bounds only by length. */
export const AccountNumber = Text(34);
export const BankName = Text(255);
export const Provider = Text(255);
export const BankAccountType = StringEnum(["CHECKING", "SAVINGS"]);

/** A BIC as the hosted API writes it: 8 or 11 characters (the check is bic() in checks.ts). */
export const SwiftCode = Type.String({ pattern: "^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$" });

/** A hosted `pattern`-only field. */
export const Pattern = (pattern: string) => Type.String({ pattern });

/** The hosted phone pattern most corridors use; some pin the country code (`Pattern("^\\+254[0-9]{9}$")`). */
export const Phone = Pattern("^\\+[0-9]{6,14}$");

/** Any IBAN shape (EUR and SWIFT accounts); the checksum and country format are checked by iban(). */
export const AnyIban = Pattern("^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$");

/** A five-digit branch code (BDT, CAD, JMD). */
export const BranchCode = Pattern("^[0-9]{5}$");
