import { createServer, type Server as HttpServer } from 'node:http';
import { hostname } from 'node:os';
import type { Readable } from 'node:stream';
import {
  MAX_BODY_BYTES,
  PAYLOAD_TOO_LARGE_MESSAGE,
  type SandboxCore,
  type SandboxRequest,
  type SandboxResponse,
} from '@fflkit/sandbox-core';
import * as Boom from '@hapi/boom';
import {
  server as hapiServer,
  type Request,
  type ResponseObject,
  type ResponseToolkit,
  type Server,
  type ServerRoute,
} from '@hapi/hapi';
import { createBodySerializer } from './body-serializer';
import { type ConsoleFiles, type ConsoleSource, consoleFiles, consoleRoutes, errorReply } from './console-route';
import { ListenerRelay } from './listener-relay';
import { eventStreamRoute } from './event-stream-route';
import { type AnswerRequest, mcpEndpoint } from './mcp-endpoint';
import { readBody, replyWith, requestTexts, toSandboxRequest } from './hapi-exchange';
import { receiverCheckRoute } from './receiver-check/receiver-check-route';
import { answerMalformedRequest, LISTENER_OPTIONS, lacksHost, MISSING_HOST_MESSAGE } from './malformed-request';
import { corsHeaders, type GuardOptions, isPreflight, refusalOf } from './request-guard';
import type { CorePersister } from './persistence/persister';
import { reasonOf } from './support/errors';
import { SANDBOX_VERSION } from './version';

// The Hapi server of the sandbox: a thin adapter that hands each request to the core as raw
// text and answers with the core's response, plus the answers in the contract's error shape
// for what never reaches the core (unknown route, oversized body, unparsable request).

/** What {@link createSandboxServer} serves and where. */
export interface SandboxServerOptions extends GuardOptions {
  /** The core that answers every request under `/rest/v1` and `/_sandbox`. */
  core: Pick<SandboxCore, 'respond' | 'version' | 'watch'>;
  /** Saves the core's state; a request that changed it is answered only once it is saved. */
  persister: CorePersister;
  /** Interface to listen on; defaults to `127.0.0.1`. */
  host?: string;
  /** Port to listen on; defaults to `0` (any free port). */
  port?: number;
  /**
   * The built console, served at `/`: its folder (`dist/console/`) or the single executable's
   * assets; without one, `/` answers 404 saying how to build it.
   */
  consoleFiles?: ConsoleSource | undefined;
  /**
   * The HTTP server that Hapi serves; by default a new `node:http` server. The single
   * executable's warm-up gives a stand-in, so that its startup snapshot holds the code of making
   * the server without loading `node:http`, which a snapshot cannot hold.
   */
  listener?: HttpServer | undefined;
}

/**
 * A Hapi server of the sandbox made ahead of what it serves: its routes and extensions are
 * registered, and reach the core, the persister, the HTTP server and the options through what
 * {@link PreparedSandboxServer.attach} gives them. The single executable makes one in its startup
 * snapshot, so that a start does not make it again.
 */
export interface PreparedSandboxServer {
  /** The Hapi server, which serves nothing until attached. */
  readonly server: Server;
  /**
   * Gives the server what it serves and where, once; returns it, not yet started. Its HTTP server
   * is the one the server was prepared with, else `options.listener`, else a new one.
   */
  attach(options: SandboxServerOptions): Server;
}

/** What an attached server serves: the options, and what is made of them at attach. */
interface Attachment {
  readonly options: SandboxServerOptions;
  readonly core: SandboxServerOptions['core'];
  readonly persister: CorePersister;
  readonly listener: HttpServer;
  readonly console: () => Promise<ConsoleFiles | undefined>;
}

/**
 * Makes the Hapi server of the sandbox (not yet started): catch-all routes hand every request
 * under `/rest/v1` and `/_sandbox` to the core as raw text, wait until a change it made is
 * saved, and answer with the core's response; `/` and `/assets/*` serve the console. Anything
 * else is a 404, a body over 1 MB a 413, and every error Hapi raises is answered in the
 * contract's shape `{"message": string}`. It attaches the server the single executable's
 * snapshot kept, if there is one, else a new one.
 */
