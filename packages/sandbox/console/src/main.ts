import type { ControlClient } from '@fflkit/sandbox-core/control';
import { ActivityFeed } from './activity-feed';
import { controlApi } from './control-api';
import { h, replace } from './elements';
import type { Page, PageContext } from './page';
import { showApiKeys } from './pages/api-keys';
import { showBook } from './pages/book';
import { showClock } from './pages/clock';
import { showDeliveries } from './pages/deliveries';
import { showDrift } from './pages/drift';
import { showReceipt } from './pages/receipt';
import { showRequests } from './pages/requests';
import { showSignIn } from './pages/sign-in';
import { showWebhooks } from './pages/webhooks';
import { currentToken, signIn, signOut, takeTokenFromLink } from './session';

// The console's shell: the landmarks every page shares (banner, navigation, main, footer), the
// routes in the address's fragment (`#/book`, `#/receipts/12`, `#/deliveries?state=failed`),
// and the session: signed in with a token kept for the tab, signed out on request or when the
// sandbox no longer knows the token.

interface Route {
  readonly path: string;
  readonly label: string;
  readonly page: Page;
  /** Shown in the navigation; a receipt's page is reached from the bound book. */
  readonly nav: boolean;
}

const ROUTES: readonly Route[] = [
  { path: 'book', label: 'Bound book', page: showBook, nav: true },
  { path: 'receipts', label: 'Receipt', page: showReceipt, nav: false },
  { path: 'keys', label: 'API keys', page: showApiKeys, nav: true },
  { path: 'webhooks', label: 'Webhooks', page: showWebhooks, nav: true },
  { path: 'deliveries', label: 'Deliveries', page: showDeliveries, nav: true },
  { path: 'clock', label: 'Clock', page: showClock, nav: true },
  { path: 'requests', label: 'Requests', page: showRequests, nav: true },
  { path: 'drift', label: 'Drift', page: showDrift, nav: false },
];

/** The page that needs no token: the drift proxy's, which keeps none. */
const DRIFT = ROUTES.find((route) => route.path === 'drift')!;

const APP_NAME = 'FFLKit sandbox';

const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
const tag = h('span', { class: 'tag' }, 'local sandbox');
const footnote = h(
  'p',
  {},
  `A sandbox of the A&D Logbook Service at ${location.origin}: nothing here touches a licensee's records.`,
);
const main = h('main', { id: 'main', tabindex: -1 });
const nav = h('nav', { 'aria-label': 'Console' });
const account = h('div', { class: 'account' });

/** What is signed in: the token's calls and its event stream. */
let session: { api: ControlClient; feed: ActivityFeed } | undefined;
let leaving: Array<() => void> = [];

function start(): void {
  takeTokenFromLink(location, history);
  const app = document.getElementById('app');
  if (app === null) return;
  replace(
    app,
    h('a', { class: 'skip', href: '#main', onclick: skipToMain }, 'Skip to content'),
    h('header', {}, h('p', { class: 'brand' }, APP_NAME, tag), account),
    nav,
    main,
    h('footer', {}, footnote, status),
  );
  window.addEventListener('hashchange', () => {
    // The CLI's link opened in a tab that already shows the console: its token signs in anew.
    const linked = takeTokenFromLink(location, history);
    if (linked !== undefined) {
      session?.feed.stop();
      open(linked);
    }
    show(true);
  });
  const token = currentToken();
  if (token !== undefined) open(token);
  show(false);
}

/** Starts the session of `token`: its API and its event stream. */
function open(token: string): void {
  const api = controlApi(token, expired);
  const feed = new ActivityFeed(token, expired);
  feed.start();
  session = { api, feed };
}

function close(): void {
  session?.feed.stop();
  session = undefined;
  signOut();
}

/** The sandbox answered 401: the token is unknown or was revoked. */
function expired(): void {
  if (session === undefined) return;
  close();
  showSignedOut(
    'The sandbox does not know this token (it was revoked, or the sandbox was reset): sign in with another.',
  );
}

