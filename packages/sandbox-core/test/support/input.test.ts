import { describe, expect, it } from 'vitest';
import { FieldErrors, laravelMessage, validationFailed } from '../../src/support/input';

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
    expect(error.body).toEqual({ message: 'First. (and 2 more errors)', errors: { a: ['First.', 'Second.'], b: ['Third.'] } });
  });
});

describe('laravelMessage(failure)', () => {
  it('falls back to a generic message for a rule it does not know', () => {
    expect(laravelMessage({ type: 'object.unknown', label: 'colour', required: false })).toBe('The colour field is invalid.');
  });
});
