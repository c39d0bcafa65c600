import { describe, expect, it } from 'vitest';
import { normaliseTranscript } from './normalise-transcript';
import type { TranscriptEntry } from './transcript';

const HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** A receipt created, then read by id: what a face would record, with the given values. */
function createThenGet(origin: string, id: number, readId: number, token: string, time: string): TranscriptEntry[] {
  const receipt = { id, user_id: 3, record: 1, serial_number: 'PAR-1', receipt_date: '2025-01-15', created_at: time };
  return [
    { note: 'account', value: { account: { id: 3, account_type: 'dealer' }, token } },
    { exchange: 'POST /rest/v1/receipts', status: 201, headers: HEADERS, body: { data: receipt } },
    {
      exchange: `GET /rest/v1/receipts/${readId}`,
      status: 200,
      headers: { ...HEADERS, 'retry-after': '12' },
      body: { data: { ...receipt, id: readId }, links: { first: `${origin}/rest/v1/receipts?page=1` } },
    },
  ];
}

const sandboxOrigins = { origin: 'http://127.0.0.1:4010', receiver: 'http://127.0.0.1:5000' };
const mswOrigins = { origin: 'https://logbook.example.test', receiver: 'http://127.0.0.1:6000' };

describe('normaliseTranscript(entries, origins)', () => {
  it('makes transcripts equal that differ only in origins, ids, tokens, times and retry delays', () => {
    const sandbox = normaliseTranscript(
      createThenGet(sandboxOrigins.origin, 5, 5, 'sbx_aaa', '2025-03-01T10:00:00Z'),
      sandboxOrigins,
    );
    const msw = normaliseTranscript(
      createThenGet(mswOrigins.origin, 9, 9, 'sbx_bbb', '2025-03-01T10:00:07Z'),
      mswOrigins,
    );
    expect(msw).toEqual(sandbox);
    expect(JSON.stringify(sandbox)).toContain('"exchange":"GET /rest/v1/receipts/<receipt:1>"');
    expect(JSON.stringify(sandbox)).toContain('"first":"<origin>/rest/v1/receipts?page=1"');
  });

  it('stands in for times in links too, where they are percent-encoded', () => {
    const link = (time: string) => [
      {
        exchange: 'GET /rest/v1/receipts',
        status: 200,
        headers: HEADERS,
        body: {
          links: { first: `${sandboxOrigins.origin}/rest/v1/receipts?since=${encodeURIComponent(time)}&page=1` },
        },
      },
    ];
    expect(normaliseTranscript(link('2025-03-01T10:00:07Z'), sandboxOrigins)).toEqual(
      normaliseTranscript(link('2025-03-01T10:00:00Z'), sandboxOrigins),
    );
    expect(JSON.stringify(normaliseTranscript(link('2025-03-01T10:00:00+02:00'), sandboxOrigins))).toContain(
      'since=<time>&page=1',
    );
  });

  it('tells apart a transcript that reads another record than the one it created', () => {
    const sandbox = normaliseTranscript(
      createThenGet(sandboxOrigins.origin, 5, 5, 'sbx_aaa', '2025-03-01T10:00:00Z'),
      sandboxOrigins,
    );
    const msw = normaliseTranscript(
      createThenGet(mswOrigins.origin, 9, 10, 'sbx_bbb', '2025-03-01T10:00:00Z'),
      mswOrigins,
    );
    expect(msw).not.toEqual(sandbox);
  });

  it('keeps statuses, record numbers, dates and messages as they are', () => {
    const entries = createThenGet(sandboxOrigins.origin, 5, 5, 'sbx_aaa', '2025-03-01T10:00:00Z');
    const changed: TranscriptEntry[] = entries.map((entry) =>
      'exchange' in entry && entry.status === 201 ? { ...entry, status: 200 } : entry,
    );
    expect(normaliseTranscript(changed, sandboxOrigins)).not.toEqual(normaliseTranscript(entries, sandboxOrigins));
    expect(JSON.stringify(normaliseTranscript(entries, sandboxOrigins))).toContain('"receipt_date":"2025-01-15"');
  });
});
