/** The sandbox's address when started with `pnpm start` (its CLI's default port, 4010). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/rest/v1';

/**
 * What `inventory-sync --help` prints.
 *
 * @example
 * ```ts
 * process.stdout.write(USAGE_TEXT);
 * ```
 */
export const USAGE_TEXT = `Usage: inventory-sync [options]

Pulls the receipts created, changed or deleted since the last run from the
Firearms Acquisition and Disposition Logbook Service and writes the bound book
as CSV, in the column order of 27 CFR 478.125(e).

Options:
  --base-url <url>       The service's base URL, ending in /rest/v1.
                         Default: $FFLKIT_BASE_URL, else ${DEFAULT_BASE_URL}
                         (the local sandbox of \`pnpm start\`).
  --token <token>        The API key (read permission). Default: $FFLKIT_TOKEN.
                         Prefer the variable: a flag shows in the process list.
  --out <file>           Where to write the CSV; - for stdout. Default: bound-book.csv
  --checkpoint <file>    The checkpoint file: where the last sync stopped and the
                         local copy of the receipts. Default: .sync-checkpoint.json
  --book <name>          Export only this book. Default: every book.
  -h, --help             Show this help.

Progress goes to stderr: a bar on a terminal, plain lines otherwise.
Exit codes: 0 done, 1 the sync failed, 2 a wrong option, 130 interrupted.
`;
