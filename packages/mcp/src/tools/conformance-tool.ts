import { type LogbookTool, ToolCallError, type ToolContext, type ToolOutcome } from './tool';

// `probe_conformance`: the drift guard's conformance probe as a tool. The probe itself belongs to
// `@fflkit/sandbox` (`runConformance()`), which depends on this package: the tool takes it as an
// argument, so the sandbox hands it in (through `extraTools`) and nothing here depends on the
// sandbox. The probe is not an HTTP operation of the contract, so its input schema is defined
// here, once.

const TOOL_NAME = 'probe_conformance';

/** What the tool hands the probe: the options of `runConformance()` in `@fflkit/sandbox`. */
export interface ConformanceProbeOptions {
  /** The service's base URL, ending in `/rest/v1`: the session's own. */
  readonly baseUrl: string;
  /** The session's token. */
  readonly token: string;
  readonly readToken: string | undefined;
  /** Whether the probes that write run: the call asked and the session allows writes. */
  readonly allowWrites: boolean;
  readonly book: string | undefined;
  /** The session's `fetch`, never following a redirect. */
  readonly fetch: typeof fetch;
}

/** The part of the probe's report the tool reads; the whole report is answered as it came. */
export interface ConformanceProbeReport {
  readonly choices: readonly { readonly id: string; readonly status: string }[];
  readonly summary: { readonly confirmed: number; readonly contradicted: number; readonly notProbed: number };
}

/** A conformance probe: `runConformance` of `@fflkit/sandbox`. */
export type ConformanceProbe = (options: ConformanceProbeOptions) => Promise<ConformanceProbeReport>;

/** How long each request of the probe may wait for its answer. */
const REQUEST_TIMEOUT_MS = 30_000;

/** The arguments, defined here once: the probe is no operation of the contract to derive them from. */
const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    base_url: {
      type: 'string',
      description:
        "The service's base URL, ending in /rest/v1: the one this session works with (the session's token is sent nowhere else).",
    },
    read_token: {
      type: 'string',
      minLength: 1,
      description:
        'A token of the same account that holds the read permission only, for the probes of 403; without it they are not probed.',
    },
    book: {
      type: 'string',
      minLength: 1,
      description: "With allow_writes: the book the run's receipts go into; the account's first book by default.",
    },
    allow_writes: {
      type: 'boolean',
      default: false,
      description:
        "Run the probes that write too (receipts and a webhook endpoint named for the run, deleted again): only where the session may write (an FFLKit sandbox, or a server started with --allow-writes, meant for a token of the service's own sandbox).",
    },
  },
  required: ['base_url'],
  additionalProperties: false,
} as const satisfies LogbookTool['inputSchema'];

const ARGUMENTS = Object.keys(INPUT_SCHEMA.properties);

/**
 * The `probe_conformance` tool over `probe` (`runConformance` of `@fflkit/sandbox`), for
 * `extraTools`. It is listed read-only, and writes only when the call sets `allow_writes` and the
 * session allows writes (a sandbox, or `--allow-writes`).
 *
 * @example
 * ```ts
 * import { conformanceTool, createLogbookMcpServer } from '@fflkit/mcp';
 * import { runConformance } from '@fflkit/sandbox';
 *
 * const server = createLogbookMcpServer({
 *   baseUrl: 'https://logbook.example.com/rest/v1',
 *   token: process.env['FFLKIT_TOKEN'],
 *   extraTools: [conformanceTool(runConformance)],
 * });
 * ```
 */
