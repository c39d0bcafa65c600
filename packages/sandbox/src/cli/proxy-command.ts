import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { DriftProxy } from '../drift-proxy/drift-proxy';
import { writeFixturesFile } from '../fixtures-file';
import { CliUsageError, listOf, textOf, wholeNumberOf } from './options';
import type { Subcommand } from './subcommand';

// `fflkit-sandbox proxy --upstream URL`: the drift proxy in a terminal. It relays the real
// service's API (and, with --webhooks-to, its deliveries) unchanged, prints a line for each new
// violation as it is found, and when stopped writes the report and the recorded fixtures.

/** The proxy's port when none is given: the one after the sandbox's. */
const DEFAULT_PROXY_PORT = 4011;

/** `fflkit-sandbox proxy --upstream <url> [...]`. */
export const proxyCommand: Subcommand = {
  name: 'proxy',
  summary: "Relay a real service's API unchanged, reporting where it departs from the contract",
  usage: '--upstream <url> [--report <file>] [--record <file>] [options]',
  description: `Listens on --port and relays every request under /rest/v1 to the service at --upstream, and
its answer back, without changing a byte (the caller's token passes through; it is neither
kept nor written anywhere). Each exchange is checked against the contract once its answer has
reached the caller: the status the operation allows, the headers its answer declares, the body
against its schema, the rules a schema cannot state (page size and order, filters, the exact
error messages), and whether a receipt made is visible at once. Each violation is printed once,
as it is first seen, with its place (method, path, status, JSON pointer), what the contract
expects, what was seen, and the contract's choice it contradicts:

  drift: GET /receipts 200 /body/meta/per_page: expected 25, the default, seen number 15;
         contradicts pagination.per-page: per_page is 25 by default and takes 1 to 200; ...

With --webhooks-to, a POST to any other path of the proxy is a webhook delivery of the
service: it is checked (its headers, its signature with --secret, its body against its event's
schema) and relayed unchanged to that receiver, whose answer goes back unchanged. Point the
endpoint's URL at the proxy (through a tunnel, whose host name --allowed-hosts then allows).

The console's Drift page (the link printed) shows the same, as it happens. When stopped
(Ctrl-C), the proxy writes --report, {"exchanges", "deliveries", "violations": [{"method",
"path", "status", "pointer", "choice", "expected", "seen", "message", "count"}]}, and --record,
a fixtures file of the books, receipts and endpoints it saw (one account per token, with fixed
sandbox tokens and secrets in place of the real ones), which --fixtures loads.

Exits 0 when nothing departed from the contract, 1 when something did or the proxy could not
start.
`,
  options: [
    {
      flag: 'upstream',
      kind: 'value',
      placeholder: '<url>',
      help: ["The service's base URL, such as https://logbook.example.com/rest/v1"],
    },
    {
      flag: 'port',
      kind: 'value',
      placeholder: '<number>',
      help: [`Port to listen on (default ${DEFAULT_PROXY_PORT}; 0 picks a free port)`],
    },
    { flag: 'host', kind: 'value', placeholder: '<address>', help: ['Interface to listen on (default 127.0.0.1)'] },
    {
      flag: 'report',
      kind: 'value',
      placeholder: '<file>',
      help: ['Write what was checked and every violation there, as JSON, on stop'],
    },
    {
      flag: 'record',
      kind: 'value',
      placeholder: '<file>',
      help: [
        'Write the books, receipts and endpoints seen there, as a fixtures',
        'file (YAML when it ends in .yaml or .yml, JSON otherwise), on stop',
      ],
    },
    {
      flag: 'webhooks-to',
      kind: 'value',
      placeholder: '<url>',
      help: ["Relay the service's webhook deliveries to this receiver"],
    },
    {
      flag: 'secret',
      kind: 'value',
      placeholder: '<whsec_...>',
      variable: 'FFLKIT_WEBHOOK_SECRET',
      help: ["The endpoint's signing secret, to verify the deliveries' signatures"],
    },
    {
      flag: 'allowed-hosts',
      kind: 'list',
      placeholder: '<names>',
      help: ['Host names to answer to besides localhost and IP addresses (a tunnel)'],
    },
  ],
  async run({ options, cwd, signal, out, err }) {
    const upstream = textOf(options, 'upstream');
    if (upstream === undefined) {
      throw new CliUsageError(
        "--upstream is required: the service's base URL, such as https://logbook.example.com/rest/v1",
      );
    }
    const webhooksTo = textOf(options, 'webhooks-to')?.value;
    const secret = textOf(options, 'secret');
    if (secret !== undefined && webhooksTo === undefined) {
      throw new CliUsageError(`${secret.source} verifies the deliveries of --webhooks-to: pass --webhooks-to too`);
    }
    const report = textOf(options, 'report');
    const record = textOf(options, 'record');
    const { startDriftProxy, DriftProxyError } = await import('./drift-tools');
    let proxy: DriftProxy;
    try {
      proxy = await startDriftProxy({
        upstream: upstream.value,
        port: wholeNumberOf(textOf(options, 'port'), DEFAULT_PROXY_PORT, 0, 65_535),
        host: textOf(options, 'host')?.value,
        webhooksTo,
        secret: secret?.value,
        allowedHosts: listOf(options, 'allowed-hosts'),
        record: record !== undefined,
        onViolation: (violation) => out(`drift: ${violation.message}\n`),
        onUnreachable: (message) => err(`fflkit-sandbox proxy: ${message}\n`),
      });
    } catch (error) {
      if (error instanceof DriftProxyError) {
        throw new CliUsageError(
          error.message.replace('[@fflkit/sandbox] startDriftProxy(): ', '--').replace('webhooksTo', 'webhooks-to'),
        );
      }
      const code = (error as NodeJS.ErrnoException).code;
      err(
        `fflkit-sandbox proxy: ${code === 'EADDRINUSE' ? 'the port is already in use: stop the other server or pass --port <number>' : error instanceof Error ? error.message : String(error)}\n`,
      );
      return 1;
    }
    out(
      [
        `FFLKit drift proxy listening on ${proxy.apiUrl}`,
        `Relaying to ${proxy.upstream} unchanged; each exchange is checked against the contract.`,
        ...(webhooksTo === undefined
          ? []
          : [
              `Webhook deliveries: POST them to ${proxy.origin}/...; relayed to ${webhooksTo}${secret === undefined ? '' : ', signatures verified'}.`,
            ]),
        `Console: ${proxy.origin}/#/drift`,
        ...(report === undefined ? [] : [`Report: ${resolve(cwd, report.value)}, written on stop`]),
        ...(record === undefined ? [] : [`Recording: ${resolve(cwd, record.value)}, written on stop`]),
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
    await new Promise<void>((stopped) => {
      if (signal.aborted) stopped();
      else signal.addEventListener('abort', () => stopped(), { once: true });
    });
    await proxy.stop();
    const checked = proxy.report();
    let failed = false;
    if (report !== undefined) {
      const path = resolve(cwd, report.value);
      try {
        await writeFile(path, `${JSON.stringify(checked, null, 2)}\n`, { mode: 0o600 });
      } catch (error) {
        err(
          `fflkit-sandbox proxy: cannot write the report ${path} (${error instanceof Error ? error.message : String(error)})\n`,
        );
        failed = true;
      }
    }
    if (record !== undefined) {
      const path = resolve(cwd, record.value);
      try {
        const { fixtures, left } = await proxy.recorded();
        const { fixturesFormatOf, formatFixtures } = await import('@fflkit/sandbox-core/fixtures-file');
        await writeFixturesFile(path, formatFixtures(fixtures, fixturesFormatOf(path) ?? 'json'));
        const receipts = fixtures.accounts.reduce((sum, account) => sum + (account.receipts?.length ?? 0), 0);
        out(`Recorded ${fixtures.accounts.length} accounts and ${receipts} receipts in ${path}\n`);
        for (const reason of left) out(`  left out ${reason}\n`);
      } catch (error) {
        err(
          `fflkit-sandbox proxy: cannot write the recording ${path} (${error instanceof Error ? error.message : String(error)})\n`,
        );
        failed = true;
      }
    }
    const violations = checked.violations.length;
    out(
      `Checked ${checked.exchanges} exchanges and ${checked.deliveries} deliveries: ${violations === 0 ? 'no violation of the contract' : `${violations} distinct ${violations === 1 ? 'violation' : 'violations'} (printed above)`}.\n`,
    );
    return violations > 0 || failed ? 1 : 0;
  },
};
