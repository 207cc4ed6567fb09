export { PaysvcClient, type PaysvcClientOptions } from "./client.js";
export {
  ApiServerError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PaysvcError,
  type PaysvcErrorInit,
  PermissionError,
  RateLimitError,
} from "./errors.js";
export { paginate } from "./pagination.js";
export type { ApiResult, EmptyResult, RequestOptions, ResponseMeta } from "./request.js";
export { ConfigResource } from "./resources/config.js";
export { CustomersResource } from "./resources/customers.js";
export { InternalAccountsResource } from "./resources/internal-accounts.js";
export { TokensResource } from "./resources/tokens.js";
export type * from "./types.js";
