// The signed-in token: kept in the tab's sessionStorage only (gone when the tab closes, never
// shared with another tab), taken from the link the CLI prints (`/#token=sbx_...`: a fragment
// never reaches a server or its log) and then wiped from the address bar and the history.

const STORAGE_KEY = 'fflkit-sandbox.token';
const TOKEN_FRAGMENT = /^#token=([^&]+)/;

/**
 * The token the page was opened with (`#token=...`), stored for the tab; the fragment is then
 * replaced by `#/book` in place, so that the token stays neither in the address bar nor in the
 * history. `undefined` when the page was opened without one.
 */
export function takeTokenFromLink(location: Location, history: History): string | undefined {
  const match = TOKEN_FRAGMENT.exec(location.hash);
  if (match === null) return undefined;
  const token = decodeURIComponent(match[1] ?? '').trim();
  history.replaceState(null, '', `${location.pathname}${location.search}#/book`);
  if (token === '') return undefined;
  signIn(token);
  return token;
}

/** The token of the tab's session, or `undefined` when signed out. */
export function currentToken(): string | undefined {
  return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
}

/** Keeps `token` for the tab. */
export function signIn(token: string): void {
  sessionStorage.setItem(STORAGE_KEY, token);
}

/** Forgets the tab's token. */
export function signOut(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