function skipToMain(event: Event): void {
  event.preventDefault();
  main.focus();
}

/** Draws the page of the current address; `moved` when the person navigated (the heading takes the focus). */
function show(moved: boolean): void {
  for (const cleanup of leaving) cleanup();
  leaving = [];
  // A message belongs to the page that said it.
  status.textContent = '';
  if (session === undefined) {
    if (parseHash(location.hash).path === DRIFT.path) showProxy(moved);
    else showSignedOut(undefined);
    return;
  }
  const { path, id, params } = parseHash(location.hash);
  const route = ROUTES.find((candidate) => candidate.path === path) ?? ROUTES[0]!;
  if (route.path !== path) history.replaceState(null, '', '#/book');
  drawChrome(route);
  document.title = `${route.label} · ${APP_NAME}`;
  const view = h('div', { class: 'view' });
  replace(main, view);
  // Busy until the page is drawn: what a test waits for, since the event stream every signed-in
  // page keeps open means the network is never idle.
  main.setAttribute('aria-busy', 'true');
  const context: PageContext = {
    api: session.api,
    feed: session.feed,
    params,
    id,
    announce,
    go: (hash) => {
      location.hash = hash;
    },
    onLeave: (cleanup) => leaving.push(cleanup),
  };
  // A page that failed is drawn too (with its error): never left busy for a test to wait on forever.
  void route.page(view, context).finally(() => {
    if (!view.isConnected) return;
    main.removeAttribute('aria-busy');
    if (moved) view.querySelector('h1')?.focus();
  });
}

/**
 * The Drift page without a session: the console as the drift proxy serves it, which relays a
 * real service's traffic, so the page says so rather than calling itself a sandbox.
 */
function showProxy(moved: boolean): void {
  replace(nav);
  nav.hidden = true;
  replace(account);
  replace(tag, 'drift proxy');
  replace(
    footnote,
    `The drift proxy at ${location.origin} relays an integration's traffic to the service unchanged and checks it against the contract.`,
  );
  document.title = `${DRIFT.label} · ${APP_NAME}`;
  const view = h('div', { class: 'view' });
  replace(main, view);
  void showDrift(view, { announce, onLeave: (cleanup) => leaving.push(cleanup) }).then(() => {
    if (moved && view.isConnected) view.querySelector('h1')?.focus();
  });
}

function showSignedOut(message: string | undefined): void {
  for (const cleanup of leaving) cleanup();
  leaving = [];
  replace(nav);
  nav.hidden = true;
  replace(account);
  document.title = `Sign in · ${APP_NAME}`;
  const view = h('div', { class: 'view' });
  replace(main, view);
  main.removeAttribute('aria-busy');
  showSignIn(view, {
    message,
    signIn: (token) => {
      signIn(token);
      open(token);
      if (!location.hash.startsWith('#/') || location.hash === '#/') location.hash = '#/book';
      show(true);
    },
  });
}

function drawChrome(current: Route): void {
  nav.hidden = false;
  const active = current.nav ? current.path : 'book';
  replace(
    nav,
    h(
      'ul',
      {},
      ROUTES.filter((route) => route.nav).map((route) =>
        h(
          'li',
          {},
          h('a', { href: `#/${route.path}`, 'aria-current': route.path === active ? 'page' : false }, route.label),
        ),
      ),
    ),
  );
  if (account.childElementCount === 0) {
    replace(
      account,
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            close();
            announce('Signed out.');
            history.replaceState(null, '', location.pathname);
            showSignedOut(undefined);
          },
        },
        'Sign out',
      ),
    );
  }
}

function announce(message: string): void {
  // Emptied first, so that the same message said twice is announced twice.
  status.textContent = '';
  window.setTimeout(() => {
    status.textContent = message;
  }, 50);
}

/** `#/receipts/12?x=1` as its path (`receipts`), id (`12`) and query. */
function parseHash(hash: string): { path: string; id: string; params: URLSearchParams } {
  const [route = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const [path = '', id = ''] = route.split('/');
  return { path, id, params: new URLSearchParams(query) };
}

start();
