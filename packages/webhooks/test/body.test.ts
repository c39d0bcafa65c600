import { describe, expect, it } from 'vitest';
import { concatBytes, declaredLength, exceedsBytes } from '../src/body';

describe('concatBytes(chunks, size)', () => {
  it('joins the chunks in order', () => {
    expect(concatBytes([new Uint8Array([1]), new Uint8Array([2, 3]), new Uint8Array([])], 3)).toEqual(
      new Uint8Array([1, 2, 3]),
    );
  });

  it('returns a single chunk as it is, and no chunks as an empty array', () => {
    const chunk = new Uint8Array([4, 5]);
    expect(concatBytes([chunk], 2)).toBe(chunk);
    expect(concatBytes([], 0)).toEqual(new Uint8Array(0));
  });
});

describe('declaredLength(contentLength)', () => {
  it('returns the length a Content-Length header declares', () => {
    expect(declaredLength('0')).toBe(0);
    expect(declaredLength('1048577')).toBe(1_048_577);
  });

  it('returns undefined for a missing, empty, negative, fractional or non-numeric header', () => {
    for (const value of [null, undefined, '', '-1', '1.5', 'lots', '1e400'])
      expect(declaredLength(value)).toBeUndefined();
  });
});

describe('exceedsBytes(payload, maxBytes)', () => {
  it('measures bytes by their length', () => {
    expect(exceedsBytes(new Uint8Array(10), 10)).toBe(false);
    expect(exceedsBytes(new Uint8Array(11), 10)).toBe(true);
  });

  it('measures text in UTF-8 bytes, as it is signed', () => {
    const texts = [
      'plain ascii',
      'Prüfung ✓',
      'a rifle 🔫 and a pistol 🔫',
      'lone high \ud800 then text',
      'lone high at the end \ud800',
      'lone low \udc00 too',
      'é'.repeat(40),
      '✓'.repeat(40),
    ];
    for (const text of texts) {
      const bytes = Buffer.byteLength(text, 'utf8');
      for (const maxBytes of [bytes - 1, bytes, bytes + 1, Math.ceil(bytes / 2)]) {
        expect([text, maxBytes, exceedsBytes(text, maxBytes)]).toEqual([text, maxBytes, bytes > maxBytes]);
      }
    }
  });

  it('decides a text longer than the limit, or short enough for any encoding, by its length alone', () => {
    expect(exceedsBytes('x'.repeat(11), 10)).toBe(true);
    expect(exceedsBytes('✓'.repeat(3), 9)).toBe(false);
    expect(exceedsBytes('✓'.repeat(4), 9)).toBe(true);
  });
});
