import { accountOperationDocs } from "./operation-docs-accounts.js";
import { agentOperationDocs } from "./operation-docs-agents.js";
import { paymentOperationDocs } from "./operation-docs-payments.js";
import { sandboxOperationDocs } from "./operation-docs-sandbox.js";

export type { OperationDoc, OperationDocs } from "./operation-docs-types.js";

import type { OperationDocs } from "./operation-docs-types.js";

/** Every documented operation, keyed `METHOD /path` as in the document (path without the version). */
export const operationDocs: OperationDocs = {
  ...accountOperationDocs,
  ...paymentOperationDocs,
  ...agentOperationDocs,
  ...sandboxOperationDocs,
};

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