export function createSandboxServer(options: SandboxServerOptions): Server {
  const prepared = kept ?? prepareSandboxServer(options.listener ?? createServer(LISTENER_OPTIONS));
  kept = undefined;
  return prepared.attach(options);
}

/** The server {@link keepSandboxServer} made, which the next {@link createSandboxServer} attaches. */
let kept: PreparedSandboxServer | undefined;

/**
 * Makes a server now, for the next {@link createSandboxServer} to attach instead of making one:
 * the single executable's snapshot keeps it, so that a start skips Hapi's validation of the
 * server's options and routes.
 */
export function keepSandboxServer(): Server {
  kept = prepareSandboxServer();
  return kept.server;
}

/**
 * Makes the Hapi server of the sandbox, its routes and extensions, to be attached later. Hapi
 * serves `listener` (its `server.listener`, as library users know it) when it is given; without
 * it, a relay standing for the HTTP server that attach() gives, or makes (the single executable's
 * snapshot cannot hold one).
 */
export function prepareSandboxServer(listener?: HttpServer): PreparedSandboxServer {
  // Hapi serves a listener of ours, which starts listening once Hapi has started: given `host`,
  // Hapi would check it against a regular expression of every IP address form, whose first use
  // alone costs each start about 10 ms (the cold-start benchmark).
  const relay = listener === undefined ? new ListenerRelay() : undefined;
  const server = hapiServer({
    listener: listener ?? (relay as unknown as HttpServer),
    autoListen: false,
    debug: false,
    // Nothing is gained by compressing on the loopback interface, and bodies stay byte-exact.
    compression: false,
    routes: {
      // Cookies mean nothing to the API: a malformed Cookie header must not fail a request.
      state: { parse: false, failAction: 'ignore' },
      // The API answers whole JSON documents; a Range header is ignored.
      response: { ranges: false },
    },
  });
  // Set by attach(); no request reaches a handler before, as nothing listens.
  let at: Attachment = NOT_ATTACHED;

  const serialize = createBodySerializer();
  const texts = requestTexts();
  const delays = new FaultDelays();
  // The core's answer, at once when nothing waits (most reads: no change to save, no fault
  // rule's delay, no delivery attempt), so that such a request costs no promise of its own.
  const answerNow = (sandboxRequest: SandboxRequest): SandboxResponse | Promise<SandboxResponse> => {
    const { core, persister } = at;
    const mark = persister.mark();
    const answered = core.respond(sandboxRequest);
    if (answered instanceof Promise) return answered.then((one) => settle(one, mark));
    return persister.dirty || persister.mark() !== mark || answered.fault !== undefined
      ? settle(answered, mark)
      : answered;
  };
  const settle = async (answered: SandboxResponse, mark: number): Promise<SandboxResponse> => {
    // An answer is sent only once what it shows is on disk, its own change and any other
    // request's it saw; when that cannot be saved, the state went back and the answer is a 503.
    // A fault rule's answer too: a change made before a failure is kept, so it is saved first.
    const { persister } = at;
    if (persister.dirty || persister.mark() !== mark) {
      try {
        await persister.settle(mark);
      } catch (error) {
        // The persister rejects only when its storage could not keep a change.
        return notSaved(error, answered.headers);
      }
    }
    if (answered.fault !== undefined) await delays.wait(answered.fault.delayMs);
    return answered;
  };
  const answer: AnswerRequest = async (sandboxRequest) => answerNow(sandboxRequest);
  const send = (request: Request, h: ResponseToolkit, answered: SandboxResponse) => {
    // No answer at all: the client sees the connection close, as when a proxy drops it.
    if (answered.fault?.drop === true) {
      request.raw.req.socket.destroy();
      return h.abandon;
    }
    return replyWith(h, answered, serialize);
  };
  const reply = (request: Request, h: ResponseToolkit, body: Buffer | undefined) => {
    const answered = answerNow(toSandboxRequest(request, body, texts));
    return answered instanceof Promise ? answered.then((one) => send(request, h, one)) : send(request, h, answered);
  };
  const handler = (request: Request, h: ResponseToolkit) => {
    if (request.payload === null || request.payload === undefined) return reply(request, h, undefined);
    return readBody(request.payload as Readable, MAX_BODY_BYTES).then((body) => {
      if (body === 'too-large') throw Boom.entityTooLarge();
      return reply(request, h, body);
    });
  };
  // A read's answer, or its error, in the shape and with the CORS headers that `onPreResponse`
  // gives every other answer: no step of Hapi's runs after its handler.
  const finishRead = (request: Request, h: ResponseToolkit, answered: SandboxResponse) =>
    withCors(request, send(request, h, answered), at.options);
  const failRead = (request: Request, h: ResponseToolkit, error: unknown) =>
    withCors(request, shapeError(h, asBoom(error)), at.options);
  const readHandler = (request: Request, h: ResponseToolkit) => {
    try {
      const answered = answerNow(toSandboxRequest(request, undefined, texts));
      return answered instanceof Promise
        ? answered.then(
            (one) => finishRead(request, h, one),
            (error: unknown) => failRead(request, h, error),
          )
        : finishRead(request, h, answered);
    } catch (error) {
      return failRead(request, h, error);
    }
  };
  const routeOptions = {
    payload: {
      parse: false,
      // A stream, read by readBody(): Hapi's own limit destroys the socket of a chunked body that
      // grows past it, so the client would never see the 413. A declared Content-Length over the
      // limit is still refused by Hapi before anything is read.
      output: 'stream',
      maxBytes: MAX_BODY_BYTES,
      // The core judges the body; Hapi must not refuse a request over its Content-Type.
      override: 'application/octet-stream',
    },
  } as const;

  const events = eventStreamRoute(() => at.core);
  const mcp = mcpEndpoint(answer);
  // The service API's reads have routes of their own, which Hapi finds in one lookup and runs
  // without a payload step, registered by a plugin so that they are in a realm of their own,
  // which the `onPreResponse` step below leaves out (the reads benchmark). Hapi registers a
  // plugin's routes before `register()` returns; until then a read would reach the catch-all.
  void server.register({
    name: 'fflkit-sandbox-reads',
    register: (reads) => {
      reads.route(
        API_READS.map((path): ServerRoute => ({ method: 'GET', path: `/rest/v1${path}`, handler: readHandler })),
      );
    },
  });
  server.route([
    { method: '*', path: '/rest/v1/{path*}', options: routeOptions, handler },
    { method: '*', path: '/_sandbox/{path*}', options: routeOptions, handler },
    events.route,
    { method: 'GET', path: '/_sandbox/health', handler: (_request, h) => answerHealth(h) },
    mcp.route,
    receiverCheckRoute({ refuseToken: (authorization) => tokenRefusal(answer, authorization) }),
    ...consoleRoutes(() => at.console()),
  ]);
  // An event stream never ends by itself: stopping the server ends them, or it would wait for them;
  // a fault rule's delay ends at once, so that a stop never waits for one.
  server.ext('onPreStop', async () => {
    events.endAll();
    delays.endAll();
    await mcp.close();
  });
  // Before routing: a request to a foreign host name, or a foreign page's request to the control
  // API, is refused before anything reads it; an allowed origin's preflight is answered here.
  server.ext('onRequest', (request, h) => {
    const { headers } = request.raw.req;
    if (lacksHost(request.raw.req))
      return errorReply(h, 400, MISSING_HOST_MESSAGE).header('connection', 'close').takeover();
    const { options } = at;
    const refusal = refusalOf(request.path, headers, options);
    if (refusal !== undefined) return errorReply(h, refusal.status, refusal.message).takeover();
    if (!isPreflight(request.method, headers)) return h.continue;
    const cors = corsHeaders(headers, options);
    if (cors === undefined) {
      const origin = String(headers['origin']);
      return errorReply(
        h,
        403,
        `This sandbox answers no cross-origin requests from ${origin}: start it with --cors ${origin} to allow that origin.`,
      ).takeover();
    }
    const reply = h.response().code(204);
    for (const [name, value] of Object.entries(cors)) reply.header(name, value);
    return reply.takeover();
  });
  // One step before every answer but the reads' (which do it in their handler): errors in the
  // contract's shape, then the CORS headers of an allowed origin, on errors too. It is the root
  // realm's, so it also shapes what Hapi answers itself (an unknown route, a malformed path).
  server.ext(
    'onPreResponse',
    (request, h) => {
      const { response } = request;
      if (Boom.isBoom(response)) return withCors(request, shapeError(h, response), at.options);
      if (response !== null && typeof response !== 'symbol') withCors(request, response, at.options);
      return h.continue;
    },
    { sandbox: 'plugin' },
  );
  // Hapi answers a request the HTTP parser refused with a bare 400, or none; attach() gives the
  // listener one that answers in the contract's error shape.
  server.listener.removeAllListeners('clientError');
  server.ext('onPostStart', () => listen(at.listener, at.options.port ?? 0, at.options.host ?? '127.0.0.1'));
  return {
    server,
    attach(options) {
      if (at !== NOT_ATTACHED) throw new Error('[@fflkit/sandbox] this sandbox server is attached already');
      const served = listener ?? options.listener ?? createServer(LISTENER_OPTIONS);
      relay?.attach(served);
      served.on('clientError', answerMalformedRequest);
      const { core, persister } = options;
      at = { options, core, persister, listener: served, console: consoleFiles(options.consoleFiles) };
      renewInfo(server);
      return server;
    },
  };
}

