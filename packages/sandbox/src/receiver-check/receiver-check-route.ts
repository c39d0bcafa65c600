import { MAX_BODY_BYTES, type SandboxResponse } from '@fflkit/sandbox-core';
import { SECRET_PREFIX } from '@fflkit/types';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { CheckReceiverOptions, ReceiverCheckReport } from './check-receiver';

// `POST /_sandbox/receiver-check`: the receiver check (check-receiver.ts) as a control call, so
// that whatever reaches the sandbox over HTTP (an agent's MCP tool, a script in any language)
// can run it against a URL. It needs a token of an account, as every control call, and answers
// the report in the contract's snake_case. The sandbox sends the check's requests from its own
// process, as it sends deliveries. Served by the server, not the core: the core sends nothing.

/** What the route needs: how the sandbox judges a token, and the check, which tests replace. */
export interface ReceiverCheckRouteOptions {
  /** The sandbox's refusal of the `Authorization` header given (a 401), or `undefined` for a token of an account. */
  readonly refuseToken: (authorization: string | undefined) => Promise<SandboxResponse | undefined>;
  readonly check?: ((options: CheckReceiverOptions) => Promise<ReceiverCheckReport>) | undefined;
}

// As the core judges every body (routing/dispatch.ts): JSON, or nothing else.
const JSON_MEDIA_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** The route of `POST /_sandbox/receiver-check`. */
export function receiverCheckRoute(options: ReceiverCheckRouteOptions): ServerRoute {
  // The check loads at its first call, off the sandbox's start path (the cold-start benchmark).
  const check =
    options.check ?? (async (input: CheckReceiverOptions) => (await import('./check-receiver')).checkReceiver(input));
  return {
    method: 'POST',
    path: '/_sandbox/receiver-check',
    options: {
      payload: { parse: false, output: 'data', maxBytes: MAX_BODY_BYTES, override: 'application/octet-stream' },
    },
    handler: async (request: Request, h: ResponseToolkit) => {
      const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        const response = h.response(JSON.stringify(body)).type('application/json; charset=utf-8').code(status);
        for (const [name, value] of Object.entries(headers)) response.header(name, value);
        return response;
      };
      const refusal = await options.refuseToken(request.raw.req.headers.authorization);
      if (refusal !== undefined) return reply(refusal.status, refusal.body, refusal.headers);
      const payload = request.payload as Buffer | null;
      const text = payload === null || payload.length === 0 ? '' : payload.toString('utf8');
      const type = request.raw.req.headers['content-type'];
      if (text !== '' && type !== undefined && !JSON_MEDIA_TYPE.test(type)) {
        return reply(415, {
          message: `The request body must be JSON, sent with Content-Type: application/json; this request sent ${type.split(';')[0]?.trim() || 'an empty Content-Type'}.`,
        });
      }
      const input = readInput(text);
      if ('errors' in input) return reply(422, { message: firstMessage(input.errors), errors: input.errors });
      return reply(200, { data: snakeCase(await check(input)) });
    },
  };
}

type FieldErrors = Record<string, string[]>;

/** The body's `url` and `secret`, or the field errors of a 422. */
function readInput(text: string): { url: string; secret: string } | { errors: FieldErrors } {
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    return { errors: { body: ['The body must be a JSON object: it is not valid JSON.'] } };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { errors: { body: ['The body must be a JSON object with url and secret.'] } };
  }
  const { url, secret } = body as Record<string, unknown>;
  const errors: FieldErrors = {};
  if (typeof url !== 'string' || url.trim() === '') {
    errors['url'] = ["The url field is required: the receiver's absolute http(s) URL."];
  } else if (!/^https?:\/\//i.test(url.trim()) || !URL.canParse(url.trim())) {
    errors['url'] = [
      "The url field must be the receiver's absolute http(s) URL, such as http://127.0.0.1:3000/webhooks.",
    ];
  }
  if (typeof secret !== 'string' || secret.trim() === '') {
    errors['secret'] = ["The secret field is required: the endpoint's signing secret the receiver verifies with."];
  } else if (!secret.trim().startsWith(SECRET_PREFIX) || secret.trim() === SECRET_PREFIX) {
    errors['secret'] = [
      `The secret field must be the endpoint's signing secret as it was shown, ${SECRET_PREFIX}... with its prefix.`,
    ];
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { url: (url as string).trim(), secret: (secret as string).trim() };
}

function firstMessage(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  const [first] = messages;
  return messages.length > 1
    ? `${first} (and ${messages.length - 1} more error${messages.length > 2 ? 's' : ''})`
    : (first ?? '');
}

/** The report with the contract's snake_case names (`timeout_ms`, `delivery_id`, `duration_ms`). */
function snakeCase(report: ReceiverCheckReport): unknown {
  return {
    url: report.url,
    ok: report.ok,
    timeout_ms: report.timeoutMs,
    warn_after_ms: report.warnAfterMs,
    checks: report.checks.map((result) => ({
      name: result.name,
      title: result.title,
      outcome: result.outcome,
      reason: result.reason,
      fix: result.fix,
      assumes: result.assumes,
      requests: result.requests.map((sent) => ({
        event: sent.event,
        delivery_id: sent.deliveryId,
        signature: sent.signature,
        bytes: sent.bytes,
        status: sent.status,
        error: sent.error,
        duration_ms: sent.durationMs,
      })),
    })),
  };
}
