import { resolve } from 'node:path';
import { connectSandbox } from '../control-client';
import { writeFixturesFile } from '../fixtures-file';
import { textOf } from './options';
import { describeFailure, sandboxAddress, type Subcommand, TOKEN_OPTION, URL_OPTION } from './subcommand';

// `fflkit-sandbox export`: the account of a token as a fixtures file (GET /_sandbox/fixtures),
// so that a state built by hand or by a test is kept and loaded again with --fixtures.

/** `fflkit-sandbox export --token T [--url U] [--out FILE]`. */
export const exportCommand: Subcommand = {
  name: 'export',
  summary: 'Write the account of a token as a fixtures file, to load again with --fixtures',
  usage: '--token <token> [--url <url>] [--out <file>]',
  description: `Writes the account of the token as a fixtures file, which --fixtures loads into another
sandbox to make the account again: its name and type, books, clock offset, webhook endpoints
with their secrets, and its receipts with their dispositions, documents and E4473 data, in book
and record order. Deleted receipts, audit trails, deliveries and the request log are left out.
The file holds the token given and no other, as the sandbox keeps only the hashes of tokens.

Written to standard output as JSON, or to the --out file: YAML when its name ends in .yaml or
.yml, JSON otherwise, readable by you alone (it holds a token and the endpoints' secrets).
`,
  options: [
    TOKEN_OPTION,
    URL_OPTION,
    { flag: 'out', kind: 'value', placeholder: '<file>', help: ['Write the file there instead of standard output'] },
  ],
  async run({ options, env, cwd, out, err }) {
    const { origin, token } = sandboxAddress(options, env);
    const target = textOf(options, 'out');
    let fixtures;
    try {
      fixtures = await connectSandbox(origin).fixtures.export(token);
    } catch (error) {
      err(`fflkit-sandbox export: ${describeFailure(error, origin)}\n`);
      return 1;
    }
    // The YAML writer loads only here, off the sandbox's start path (the cold-start benchmark).
    const { fixturesFormatOf, formatFixtures } = await import('@fflkit/sandbox-core/fixtures-file');
    if (target === undefined) {
      out(formatFixtures(fixtures, 'json'));
      return 0;
    }
    const path = resolve(cwd, target.value);
    try {
      await writeFixturesFile(path, formatFixtures(fixtures, fixturesFormatOf(path) ?? 'json'));
    } catch (error) {
      err(
        `fflkit-sandbox export: cannot write ${path} (${error instanceof Error ? error.message : String(error)}): check that its folder exists and that you may write there\n`,
      );
      return 1;
    }
    const [account] = fixtures.accounts;
    const receipts = account?.receipts?.length ?? 0;
    out(
      `Wrote the account ${account?.name ?? ''} (${receipts} ${receipts === 1 ? 'receipt' : 'receipts'}) to ${path}\n`,
    );
    return 0;
  },
};
