import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/support/errors';
import Joi from 'joi';
import {
  FieldErrors,
  type LazySchema,
  laravelMessage,
  lazySchema,
  readJsonObject,
  validateFields,
  validationFailed,
} from '../../src/support/input';

describe('FieldErrors', () => {
  it('orders fields as asked, then by failure, and skips repeated messages', () => {
    const errors = new FieldErrors();
    errors.add('zip', 'z');
    errors.add('extra', 'e');
    errors.add('book', 'b');
    errors.add('book', 'b');
    errors.addFirst('book', 'second');
    expect(errors.toObject(['book', 'zip'])).toEqual({ book: ['b'], zip: ['z'], extra: ['e'] });
    expect(Object.keys(errors.toObject(['book', 'zip']))).toEqual(['book', 'zip', 'extra']);
  });
});

describe('validationFailed(errors, order)', () => {
  it('builds the 422 with the first message and the count of the others', () => {
    const errors = new FieldErrors();
    errors.add('a', 'First.');
    errors.add('a', 'Second.');
    errors.add('b', 'Third.');
    const error = validationFailed(errors);
    expect(error.status).toBe(422);
    expect(error.name).toBe('ApiError');
    expect(error.body).toEqual({
      message: 'First. (and 2 more errors)',
      errors: { a: ['First.', 'Second.'], b: ['Third.'] },
    });
  });
});

describe('laravelMessage(failure)', () => {
  it('falls back to a generic message for a rule it does not know', () => {
    expect(laravelMessage({ type: 'object.unknown', label: 'colour', required: false })).toBe(
      'The colour field is invalid.',
    );
  });
});

describe('readJsonObject(text, fields)', () => {
  it('reads an object after a byte order mark, and an absent or blank body as empty', () => {
    expect(readJsonObject('\uFEFF{"a":1}', ['a'])).toEqual({ a: 1 });
    expect(readJsonObject(undefined, [])).toEqual({});
    expect(readJsonObject(' \n', [])).toEqual({});
  });

  it('refuses a number of a known field that JSON.parse would store as another value, with its path', () => {
    const refusal = (text: string) => {
      try {
        readJsonObject(text, ['a', 'b', 'c']);
      } catch (error) {
        if (error instanceof ApiError) return error.body.errors;
        throw error;
      }
      return undefined;
    };
    expect(refusal('{"a":1e-400}')).toEqual({
      a: ['The a field must be a number that is stored as written: it would be stored as 0.'],
    });
    expect(refusal('{"a":{"b":[1, 2e0, 389.499999999999999999]}}')).toEqual({
      'a.b.2': ['The a.b.2 field must be a number that is stored as written: it would be stored as 389.5.'],
    });
    expect(refusal('{"b":"1e-400","c":[{"x":"\\"","y":1E400}]}')).toEqual({
      'c.0.y': ['The c.0.y field must be a number that is stored as written: it would be stored as Infinity.'],
    });
    expect(refusal('{"a":12345678901234567890}')).toMatchObject({
      a: [expect.stringContaining('12345678901234567000')],
    });
    // Numbers written another way but meaning the same value, and unknown fields, pass.
    expect(refusal('{"a":0.5e1,"b":-0,"c":1.230,"unknown":1e-400}')).toBeUndefined();
    expect(refusal('{"a":0.1,"b":1234567890123456,"c":1.5e2}')).toBeUndefined();
  });
});

describe('validateFields(schema, input, errors, required)', () => {
  const built = (): { schema: LazySchema; builds: () => number } => {
    let count = 0;
    const schema = lazySchema(() => {
      count += 1;
      return Joi.object({ name: Joi.string().trim().max(3) });
    });
    return { schema, builds: () => count };
  };

  it('answers an empty input that needs no field as it is, without building the schema', () => {
    const { schema, builds } = built();
    const errors = new FieldErrors();
    expect(validateFields(schema, {}, errors, new Set())).toEqual({});
    expect(errors.isEmpty).toBe(true);
    expect(builds()).toBe(0);
  });

  it('checks an empty input against the schema when a field is required', () => {
    const { schema, builds } = built();
    const errors = new FieldErrors();
    validateFields(schema, {}, errors, new Set(['name']));
    expect(builds()).toBe(1);
  });

  it('checks each field given, building the schema once', () => {
    const { schema, builds } = built();
    const errors = new FieldErrors();
    expect(validateFields(schema, { name: ' ab ' }, errors, new Set())).toEqual({ name: 'ab' });
    validateFields(schema, { name: 'abcd' }, errors, new Set());
    expect(errors.toObject()).toEqual({ name: ['The name field must not be greater than 3 characters.'] });
    expect(builds()).toBe(1);
  });
});
