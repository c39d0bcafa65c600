/** A record with a numeric id. */
export interface WithId {
  readonly id: number;
}

/**
 * Puts a record into an array ordered by ascending id, replacing the record of the same id if
 * there is one. New receipts have the largest id yet, so the common case is a push.
 *
 * @example
 * ```ts
 * const records = [{ id: 1 }, { id: 3 }];
 * upsertById(records, { id: 2 }); // records are ids 1, 2, 3
 * ```
 */
export function upsertById<T extends WithId>(records: T[], record: T): void {
  const last = records[records.length - 1];
  if (last === undefined || last.id < record.id) {
    records.push(record);
    return;
  }
  const at = lowerBound(records, record.id);
  if (records[at]?.id === record.id) records[at] = record;
  else records.splice(at, 0, record);
}

/**
 * Takes the record of an id out of an array ordered by ascending id, if it is there.
 *
 * @example
 * ```ts
 * const records = [{ id: 1 }, { id: 2 }];
 * removeById(records, 1); // records are id 2
 * ```
 */
export function removeById<T extends WithId>(records: T[], id: number): void {
  const at = lowerBound(records, id);
  if (records[at]?.id === id) records.splice(at, 1);
}

function lowerBound(records: readonly WithId[], id: number): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((records[middle]?.id ?? 0) < id) low = middle + 1;
    else high = middle;
  }
  return low;
}
