import { NotFoundError, Paginator, type Page, type Receipt } from '@fflkit/sdk';
import { describe, expect, it } from 'vitest';
import { findDeletions } from '../src/find-deletions';
import { silentProgress } from '../src/sync-progress';
import type { SyncSource } from '../src/sync-source';
import { makeReceipt } from './make-receipt';

const receipts = [1, 2, 3].map((id) => makeReceipt({ id, record: id }));
const mirror = new Map(receipts.map((receipt) => [receipt.id, receipt]));

/** A service that holds `existing` but lists only `listed` (a deletion shifted its pages). */
function fakeService(existing: readonly Receipt[], listed: readonly Receipt[] = existing) {
  const requests: string[] = [];
  const source: Pick<SyncSource, 'list' | 'iterate' | 'get'> = {
    list: async (params) => {
      requests.push(`list per_page=${params?.per_page}`);
      return page(existing.slice(0, params?.per_page ?? 25), existing.length);
    },
    iterate: () => {
      requests.push('iterate');
      return new Paginator(async () => page(listed, listed.length));
    },
    get: async (id) => {
      requests.push(`get ${id}`);
      const found = existing.find((receipt) => receipt.id === id);
      if (found === undefined)
        throw new NotFoundError({ status: 404, headers: new Headers(), body: undefined, message: '404' });
      return found;
    },
  };
  return { source, requests };
}

describe('findDeletions(receipts, mirror, userId, progress)', () => {
  it('finds nothing, with one request, when the service holds as many receipts as the mirror', async () => {
    const { source, requests } = fakeService(receipts);

    expect(await findDeletions(source, mirror, 7, silentProgress)).toEqual([]);
    expect(requests).toEqual(['list per_page=1']);
  });

  it('returns the receipts missing from the listing that the service answers 404 for', async () => {
    const { source, requests } = fakeService([receipts[0]!, receipts[2]!]);

    expect(await findDeletions(source, mirror, 7, silentProgress)).toEqual([2]);
    expect(requests).toEqual(['list per_page=1', 'iterate', 'get 2']);
  });

  it('keeps a receipt missing from the listing that still exists', async () => {
    const { source } = fakeService([receipts[0]!, receipts[1]!], [receipts[0]!]);

    // The service holds 1 and 2; 3 is gone, and 2 was skipped by the listing.
    expect(await findDeletions(source, mirror, 7, silentProgress)).toEqual([3]);
  });

  it('refuses to compare the mirror with the receipts of another account', async () => {
    const { source } = fakeService([makeReceipt({ id: 9, user_id: 8 })]);

    await expect(findDeletions(source, mirror, 7, silentProgress)).rejects.toThrow('the token is of account 8');
  });
});

function page(data: readonly Receipt[], total: number): Page<Receipt> {
  return {
    data: [...data],
    links: { first: '', last: '', prev: null, next: null },
    meta: { current_page: 1, from: 1, last_page: 1, path: '', per_page: 200, to: data.length, total },
  };
}
