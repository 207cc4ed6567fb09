-- Existing changes get their running count in (effective_at, id) order per account.
UPDATE balance_changes AS c SET count_after = ordered.n
FROM (
  SELECT id, row_number() OVER (PARTITION BY account_id ORDER BY effective_at, id) AS n FROM balance_changes
) AS ordered
WHERE ordered.id = c.id;
