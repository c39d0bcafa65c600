import { receiptResource } from '@fflkit/test-fixtures';
import { describe, expect, it } from 'vitest';
import { choiceGoverning } from '../../src/contract-check/choices';
import { SchemaChecker } from '../../src/contract-check/schema-check';

// Values against the contract's schemas: one problem per place, at the pointer a person would
// name, with the contract location that decides the choice it contradicts.

const schemas = new SchemaChecker();
const RECEIPT = '#/components/schemas/Receipt';

describe('SchemaChecker.check()', () => {
  it('finds nothing wrong with the contract example', () => {
    expect(schemas.check(RECEIPT, receiptResource())).toEqual([]);
  });

  it('names a missing field at its own pointer, and a field of another type', () => {
    const { documents: _, ...rest } = receiptResource();
    expect(schemas.check(RECEIPT, { ...rest, record: '318' })).toEqual([
      { pointer: '/documents', location: '#/components/schemas/Receipt/required', expected: 'present', seen: 'absent' },
      {
        pointer: '/record',
        location: '#/components/schemas/Receipt/properties/record/type',
        expected: 'an integer',
        seen: 'the string "318"',
      },
    ]);
  });

  it('tells a renamed field once, as the missing one and what stands in its place', () => {
    const { model, ...rest } = receiptResource();
    expect(schemas.check(RECEIPT, { ...rest, model_name: model })).toEqual([
      {
        pointer: '/model',
        location: '#/components/schemas/Receipt/required',
        expected: 'present',
        seen: 'absent; the object has "model_name" instead, which the contract does not name',
      },
    ]);
  });

  it('judges a value that is not null by the branch of a oneOf meant for it', () => {
    const disposed = receiptResource({
      status: 'disposed',
      disposition: { disposition_date: '2025-04-02', disposed_to: 'John Q. Example' } as any,
    });
    expect(schemas.check(RECEIPT, disposed).map(({ pointer, expected }) => [pointer, expected])).toEqual([
      ['/disposition/address', 'present'],
      ['/disposition/city', 'present'],
      ['/disposition/state', 'present'],
      ['/disposition/zip', 'present'],
      ['/disposition/sold_price', 'present'],
      ['/disposition/nics_ccw', 'present'],
      ['/disposition/form_4473_serial', 'present'],
      ['/disposition/created_at', 'present'],
    ]);
  });

  it('lists the values a oneOf of constants allows', () => {
    const [problem] = schemas.check('#/components/schemas/WebhookSubscription', 'receipt.changed');
    expect(problem?.expected).toBe(
      'one of "receipt.created", "receipt.updated", "receipt.disposed", "receipt.deleted", "ping" or "*"',
    );
  });

  it.each([
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-04-31', false],
    ['2025-13-01', false],
    ['25-03-14', false],
  ])('takes %s as a date: %s', (date, valid) => {
    expect(schemas.check(RECEIPT, receiptResource({ receipt_date: date })).length === 0).toBe(valid);
  });

  it.each([
    ['2025-03-14T15:04:05Z', true],
    ['2025-03-14T15:04:05.123+02:00', true],
    ['2016-12-31T23:59:60Z', true],
    ['2025-03-14T15:04:05', false],
    ['2025-03-14T24:00:00Z', false],
    ['2025-02-30T10:00:00Z', false],
    ['2025-03-14T15:04:60Z', false],
  ])('takes %s as a date-time: %s', (moment, valid) => {
    expect(schemas.check(RECEIPT, receiptResource({ created_at: moment })).length === 0).toBe(valid);
  });
});

describe('choiceGoverning()', () => {
  it('names the nearest choice that governs a location', () => {
    expect(choiceGoverning('#/components/schemas/PaginationMeta/properties/total/type')).toBe('pagination.meta');
    expect(choiceGoverning('#/components/schemas/Receipt/properties/record/type')).toBe('receipts.record-number');
    expect(choiceGoverning('#/components/schemas/ReceiptPage/required')).toBe('pagination.envelope');
    expect(choiceGoverning('#/paths/~1receipts~1{id}/delete/responses')).toBe('receipts.delete');
  });

  it('names none where the service document decides', () => {
    expect(choiceGoverning('#/paths/~1receipts/post/responses')).toBeNull();
    expect(choiceGoverning('#/webhooks/ping/post/parameters/0')).toBeNull();
  });
});
