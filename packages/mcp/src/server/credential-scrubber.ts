// What keeps credentials out of every output of the server: the sandbox's tokens (`sbx_...`)
// and webhook secrets (`whsec_...`) wherever they appear (a fixtures export holds the token of
// its request and every endpoint's secret; a request log holds what was sent), and the tokens the
// session was given or acted with, whatever their shape (a real service's tokens have their
// own). The one exception: a credential the call itself just created (the token of
// `create_account` or `create_token`, the secret of `create_webhook`), shown once, as the API
// shows it once.

/** What a credential is replaced with. */
export const REDACTED = '[redacted]';

/** Tokens of the sandbox and webhook secrets, as the contract writes them. */
const CREDENTIAL = /\b(?:sbx|whsec)_[A-Za-z0-9]+/g;

/** Replaces credentials in the texts of one session's outputs. */
export class CredentialScrubber {
  readonly #known = new Set<string>();

  /** Remembers a credential of the session (its token, one it acted with), to scrub it wherever it shows. */
  remember(credential: string): void {
    if (credential.length >= 8) this.#known.add(credential);
  }

  /** `text` with every credential replaced, but those in `created`. */
  scrub(text: string, created: readonly string[] = []): string {
    let result = text;
    for (const credential of this.#known) {
      if (!created.includes(credential)) result = result.split(credential).join(REDACTED);
    }
    return result.replace(CREDENTIAL, (credential) => (created.includes(credential) ? credential : REDACTED));
  }
}
