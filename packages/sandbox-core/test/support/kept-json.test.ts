import { describe, expect, it } from 'vitest';
import { keptByIdentity } from '../../src/support/kept-json';

/** `JSON.stringify` kept by identity, with the count of the serialisations it made. */
function counted() {
  let made = 0;
  const text = keptByIdentity((value) => {
    made += 1;
    return JSON.stringify(value);
  });
  return { text, made: () => made };
}

describe('keptByIdentity()', () => {
  it('serialises a deeply frozen plain value once, by identity', () => {
    const { text, made } = counted();
    const page = Object.freeze({ data: Object.freeze([Object.freeze({ id: 1, tags: Object.freeze(['a']) })]) });
    expect(text(page)).toBe('{"data":[{"id":1,"tags":["a"]}]}');
    expect(text(page)).toBe('{"data":[{"id":1,"tags":["a"]}]}');
    expect(made()).toBe(1);
    // An equal value of another identity is made afresh.
    text(Object.freeze({ data: page.data }));
    expect(made()).toBe(2);
  });

  it('serialises afresh, each time, a value whose JSON could change', () => {
    const { text, made } = counted();
    const inner = { id: 1 };
    const shallow = Object.freeze({ data: inner });
    expect(text(shallow)).toBe('{"data":{"id":1}}');
    inner.id = 2;
    expect(text(shallow)).toBe('{"data":{"id":2}}');
    const withGetter = Object.freeze(Object.defineProperty({}, 'now', { get: () => made(), enumerable: true }));
    expect(text(withGetter)).not.toBe(text(withGetter));
    const withToJson = Object.freeze({ toJSON: () => made() });
    expect(text(withToJson)).not.toBe(text(withToJson));
    const thawed = { id: 3 };
    expect(text(thawed)).toBe('{"id":3}');
    thawed.id = 4;
    expect(text(thawed)).toBe('{"id":4}');
  });

  it('passes primitives and null through', () => {
    const { text } = counted();
    expect([text(1), text('a'), text(null), text(undefined)]).toEqual(['1', '"a"', 'null', undefined]);
  });
});