/** What the handlers see before attach(): nothing reaches them then, as nothing listens. */
const NOT_ATTACHED: Attachment = {
  options: undefined as never,
  core: undefined as never,
  persister: undefined as never,
  listener: undefined as never,
  console: () => Promise.resolve(undefined),
};

/**
 * Sets `server.info`'s fields that Hapi fills when the server is made, from this process: a
 * server made in a startup snapshot holds the build machine's name, process id and clock there.
 * The same values as Hapi's, in the format its documentation gives `info.id`.
 */
function renewInfo(server: Server): void {
  const now = Date.now();
  const host = hostname() || 'localhost';
  Object.assign(server.info, {
    created: now,
    host,
    id: `${host}:${process.pid}:${now.toString(36)}`,
    uri: `${server.info.protocol}://${host}${server.info.port ? `:${server.info.port}` : ''}`,
  });
}

/** The service API's reads, under `/rest/v1`: the same handler as the catch-all's, found sooner. */
const API_READS = ['/receipts', '/receipts/{id}', '/books', '/inventory', '/search', '/webhooks'];

/**
 * The waits of fault rules' delays, in real time: a delayed answer is held in its handler until
 * its time comes, or until the server stops, which ends every wait at once.
 */
class FaultDelays {
  readonly #pending = new Map<NodeJS.Timeout, () => void>();