export function conformanceTool(probe: ConformanceProbe): LogbookTool {
  return {
    name: TOOL_NAME,
    title: 'Probe the conformance of a service',
    description: [
      "Probes the service at base_url (this session's) and judges each choice FFLKit's contract makes where the service's interface document is silent (pagination, error bodies, statuses, rate-limit headers, read-after-write visibility...):",
      'confirmed when a probe saw the service keep it, contradicted with the evidence (the request, the answer, what the contract expected), not-probed with why.',
      'Read-only probes unless allow_writes. Answers the report as JSON: {service, run, writes, choices: [{id, status, rule, evidence, reason}], violations, summary, notes};',
      'a contradicted choice is a place where code written against the sandbox may break against this service.',
      'A run with allow_writes waits out the rate limit when it reaches it (about a minute on a sandbox): give the call a time-out of two minutes.',
    ].join(' '),
    inputSchema: INPUT_SCHEMA,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    // It deletes and disposes of what it made: destructive, though of its own records only.
    writableAnnotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    scope: 'service',
    async call(args, context) {
      const given = readArguments(args, context.apiUrl);
      if (given.readToken !== undefined) context.conceal(given.readToken);
      const token = context.token;
      if (token === undefined) {
        throw new ToolCallError(
          `${TOOL_NAME} probes with the session's token, and this session has none: start fflkit-mcp with FFLKIT_TOKEN (or --token), or make a sandbox account with create_account.`,
        );
      }
      if (given.allowWrites && !(await context.writesAllowed())) {
        throw new ToolCallError(
          `${TOOL_NAME} ran nothing: allow_writes needs a session that may write, and ${context.apiUrl} is not an FFLKit sandbox. Call it without allow_writes for the read-only probes, or start fflkit-mcp with --allow-writes and a token of the service's own sandbox.`,
        );
      }
      let report: ConformanceProbeReport;
      try {
        report = await probe({
          baseUrl: context.apiUrl,
          token,
          readToken: given.readToken,
          allowWrites: given.allowWrites,
          book: given.book,
          fetch: noRedirectFetch(context),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message.replace(/^\[@fflkit\/\w+\] /, '') : String(error);
        throw new ToolCallError(`${TOOL_NAME} stopped: ${reason}`);
      }
      return outcomeOf(report);
    },
  };
}

interface ConformanceArguments {
  readonly readToken: string | undefined;
  readonly book: string | undefined;
  readonly allowWrites: boolean;
}

/** The arguments of a call, refused with what to give when they cannot be taken. */
function readArguments(args: Readonly<Record<string, unknown>>, apiUrl: string): ConformanceArguments {
  const unknown = Object.keys(args).filter((name) => !ARGUMENTS.includes(name));
  if (unknown.length > 0)
    throw new ToolCallError(`${TOOL_NAME} takes only ${ARGUMENTS.join(', ')}; not ${unknown.join(', ')}.`);
  const baseUrl = args['base_url'];
  let probed: string | undefined;
  try {
    probed = typeof baseUrl === 'string' ? new URL(baseUrl).href.replace(/\/+$/, '') : undefined;
  } catch {
    probed = undefined;
  }
  if (probed !== apiUrl) {
    throw new ToolCallError(
      `${TOOL_NAME} probes the service this session works with, ${apiUrl}, with its token: pass base_url ${JSON.stringify(apiUrl)}. To probe another service, start fflkit-mcp with --base-url pointing at it and its token.`,
    );
  }
  const text = (name: string): string | undefined => {
    const value = args[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '')
      throw new ToolCallError(`${TOOL_NAME} needs ${name} as a non-empty string.`);
    return value.trim();
  };
  const allowWrites = args['allow_writes'] ?? false;
  if (typeof allowWrites !== 'boolean') throw new ToolCallError(`${TOOL_NAME} needs allow_writes as true or false.`);
  const book = text('book');
  if (book !== undefined && !allowWrites) {
    throw new ToolCallError(
      `${TOOL_NAME}: book names where the probes that write put their receipts; set allow_writes too.`,
    );
  }
  return { readToken: text('read_token'), book, allowWrites };
}

/** The session's fetch with a time-out, never following a redirect (which would carry the token elsewhere). */
function noRedirectFetch(context: ToolContext): typeof fetch {
  return (input, init) =>
    context.fetch(input, { ...init, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
}

function outcomeOf(report: ConformanceProbeReport): ToolOutcome {
  const { confirmed, contradicted, notProbed } = report.summary;
  const contradictedIds = report.choices
    .filter((choice) => choice.status === 'contradicted')
    .map((choice) => choice.id);
  const summary =
    contradicted === 0
      ? `${confirmed} choices confirmed, none contradicted, ${notProbed} not probed (each says why).`
      : `${contradicted} choices contradicted (${contradictedIds.join(', ')}): their evidence shows what the service did; ${confirmed} confirmed, ${notProbed} not probed.`;
  return { texts: [JSON.stringify(report), summary], isError: false };
}
