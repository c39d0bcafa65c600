import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createLogbookMcpServer } from '../server/logbook-mcp-server';
import { MCP_VERSION, readBaseUrl } from '../server/session';
import { type ConformanceProbe, conformanceTool } from '../tools/conformance-tool';

// `fflkit-mcp`: the server over stdio, as coding agents start it. Standard output carries the
// protocol and nothing else; the one line of its own it writes goes to standard error, and never
// holds the token.

const USAGE = `Usage: fflkit-mcp --base-url <url> [--token <token>] [--allow-writes]

The MCP server of the Logbook Service over stdio: one tool per operation of FFLKit's contract,
and, when the base URL is an FFLKit sandbox, one per control call of the sandbox; with
@fflkit/sandbox installed beside it, probe_conformance too.

  --base-url <url>   The service's address ending in /rest/v1, or a sandbox's origin
                     (FFLKIT_BASE_URL), such as http://127.0.0.1:4010/rest/v1
  --token <token>    The token the tools call with (FFLKIT_TOKEN; the variable keeps it out of
                     the agent's configuration and the shell's history). Without one, only
                     create_account and load_fixtures work until create_account makes an account.
  --allow-writes     List the tools that write even when the base URL is not a sandbox
                     (by default only read-only tools are listed there)
  --help, --version
`;

/** Where the CLI writes and what it reads, so that the tests hand in their own. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stderr: (text: string) => void;
  readonly stdout: (text: string) => void;
}

/**
 * Runs `fflkit-mcp` with `args`: serves over stdio until standard input closes, then resolves
 * with the exit code (0); a wrong command line resolves with 2 at once, saying why on stderr.
 */
export async function main(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  let values: {
    'base-url'?: string | undefined;
    token?: string | undefined;
    'allow-writes'?: boolean | undefined;
    help?: boolean | undefined;
    version?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        'base-url': { type: 'string' },
        token: { type: 'string' },
        'allow-writes': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.stderr(`fflkit-mcp: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(USAGE);
    return 0;
  }
  if (values.version === true) {
    io.stdout(`${MCP_VERSION}\n`);
    return 0;
  }
  const baseUrl = values['base-url'] ?? io.env['FFLKIT_BASE_URL'];
  if (baseUrl === undefined || baseUrl === '') {
    io.stderr(
      `fflkit-mcp: --base-url is required (or FFLKIT_BASE_URL), such as http://127.0.0.1:4010/rest/v1\n\n${USAGE}`,
    );
    return 2;
  }
  let apiUrl: string;
  try {
    apiUrl = readBaseUrl(baseUrl).apiUrl;
  } catch (error) {
    io.stderr(`fflkit-mcp: ${(error as Error).message.replace('[@fflkit/mcp] ', '')}\n`);
    return 2;
  }
  const token = values.token ?? nonEmpty(io.env['FFLKIT_TOKEN']);
  const probe = installedProbe();
  const server = createLogbookMcpServer({
    baseUrl,
    token,
    allowWrites: values['allow-writes'],
    ...(probe !== undefined && { extraTools: [conformanceTool(probe)] }),
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', () => void server.close().then(resolve, resolve));
  });
  await server.connect(transport);
  io.stderr(
    `fflkit-mcp ${MCP_VERSION}: the tools of ${apiUrl} over stdio, ${token === undefined ? 'without a token' : 'with the token given'}${values['allow-writes'] === true ? ', writes allowed' : ''}${probe === undefined ? '' : ', probe_conformance from @fflkit/sandbox'}\n`,
  );
  await closed;
  return 0;
}

/**
 * The drift guard's probe, `runConformance` of `@fflkit/sandbox`, when that package is installed
 * beside this one (as it is wherever the sandbox is: it depends on this package). This package
 * cannot depend on the sandbox in turn, so the probe is found at run time: resolved at start,
 * loaded at its first call, so that a start does not load the sandbox; `undefined` where it is
 * not installed.
 */
function installedProbe(): ConformanceProbe | undefined {
  const specifier = '@fflkit/sandbox';
  try {
    createRequire(import.meta.url).resolve(specifier);
  } catch {
    return undefined;
  }
  return async (options) => {
    const sandbox = (await import(specifier)) as { runConformance: ConformanceProbe };
    return sandbox.runConformance(options);
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function processIo(): CliIo {
  return {
    env: process.env,
    stderr: (text) => process.stderr.write(text),
    stdout: (text) => process.stdout.write(text),
  };
}