  /** Resolves after `ms` milliseconds, or at once when the server stops. */
  wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(timer);
        resolve();
      }, ms);
      this.#pending.set(timer, resolve);
    });
  }

  /** Ends every wait now. */
  endAll(): void {
    for (const [timer, resolve] of this.#pending) {
      clearTimeout(timer);
      resolve();
    }
    this.#pending.clear();
  }
}

/**
 * The refusal of a token for the control calls the server answers itself: the core's answer to
 * `GET /_sandbox/clock` with it, when that is not a 200 (a 401 for a token of no account).
 */
async function tokenRefusal(
  answer: AnswerRequest,
  authorization: string | undefined,
): Promise<SandboxResponse | undefined> {
  const clock = await answer({ method: 'GET', path: '/_sandbox/clock', query: '', headers: { authorization } });
  return clock.status === 200 ? undefined : clock;
}

/** The body of every answer of `GET /_sandbox/health`: it changes only with the package. */
const HEALTH_BODY = JSON.stringify({ data: { status: 'ok', version: SANDBOX_VERSION } });

/**
 * `GET /_sandbox/health`: 200 with the sandbox's version, without a token, for readiness checks.
 * It is served by the listener, which listens only once the sandbox is ready (its data file
 * read, its fixtures loaded), so any answer means ready; it never reaches the core, so it is
 * neither counted nor logged in an account's requests.
 */
