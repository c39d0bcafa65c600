import { Paginator } from '@fflkit/sdk';
import { describe, expect, it } from 'vitest';
import { page } from './support/page';

describe('Paginator', () => {
  it('stops at the page whose links.next is null', async () => {
    const asked: number[] = [];
    const paginator = new Paginator((number) => {
      asked.push(number);
      return Promise.resolve(page(['a', 'b', 'c'], number, 2));
    });
    const items: string[] = [];
    for await (const item of paginator) items.push(item);
    expect(items).toEqual(['a', 'b', 'c']);
    expect(asked).toEqual([1, 2]);
  });

  it('stops at an empty page even if it claims a next one', async () => {
    const asked: number[] = [];
    const paginator = new Paginator((number) => {
      asked.push(number);
      return Promise.resolve({
        ...page<string>([], number, 2),
        links: { first: '', last: '', prev: null, next: 'more' },
      });
    });
    for await (const _ of paginator.pages()) {
      // The loop body is never the point here: the stop condition is.
    }
    expect(asked).toEqual([1]);
  });

  it('passes a failed page on to the loop', async () => {
    const paginator = new Paginator<string>(() => Promise.reject(new Error('boom')));
    await expect(
      (async () => {
        for await (const _ of paginator) return;
      })(),
    ).rejects.toThrow('boom');
  });
});
