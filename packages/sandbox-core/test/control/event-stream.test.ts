import { readActivityEvents, readServerSentEvents } from '@fflkit/sandbox-core/control';
import { describe, expect, it } from 'vitest';

/** A stream that gives `chunks` as they are, each its own read. */
function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function eventsOf(stream: ReadableStream<Uint8Array>): Promise<{ event: string; data: string }[]> {
  const events = [];
  for await (const event of readServerSentEvents(stream)) events.push(event);
  return events;
}

describe('readServerSentEvents(stream)', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('reads events whose lines end with %s', async (_name, end) => {
    const text = `: following${end}${end}event: request${end}data: {"a":1}${end}${end}data: two${end}data: lines${end}${end}`;
    expect(await eventsOf(streamOf(text))).toEqual([
      { event: 'request', data: '{"a":1}' },
      { event: 'message', data: 'two\nlines' },
    ]);
  });

  it('reads an event cut across chunks, a CRLF split between two included', async () => {
    const events = await eventsOf(streamOf('event: deliv', 'ery\r', '\ndata:{"b"', ':2}\r\n\r', '\n'));
    expect(events).toEqual([{ event: 'delivery', data: '{"b":2}' }]);
  });

  it('reads a character of several bytes cut across chunks', async () => {
    const bytes = new TextEncoder().encode('data: caf\u00e9\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 9));
        controller.enqueue(bytes.slice(9));
        controller.close();
      },
    });
    expect(await eventsOf(stream)).toEqual([{ event: 'message', data: 'caf\u00e9' }]);
  });

  it('skips comments and events without data, and takes one space after the colon only', async () => {
    const events = await eventsOf(streamOf(': keep-alive\n\nevent: request\n\ndata:  two spaces\nid: 7\n\n'));
    expect(events).toEqual([{ event: 'message', data: ' two spaces' }]);
  });

  it('drops an event the stream ended before its blank line', async () => {
    expect(await eventsOf(streamOf('data: whole\n\ndata: cut'))).toEqual([{ event: 'message', data: 'whole' }]);
  });
});

describe('readActivityEvents(stream)', () => {
  it('yields the request and delivery events with their JSON data, and skips events of other names', async () => {
    const stream = streamOf(
      'event: request\r\ndata: {"id":1}\r\n\r\n',
      'event: newer\r\ndata: {}\r\n\r\n',
      'event: delivery\r\ndata: {"id":"d"}\r\n\r\n',
    );
    const events = [];
    for await (const event of readActivityEvents(stream)) events.push(event);
    expect(events).toEqual([
      { event: 'request', data: { id: 1 } },
      { event: 'delivery', data: { id: 'd' } },
    ]);
  });
});
