import { PassThrough } from 'node:stream';
import type { SandboxCore } from '@fflkit/sandbox-core';
import type { Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { errorReply } from './console-route';

// The control API's event stream: an account's requests and deliveries as server-sent events,
// what `fflkit-sandbox tail` and the console follow.

/** How often an idle event stream gets a comment, so that proxies and clients keep it open. */
const KEEP_ALIVE_MS = 15_000;

/** Event streams served at once: each holds a watch on the core and a buffer. */
export const MAX_EVENT_STREAMS = 64;

/**
 * How far a client may fall behind its stream, in bytes not yet taken by its socket, before it is
 * cut off: a stalled reader (a paused pager, a frozen tab) must not hold every event since in
 * the sandbox's memory. `tail` and the console follow again after a cut.
 */
export const MAX_EVENT_STREAM_BACKLOG = 4 * 1024 * 1024;

/**
 * The route of `GET /_sandbox/events` over the core `core()` gives at each request, and
 * `endAll()`, which ends every stream it serves: a stream never ends by itself, and a stopping
 * server would wait for it.
 */
export function eventStreamRoute(core: () => Pick<SandboxCore, 'watch'>): {
  route: ServerRoute;
  endAll: () => void;
} {
  const streams = new Set<PassThrough>();
  return {
    route: {
      method: 'GET',
      path: '/_sandbox/events',
      handler: (request, h) => followAccount(core(), streams, request, h),
    },
    endAll: () => {
      for (const stream of streams) stream.end();
    },
  };
}

/**
 * `GET /_sandbox/events`: the account's requests and deliveries as they happen, as server-sent
 * events (`event: request` or `event: delivery`, `data:` the JSON of a `RequestLogEntry` or a
 * `Delivery`), until the client goes away. What `fflkit-sandbox tail` and the console follow.
 */
function followAccount(
  core: Pick<SandboxCore, 'watch'>,
  streams: Set<PassThrough>,
  request: Request,
  h: ResponseToolkit,
): ResponseObject {
  if (streams.size >= MAX_EVENT_STREAMS) {
    return errorReply(
      h,
      429,
      `This sandbox already serves ${MAX_EVENT_STREAMS} event streams: close one (a console tab or a tail) and follow again.`,
    ).header('Retry-After', '1');
  }
  const stream = new PassThrough();
  const socket = request.raw.req.socket;
  const send = (text: string): void => {
    if (stream.writableLength + stream.readableLength + socket.writableLength > MAX_EVENT_STREAM_BACKLOG) {
      // Cut off: ending would wait for the backlog to drain, which a stalled reader never does.
      socket.destroy();
      return;
    }
    stream.write(text);
  };
  const stop = core.watch(request.raw.req.headers.authorization, ({ event, data }) => {
    send(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  });
  if (stop === undefined) return errorReply(h, 401, 'Unauthenticated.').header('WWW-Authenticate', 'Bearer');
  streams.add(stream);
  const keepAlive = setInterval(() => send(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearInterval(keepAlive);
    stop();
    streams.delete(stream);
    stream.end();
  };
  request.raw.req.once('close', end);
  socket.once('close', end);
  stream.once('end', end);
  // A first comment sends the headers at once, so the client knows it is following.
  stream.write(': following the account\n\n');
  return h
    .response(stream)
    .type('text/event-stream; charset=utf-8')
    .header('Cache-Control', 'no-cache')
    .header('X-Accel-Buffering', 'no');
}
