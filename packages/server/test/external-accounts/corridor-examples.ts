import { africa } from "./corridor-examples-africa.js";
import { americasEurope } from "./corridor-examples-americas-europe.js";
import { asiaSwift } from "./corridor-examples-asia.js";
import type { Corridor } from "./corridor-helpers.js";

export { accountInfo, type Corridor, MISSING, setPath } from "./corridor-helpers.js";

/** One example of every bank account type, by region as in src/external-accounts/bank-accounts/. */
export const corridors: Corridor[] = [...americasEurope, ...africa, ...asiaSwift];
