import type { SandboxDelivery, SandboxRequestLogEntry } from '@fflkit/types';

// The sandbox's event stream (`GET /_sandbox/events`) as a client reads it: server-sent events
// parsed from the bytes of the response, one parser for every reader (`connectSandbox().events()`,
// `fflkit-sandbox tail`, the console).

/** What the event stream tells of: a request answered, or a delivery made or attempted. */
export type ActivityEvent =
  | { readonly event: 'request'; readonly data: SandboxRequestLogEntry }
  | { readonly event: 'delivery'; readonly data: SandboxDelivery };

/** One server-sent event: its name (`message` when it gives none) and its data lines joined. */
export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * The server-sent events of a stream of bytes, in order, as the HTML standard reads them: lines
 * end with LF, CRLF or CR; a blank line ends an event; `:` starts a comment; a field's value
 * loses one leading space; an event without data is skipped. Ends when the stream ends; rejects
 * with the stream's error.
 */
export async function* readServerSentEvents(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let name = '';
  let data: string[] = [];
  try {
    for (let ended = false; !ended; ) {
      const { value, done } = await reader.read();
      ended = done;
      if (!done) buffered += decoder.decode(value, { stream: true });
      // A CR at the end may be the first half of a CRLF: it waits for the next chunk, if any.
      for (let end = lineEnd(buffered, ended); end !== -1; end = lineEnd(buffered, ended)) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(buffered.startsWith('\r\n', end) ? end + 2 : end + 1);
        if (line === '') {
          if (data.length > 0) yield { event: name === '' ? 'message' : name, data: data.join('\n') };
          name = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const text = colon === -1 ? '' : line.slice(colon + (line.startsWith(' ', colon + 1) ? 2 : 1));
        if (field === 'event') name = text;
        else if (field === 'data') data.push(text);
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * Where the first line of `text` ends (at its CR or LF); `-1` until a whole line is there. A CR
 * that ends the text ends a line only once the stream has `ended`.
 */
function lineEnd(text: string, ended: boolean): number {
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 10) return at;
    if (code === 13) return at + 1 < text.length || ended ? at : -1;
  }
  return -1;
}

/**
 * The sandbox's activity events of an event stream: `request` and `delivery` events with their
 * JSON data. Events of another name are skipped, so that a newer sandbox's are not misread.
 */
export async function* readActivityEvents(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<ActivityEvent, void, undefined> {
  for await (const { event, data } of readServerSentEvents(stream)) {
    if (event === 'request' || event === 'delivery') yield { event, data: JSON.parse(data) } as ActivityEvent;
  }
}
