import { accountExamples } from "./operation-examples-accounts.js";
import { authExamples } from "./operation-examples-auth.js";
import { paymentExamples } from "./operation-examples-payments.js";
import { sandboxExamples } from "./operation-examples-sandbox.js";

/**
 * Request body examples keyed like the operation table (`METHOD /path`), by area. The table's own
 * `example` (operation-docs*.ts) wins where both have one; an operation whose body is `{}` needs neither.
 */
export const operationExamples: Record<string, unknown> = {
  ...accountExamples,
  ...authExamples,
  ...paymentExamples,
  ...sandboxExamples,
};
