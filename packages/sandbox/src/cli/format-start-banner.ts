/** What the start banner reports. */
export interface StartBannerInput {
  /** `http://host:port`. */
  origin: string;
  /** Absolute path of the data file, or `undefined` in memory. */
  data: string | undefined;
  /** The token of the account made at start, on a new data file or in memory. */
  token: string | undefined;
}

/**
 * The text the CLI prints once it listens: the API's base URL and where the data lives, then
 * either the token of the account it just made with a ready `curl` line, or (on an existing data
 * file, whose first token was printed when it was made) how to make a new account.
 */
export function formatStartBanner({ origin, data, token }: StartBannerInput): string {
  const apiUrl = `${origin}/rest/v1`;
  const lines = [
    `BoundBook sandbox listening on ${apiUrl}`,
    `Control API: ${origin}/_sandbox`,
    data === undefined
      ? 'Data: in memory only; nothing is saved.'
      : `Data: ${data}${token === undefined ? '' : ' (new file)'}`,
    '',
  ];
  if (token === undefined) {
    lines.push(
      'The token of the first account was printed when the data file was created.',
      'To make a new account with its own token:',
      '',
      `  curl -X POST ${origin}/_sandbox/accounts`,
    );
  } else {
    lines.push(
      'Made a dealer account with the book Main. Its token is shown only now:',
      '',
      `  ${token}`,
      '',
      'Try it:',
      '',
      `  curl -H "Authorization: Bearer ${token}" ${apiUrl}/books`,
    );
  }
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines.join('\n');
}
