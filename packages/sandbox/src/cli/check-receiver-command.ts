import { parseArgs } from 'node:util';
import { SECRET_PREFIX } from '@boundbook/types';
import { checkReceiver } from '../receiver-check/check-receiver';
import { formatReceiverReport } from '../receiver-check/receiver-report';

// `boundbook-sandbox check-receiver URL --secret whsec_...`: the receiver check for a terminal or
// a CI job. It prints the report (or, with --json, the report as JSON) and exits 0 when no check
// failed, 1 when one did, 2 for a wrong command line.

/** Where the command writes, and the environment it reads the secret from. */
export interface CheckReceiverIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  out(text: string): void;
  err(text: string): void;
}

/** The text of `boundbook-sandbox check-receiver --help`. */
export const checkReceiverUsage = `Usage: boundbook-sandbox check-receiver <url> --secret <whsec_...> [--json]

Sends a webhook receiver what it must handle, as the service would, and judges what can be seen
from outside: each answer's status, and its time against the service's 5-second time-out (a
warning past 1 s).

  signed ping           a ping signed with the secret: 2xx
  forged signature      a receipt.created signed with another secret: 401
  missing signature     a receipt.created without X-SVC-Signature: 4xx, 401 expected
  same delivery twice   one receipt.created sent twice with the same X-SVC-Delivery: 2xx, 2xx
  pair out of order     a receipt's receipt.deleted, then its older receipt.created: 2xx, 2xx
  large body            a receipt.updated of 256 KiB, escaped as PHP writes JSON: 2xx

The events are about receipts that exist nowhere (serial numbers CHECK-RECEIVER-...): point it at
a receiver of a test endpoint. Whether a duplicate was processed once cannot be seen from
outside; the report says what it assumes.

Exits 0 when no check failed (warnings aside), 1 when one did, 2 for a wrong command line.

Options:
  --secret <whsec_...>  The endpoint's signing secret the receiver verifies with, prefix
                        included (or BOUNDBOOK_WEBHOOK_SECRET, which keeps it out of the
                        shell's history)
  --json                Print the report as JSON, for machines
  --help                Show this help
`;

/** Exit code for a wrong command line. */
const USAGE_EXIT_CODE = 2;

/**
 * Runs `check-receiver` with the arguments after its name; resolves with the exit code: 0 when
 * no check failed, 1 when one did, 2 (with the reason and the usage on standard error) for a
 * wrong command line: no URL, one that is not http(s), no secret, or one without `whsec_`.
 */
export async function runCheckReceiverCommand(args: readonly string[], io: CheckReceiverIo): Promise<number> {
  const usageError = (message: string): number => {
    io.err(`boundbook-sandbox check-receiver: ${message}\nRun boundbook-sandbox check-receiver --help for the options.\n`);
    return USAGE_EXIT_CODE;
  };
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: true,
      options: { secret: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.out(checkReceiverUsage);
    return 0;
  }
  if (positionals.length !== 1) {
    return usageError(positionals.length === 0 ? "check-receiver needs the receiver's URL, such as http://127.0.0.1:3000/webhooks" : `check-receiver takes one URL, not ${positionals.length}`);
  }
  const url = positionals[0]!;
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    return usageError(`the URL must be the receiver's absolute http(s) URL, such as http://127.0.0.1:3000/webhooks, not ${JSON.stringify(url)}`);
  }
  const secret = values.secret ?? io.env['BOUNDBOOK_WEBHOOK_SECRET'];
  if (secret === undefined || secret === '') return usageError('--secret is required (or BOUNDBOOK_WEBHOOK_SECRET): the endpoint\'s signing secret, whsec_...');
  if (!secret.startsWith(SECRET_PREFIX) || secret === SECRET_PREFIX) {
    return usageError('--secret must be the endpoint\'s signing secret as POST /webhooks answered it, whsec_... with its prefix');
  }
  const report = await checkReceiver({ url, secret });
  io.out(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatReceiverReport(report));
  return report.ok ? 0 : 1;
}
