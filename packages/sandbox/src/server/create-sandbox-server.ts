import { MAX_BODY_BYTES, type SandboxCore } from '@boundbook/sandbox-core';
import { createServer, type Server as HttpServer } from 'node:http';
import type { Readable } from 'node:stream';
import * as Boom from '@hapi/boom';
import { server as hapiServer, type Request, type ResponseToolkit, type Server } from '@hapi/hapi';
import type { CorePersister } from '../persistence/persister';
import { createBodySerializer } from './create-body-serializer';
import { answerClientError } from './answer-client-error';
import { readBody } from './read-body';
import { replyWith } from './reply-with';
import { shapeErrorResponse } from './shape-error-response';
import { toSandboxRequest } from './to-sandbox-request';


/** What {@link createSandboxServer} serves and where. */
export interface SandboxServerOptions {
  /** The core that answers every request under `/rest/v1` and `/_sandbox`. */
  core: SandboxCore;
  /** Saves the core's state; a request that changed it is answered only once it is saved. */
  persister: CorePersister;
  /** Interface to listen on; defaults to `127.0.0.1`. */
  host?: string;
  /** Port to listen on; defaults to `0` (any free port). */
  port?: number;
}

/**
 * Makes the Hapi server of the sandbox (not yet started): catch-all routes hand every request
 * under `/rest/v1` and `/_sandbox` to the core as raw text, wait until a change it made is
 * saved, and answer with the core's response. Anything else is a 404, a body over 1 MB a 413,
 * and every error Hapi raises is answered in the contract's shape `{"message": string}`.
 */
export function createSandboxServer(options: SandboxServerOptions): Server {
  const { core, persister } = options;
  // Hapi serves a listener of ours, which starts listening once Hapi has started: given `host`,
  // Hapi would check it against a regular expression of every IP address form, whose first use
  // alone costs each start about 10 ms.
  const listener = createServer();
  const server = hapiServer({
    listener,
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

  const serialize = createBodySerializer();
  const handler = async (request: Request, h: ResponseToolkit) => {
    const body =
      request.payload === null || request.payload === undefined
        ? undefined
        : await readBody(request.payload as Readable, MAX_BODY_BYTES);
    if (body === 'too-large') throw Boom.entityTooLarge();
    const before = core.version;
    const answer = await core.handle(toSandboxRequest(request, body));
    if (core.version !== before) await persister.persist();
    return replyWith(h, answer, serialize);
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

  server.route([
    { method: '*', path: '/rest/v1/{path*}', options: routeOptions, handler },
    { method: '*', path: '/_sandbox/{path*}', options: routeOptions, handler },
  ]);
  server.ext('onPreResponse', shapeErrorResponse);
  // Hapi answers a request the HTTP parser refused with a bare 400; this one answers in the
  // contract's error shape.
  listener.removeAllListeners('clientError');
  listener.on('clientError', answerClientError);
  server.ext('onPostStart', () => listen(listener, options.port ?? 0, options.host ?? '127.0.0.1'));
  return server;
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
