import { CliUsageError, switchOf, textOf } from './options';
import type { Subcommand } from './subcommand';

// `fflkit-sandbox conformance --base-url URL --token T`: the conformance probe for a terminal or
// a CI job. It prints the report (or, with --json, the report as JSON) and exits 1 when the
// service contradicts the contract.

/** `fflkit-sandbox conformance --base-url <url> --token <token> [...]`. */
export const conformanceCommand: Subcommand = {
  name: 'conformance',
  summary: 'Probe a running service: each choice of the contract confirmed or contradicted',
  usage: '--base-url <url> --token <token> [--allow-writes] [--json]',
  description: `Probes the service at --base-url and judges each choice of the contract (fflkit-sandbox
choices lists them): confirmed when a probe saw the service keep it, contradicted when the
service did otherwise (the request, the answer and what was expected are shown), not probed
with why. Every answer is also checked whole, as fflkit-sandbox proxy checks traffic.

The probes are read-only unless --allow-writes: reads, and writes that the service refuses
before reading them (sent without a token, or with the --read-token, a token holding read only,
which the probes of 403 need). With --allow-writes, meant for a token of the service's own
sandbox, the run also makes receipts named for it in --book (the account's first book by
default), corrects, disposes of and deletes them, sends bodies the contract refuses, and makes
a webhook endpoint to a receiver of its own on this machine, whose deliveries it checks when
the service reaches it; it deletes what it made (receipts are soft-deleted: their audit trails
stay). The run keeps under the rate limit: a 429 is waited out and the request sent again.

Exits 0 when nothing probed is contradicted, 1 when something is (or an answer breaks another
rule of the contract) or the service cannot be reached.
`,
  options: [
    {
      flag: 'base-url',
      kind: 'value',
      placeholder: '<url>',
      variable: 'FFLKIT_BASE_URL',
      help: ["The service's base URL, such as https://logbook.example.com/rest/v1"],
    },
    {
      flag: 'token',
      kind: 'value',
      placeholder: '<token>',
      variable: 'FFLKIT_TOKEN',
      help: ['A token of the account to probe'],
    },
    {
      flag: 'read-token',
      kind: 'value',
      placeholder: '<token>',
      variable: 'FFLKIT_READ_TOKEN',
      help: ['A token of the same service that holds read only, for the 403s'],
    },
    {
      flag: 'allow-writes',
      kind: 'switch',
      help: ['Run the probes that write too (with a token of the service sandbox)'],
    },
    { flag: 'book', kind: 'value', placeholder: '<name>', help: ["The book the run's receipts go into"] },
    { flag: 'json', kind: 'switch', help: ['Print the report as JSON, for machines'] },
  ],
  async run({ options, out, err }) {
    const baseUrl = textOf(options, 'base-url');
    if (baseUrl === undefined) {
      throw new CliUsageError(
        "--base-url is required (or FFLKIT_BASE_URL): the service's base URL, ending in /rest/v1",
      );
    }
    if (!/^https?:\/\//i.test(baseUrl.value) || !URL.canParse(baseUrl.value)) {
      throw new CliUsageError(
        `${baseUrl.source} must be an http or https URL, such as https://logbook.example.com/rest/v1, not ${JSON.stringify(baseUrl.value)}`,
      );
    }
    const token = textOf(options, 'token');
    if (token === undefined || token.value.trim() === '') {
      throw new CliUsageError('--token is required (or FFLKIT_TOKEN): a token of the account to probe');
    }
    const allowWrites = switchOf(options, 'allow-writes');
    const book = textOf(options, 'book');
    if (book !== undefined && !allowWrites)
      throw new CliUsageError('--book names where the probes that write put their receipts: pass --allow-writes too');
    const { runConformance, formatConformanceReport } = await import('./drift-tools');
    let report;
    try {
      report = await runConformance({
        baseUrl: baseUrl.value,
        token: token.value.trim(),
        readToken: textOf(options, 'read-token')?.value.trim(),
        allowWrites,
        book: book?.value,
      });
    } catch (error) {
      err(
        `fflkit-sandbox conformance: ${error instanceof Error ? error.message.replace('[@fflkit/sandbox] ', '') : String(error)}\n`,
      );
      return 1;
    }
    out(switchOf(options, 'json') ? `${JSON.stringify(report, null, 2)}\n` : formatConformanceReport(report));
    return report.summary.contradicted > 0 || report.violations.length > 0 ? 1 : 0;
  },
};
