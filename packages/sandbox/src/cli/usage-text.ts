/**
 * The text of `boundbook-sandbox --help`.
 */
export const usageText = `Usage: boundbook-sandbox [options]

Starts a local sandbox of the A&D Logbook Service: the API under /rest/v1 and the sandbox
control API under /_sandbox, saved to one JSON file.

Options:
  --port <number>        Port to listen on (default 4010; 0 picks a free port)
  --host <address>       Interface to listen on (default 127.0.0.1)
  --data <file>          JSON data file, created with its directories when missing
                         (default ./.boundbook/sandbox.json)
  --memory               Keep everything in memory; save nothing
  --rate-limit <number>  Requests per minute per token (default 60; 0 lifts the limit)
  --quiet                Do not print a line for each request
  --help                 Show this help

On a new data file the sandbox makes a dealer account with the book Main and prints its token.
More accounts: curl -X POST http://127.0.0.1:4010/_sandbox/accounts
`;
