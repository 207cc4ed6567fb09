import type { Page, PageParams } from "../types/common.js";
import { PaysvcError } from "./errors.js";

/**
 * Iterates every item of a paginated list, fetching the next page (`cursor` = the previous `nextCursor`)
 * only when the current one is used up, until `hasMore` is false:
 *
 *     for await (const token of paginate((p) => client.tokens.list(p), { limit: 100 })) { … }
 */
export async function* paginate<T, P extends PageParams>(
  list: (params: P) => Promise<Pick<Page<T>, "data" | "hasMore" | "nextCursor">>,
  params: P,
): AsyncGenerator<T, void, undefined> {
  let cursor = params.cursor;
  for (;;) {
    const page = await list({ ...params, cursor });
    yield* page.data;
    if (!page.hasMore) return;
    if (page.nextCursor === undefined || page.nextCursor === cursor) {
      // Following a missing or repeated cursor would loop forever over the same page.
      throw new PaysvcError({
        code: "INVALID_RESPONSE",
        reason: "A page with hasMore true did not give a new nextCursor.",
      });
    }
    cursor = page.nextCursor;
  }
}