function answerHealth(h: ResponseToolkit): ResponseObject {
  return h.response(HEALTH_BODY).type('application/json; charset=utf-8').header('Cache-Control', 'no-store');
}

/** Starts `listener` listening; rejects with the error of a port in use or an unknown address. */
function listen(listener: HttpServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
}

/**
 * The sandbox's own 503: the state could not be saved, so the request changed nothing (the core
 * was reverted to what is on disk). The message names the cause and what to do.
 */
function notSaved(error: unknown, answered: Record<string, string>): SandboxResponse {
  const cause = reasonOf(error);
  // The request was counted by the rate limit: its headers say so, as on any counted answer.
  const rateLimit = Object.fromEntries(Object.entries(answered).filter(([name]) => name.startsWith('X-RateLimit-')));
  return {
    status: 503,
    headers: { ...rateLimit, 'Retry-After': '1' },
    body: {
      message: `The sandbox could not save its data, so this request changed nothing: ${cause}. Retry once that is fixed.`,
    },
  };
}

/** The message for a path that neither the service API nor the control API serves. */
const ROUTE_NOT_FOUND_MESSAGE =
  'Not found: the sandbox serves the API under /rest/v1, its control API under /_sandbox and its console at /.';

/**
 * The answer to a Boom error in the contract's error shape, `{"message": string}`, keeping its
 * status and headers (such as `Allow` on a 405), so Hapi's default `{statusCode, error,
 * message}` body never reaches a client.
 */
function shapeError(h: ResponseToolkit, error: Boom.Boom): ResponseObject {
  const reply = errorReply(h, error.output.statusCode, errorMessageFor(error));
  for (const [name, value] of Object.entries(error.output.headers)) {
    if (value !== undefined) reply.header(name, String(value));
  }
  return reply;
}

/** What a handler threw, as the Boom error Hapi would make of it. */
function asBoom(error: unknown): Boom.Boom {
  return error instanceof Error ? Boom.boomify(error) : Boom.badImplementation('Cannot throw non-error object', error);
}

/** Adds the CORS headers of an allowed origin to an answer (a response object, not `h.abandon`). */
function withCors<T>(request: Request, response: T, options: GuardOptions): T {
  if (typeof response === 'symbol') return response;
  const cors = corsHeaders(request.raw.req.headers, options);
  if (cors !== undefined) {
    for (const name in cors) (response as ResponseObject).header(name, cors[name]!);
  }
  return response;
}

/**
 * The `message` of the contract's error body for an error that Hapi raised before the core saw
 * the request (unknown route, oversized or unreadable request), or for a failure of the sandbox.
 */
function errorMessageFor(error: Boom.Boom): string {
  const status = error.output.statusCode;
  if (status === 404) return ROUTE_NOT_FOUND_MESSAGE;
  if (status === 413) return PAYLOAD_TOO_LARGE_MESSAGE;
  const specific = error.message !== '' && error.message !== error.output.payload.error;
  if (status >= 500) {
    return `The sandbox failed to answer this request${specific ? ` (${error.message})` : ''}.`;
  }
  if (status === 400) {
    return `The request is malformed${specific ? ` (${error.message})` : ''}: check its URL and headers.`;
  }
  return sentence(specific ? error.message : error.output.payload.error);
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
