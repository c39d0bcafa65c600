import { SECRET_PREFIX } from '@fflkit/types';
import { CliUsageError, switchOf, textOf } from './options';
import type { Subcommand } from './subcommand';

// `fflkit-sandbox check-receiver URL --secret whsec_...`: the receiver check for a terminal or
// a CI job. It prints the report (or, with --json, the report as JSON) and exits 0 when no check
// failed, 1 when one did; a wrong command line is the CLI's exit 2.

/** `fflkit-sandbox check-receiver <url> --secret <whsec_...> [--json]`. */
export const checkReceiverCommand: Subcommand = {
  name: 'check-receiver',
  summary: 'Check a webhook receiver as the service would reach it, for CI',
  usage: '<url> --secret <whsec_...> [--json]',
  positionals: 1,
  description: `Sends a webhook receiver what it must handle, as the service would, and judges what can be
seen from outside: each answer's status, and its time against the service's 5-second time-out
(a warning past 1 s). No sandbox needs to run.

  signed ping           a ping signed with the secret: 2xx
  forged signature      a receipt.created signed with another secret: 401
  missing signature     a receipt.created without X-SVC-Signature: 4xx, 401 expected
  same delivery twice   one receipt.created sent twice with the same X-SVC-Delivery: 2xx, 2xx
  pair out of order     a receipt's receipt.deleted, then its older receipt.created: 2xx, 2xx
  large body            a receipt.updated of 256 KiB, escaped as PHP writes JSON: 2xx

The events are about receipts that exist nowhere (serial numbers CHECK-RECEIVER-...): point it
at a receiver of a test endpoint. Whether a duplicate was processed once cannot be seen from
outside; the report says what it assumes.

Exits 0 when no check failed (warnings aside), 1 when one did.
`,
  options: [
    {
      flag: 'secret',
      kind: 'value',
      placeholder: '<whsec_...>',
      variable: 'FFLKIT_WEBHOOK_SECRET',
      help: [
        "The endpoint's signing secret the receiver verifies with, prefix",
        "included (the variable keeps it out of the shell's history)",
      ],
    },
    { flag: 'json', kind: 'switch', help: ['Print the report as JSON, for machines'] },
  ],
  async run({ options, out }) {
    const url = options.positionals[0];
    if (url === undefined)
      throw new CliUsageError("check-receiver needs the receiver's URL, such as http://127.0.0.1:3000/webhooks");
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
      throw new CliUsageError(
        `the URL must be the receiver's absolute http(s) URL, such as http://127.0.0.1:3000/webhooks, not ${JSON.stringify(url)}`,
      );
    }
    const secret = textOf(options, 'secret');
    if (secret === undefined)
      throw new CliUsageError(
        "--secret is required (or FFLKIT_WEBHOOK_SECRET): the endpoint's signing secret, whsec_...",
      );
    if (!secret.value.startsWith(SECRET_PREFIX) || secret.value === SECRET_PREFIX) {
      throw new CliUsageError(
        `${secret.source} must be the endpoint's signing secret as POST /webhooks answered it, whsec_... with its prefix`,
      );
    }
    // Loaded only when the check runs, off the sandbox's start path (the cold-start benchmark).
    const [{ checkReceiver }, { formatReceiverReport }] = await Promise.all([
      import('../receiver-check/check-receiver'),
      import('../receiver-check/receiver-report'),
    ]);
    const report = await checkReceiver({ url, secret: secret.value });
    out(switchOf(options, 'json') ? `${JSON.stringify(report, null, 2)}\n` : formatReceiverReport(report));
    return report.ok ? 0 : 1;
  },
};
