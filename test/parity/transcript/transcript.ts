import type { FetchFunction } from '@fflkit/sdk';

/** Response headers that carry behaviour (authentication, rate limit); the rest is transport. */
const RECORDED_HEADERS = [
  'content-type',
  'www-authenticate',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'retry-after',
  'x-ratelimit-reset',
  'x-sandbox-fault',
] as const;

/** One HTTP request and its answer, as a face gave it. */
export interface ExchangeEntry {
  /** Method, path and decoded query: `GET /rest/v1/receipts?page=2&per_page=2`. */
  readonly exchange: string;
  /** The answer's status; 0 when the connection closed without one. */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; the text when it is not JSON; `null` when empty. */
  readonly body: unknown;
}

/** What one SDK call gave the integrator: its result, or the error it threw. */
export interface StepEntry {
  readonly step: string;
  readonly returned?: unknown;
  readonly threw?: unknown;
}

/** A value a scenario looked at besides the API's answers, such as the requests a receiver got. */
export interface NoteEntry {
  readonly note: string;
  readonly value: unknown;
}

/** One line of a transcript. */
export type TranscriptEntry = ExchangeEntry | StepEntry | NoteEntry;

/**
 * Everything a scenario saw on one face, in order: every HTTP exchange, the outcome of every SDK
 * call and the notes. Two faces agree when their normalised transcripts are equal.
 *
 * @example
 * ```ts
 * const transcript = new Transcript();
 * const logbook = new LogbookClient({ token, baseUrl, fetch: transcript.recordingFetch() });
 * ```
 */
export class Transcript {
  readonly entries: TranscriptEntry[] = [];

  /**
   * A `fetch` that sends with the global one (looked up at each call, so MSW's interception
   * applies) and records the exchange before handing the response on; `view` picks what of a
   * body is recorded, for bodies that echo the transport (such as the request log's headers).
   */
  recordingFetch(view: (body: unknown) => unknown = (body) => body): FetchFunction {
    return async (input, init) => {
      const url = new URL(input);
      let response: Response;
      try {
        response = await globalThis.fetch(input, init);
      } catch (error) {
        // No answer: a dropped connection, which each face's fetch words its own way.
        this.entries.push({
          exchange: `${init.method ?? 'GET'} ${url.pathname}${decodeURIComponent(url.search)}`,
          status: 0,
          headers: {},
          body: null,
        });
        throw error;
      }
      const headers: Record<string, string> = {};
      for (const name of RECORDED_HEADERS) {
        const value = response.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      this.entries.push({
        exchange: `${init.method ?? 'GET'} ${url.pathname}${decodeURIComponent(url.search)}`,
        status: response.status,
        headers,
        body: view(parseBody(await response.clone().text())),
      });
      return response;
    };
  }

  /** Appends a step's outcome or a note. */
  record(entry: StepEntry | NoteEntry): void {
    this.entries.push(entry);
  }

  /** The status of every exchange so far, in order. */
  statuses(): number[] {
    return this.entries.flatMap((entry) => ('exchange' in entry ? [entry.status] : []));
  }
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
