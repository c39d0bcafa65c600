// MCP tool call: wall time of `list_receipts` (a page of 25) called through `fflkit-mcp` over
// stdio by the MCP SDK's client, against the same call made with @fflkit/sdk
// (`logbook.receipts.list({ per_page: 25 })`), both reaching the same sandbox (the CLI, in memory,
// rate limit lifted) over HTTP. What the ratio shows is what the MCP path adds: the JSON-RPC
// round trip through the child's pipes, the tool's request building and the scrub of its answer.
// Calls run one after another; rounds of the two are interleaved, each figure the median round.
// Target (shared/DESIGN.md): the tool call at most 2x the SDK call.
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { requestJson } from './http-request.mjs';
import { num, printHeading, printNote, printTable, printTargets, progress, ratio, target } from './report.mjs';
import { authorization, sandboxBuilt, startSandbox } from './sandbox-server.mjs';

export const description = 'ms per list_receipts (25) tool call over stdio vs the same call with @fflkit/sdk';

const MCP_BIN = fileURLToPath(new URL('../packages/mcp/bin/fflkit-mcp.js', import.meta.url));
const MCP_ENTRY = fileURLToPath(new URL('../packages/mcp/dist/cli.js', import.meta.url));
const SDK_ENTRY = fileURLToPath(new URL('../packages/sdk/dist/index.js', import.meta.url));
const RECEIPTS = 60;
const PAGE = 25;
const CALLS = 100;
const ROUNDS = 9;
const TARGET_RATIO = 2;

export async function run() {
  printHeading(
    'MCP tool call',
    `list_receipts (per_page ${PAGE}) through fflkit-mcp over stdio vs logbook.receipts.list() of @fflkit/sdk, against one ` +
      `sandbox (CLI, memory, rate limit lifted) holding ${RECEIPTS} receipts: ${CALLS} sequential calls per round, ` +
      `median of ${ROUNDS} interleaved rounds after a warm-up round (milliseconds of wall time per call).`,
  );
  const missing = [MCP_ENTRY, SDK_ENTRY].filter((file) => !existsSync(file));
  if (!sandboxBuilt()) missing.push('packages/sandbox/dist/cli.cjs');
  if (missing.length > 0) {
    printNote(`not built: ${missing.join(', ')} (pnpm build).`);
    printTargets([
      target(`tool call <= ${TARGET_RATIO}x the SDK call`, NaN, '<=', TARGET_RATIO, { unmeasured: 'not built' }),
    ]);
    return { failures: ['mcp-call: packages not built'] };
  }
  const { LogbookClient } = await import(pathToFileURL(SDK_ENTRY).href);
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');

  const sandbox = await startSandbox({ quiet: true, rateLimit: 0 });
  let client;
  try {
    progress(`seeding ${RECEIPTS} receipts`);
    for (let n = 1; n <= RECEIPTS; n++) {
      await requestJson(
        `${sandbox.api}/receipts`,
        { method: 'POST', headers: authorization(sandbox.token), body: numberedReceiptBody(n) },
        201,
      );
    }
    const logbook = new LogbookClient({ baseUrl: sandbox.api, token: sandbox.token, rateLimit: false });
    client = new Client({ name: 'fflkit-bench', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MCP_BIN, '--base-url', sandbox.api],
        env: { PATH: process.env.PATH ?? '', FFLKIT_TOKEN: sandbox.token },
        stderr: 'ignore',
      }),
    );
    const variants = [
      [
        '@fflkit/sdk',
        async () => {
          const page = await logbook.receipts.list({ per_page: PAGE });
          if (page.data.length !== PAGE) throw new Error(`the SDK call answered ${page.data.length} receipts`);
        },
      ],
      [
        'fflkit-mcp over stdio',
        async () => {
          const result = await client.callTool({ name: 'list_receipts', arguments: { per_page: PAGE } });
          if (result.isError) throw new Error(`the tool call failed: ${result.content?.[0]?.text}`);
          if (JSON.parse(result.content[0].text).data.length !== PAGE)
            throw new Error('the tool call answered another page');
        },
      ],
    ];
    progress(`measuring ${variants.length} variants, ${ROUNDS} rounds each`);
    const ms = await measure(variants);
    const sdk = ms['@fflkit/sdk'];
    const mcp = ms['fflkit-mcp over stdio'];
    printTable(
      ['variant', 'ms per call', 'vs the SDK'],
      Object.entries(ms).map(([name, value]) => [name, num(value, 3), ratio(value, sdk)]),
    );
    printNote('the MCP client and fflkit-mcp are two processes joined by pipes; the SDK calls from this process.');
    printTargets([
      target(`tool call <= ${TARGET_RATIO}x the SDK call`, mcp / sdk, '<=', TARGET_RATIO, {
        show: (v) => `${v.toFixed(2)}x`,
      }),
    ]);
    return { failures: [] };
  } finally {
    await client?.close();
    await sandbox.server.stop();
  }
}

/** Milliseconds per call of each variant: a warm-up round, then interleaved rounds, the median of each. */
async function measure(variants) {
  const round = async (call) => {
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) await call();
    return (performance.now() - started) / CALLS;
  };
  for (const [, call] of variants) await round(call);
  const rounds = variants.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [index, [, call]] of variants.entries()) rounds[index].push(await round(call));
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return Object.fromEntries(variants.map(([name], index) => [name, median(rounds[index])]));
}
