import { describe, expect, it, vi } from 'vitest';
import { createBodySerializer } from '../src/body-serializer';

const receipt = (id: number) =>
  Object.freeze({
    id,
    serial_number: `BB${id}`,
    importer: null,
    disposition: Object.freeze({ disposed_to: 'Jane Doe', address: 'Ünïcode Straße 1' }),
    documents: Object.freeze([Object.freeze({ id: 1, name: 'invoice.pdf' })]),
  });

describe('createBodySerializer()', () => {
  it.each([
    ['a page', { data: [receipt(1), receipt(2)], links: { next: null }, meta: { total: 2 } }],
    ['a page whose data is not the first member', { meta: { total: 1 }, data: [receipt(1)] }],
    ['an empty list', { data: [] }],
    ['a list of mutable items', { data: [{ id: 1, tags: ['a'] }, 'text', 3, null] }],
    ['a list holding values without a JSON form', { data: [undefined, () => 1, new Date(0)] }],
    ['members without a JSON form', { before: undefined, data: [receipt(3)], after: () => 1 }],
    ['one resource', { data: receipt(4) }],
    ['an error body', { message: 'The given data was invalid.', errors: { q: ['The q field is required.'] } }],
    ['a body with toJSON', { data: [receipt(5)], toJSON: () => ({ replaced: true }) }],
    ['a list', [receipt(6)]],
  ])('returns the bytes of JSON.stringify for %s', (_, body) => {
    const serialize = createBodySerializer();
    expect(serialize(body).toString('utf8')).toBe(JSON.stringify(body));
    expect(serialize(body).toString('utf8')).toBe(JSON.stringify(body));
  });

  it('serialises a deeply frozen item, which cannot change, only the first time', () => {
    const serialize = createBodySerializer();
    const item = receipt(1);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      serialize({ data: [item] });
      serialize({ data: [item] });
      expect(stringify.mock.calls.filter(([value]) => value === item)).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it('serialises afresh an item that is frozen only on the surface, so a change shows', () => {
    const serialize = createBodySerializer();
    const nested = { disposed_to: 'Jane Doe' };
    const item = Object.freeze({ id: 1, disposition: nested });
    expect(serialize({ data: [item] }).toString()).toContain('Jane Doe');
    nested.disposed_to = 'John Roe';
    expect(serialize({ data: [item] }).toString()).toBe(JSON.stringify({ data: [item] }));
  });

  it('serialises afresh a frozen item with a getter, whose value may change', () => {
    const serialize = createBodySerializer();
    let count = 0;
    const item = Object.freeze({
      get count() {
        count += 1;
        return count;
      },
    });
    expect(serialize({ data: [item] }).toString()).toBe('{"data":[{"count":1}]}');
    expect(serialize({ data: [item] }).toString()).toBe('{"data":[{"count":2}]}');
  });

  it('returns the same bytes for a deeply frozen body, serialised only the first time', () => {
    const serialize = createBodySerializer();
    const body = Object.freeze({ data: Object.freeze([receipt(1)]), meta: Object.freeze({ total: 1 }) });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const first = serialize(body);
      expect(serialize(body)).toBe(first);
      expect(first.toString('utf8')).toBe(JSON.stringify(body));
      expect(stringify.mock.calls.filter(([value]) => value === body.meta)).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it('serialises afresh a body that is frozen only on the surface, so a change shows', () => {
    const serialize = createBodySerializer();
    const meta = { total: 1 };
    const body = Object.freeze({ data: Object.freeze([receipt(1)]), meta });
    serialize(body);
    meta.total = 2;
    expect(serialize(body).toString('utf8')).toBe(JSON.stringify(body));
  });
});
