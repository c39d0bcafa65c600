import type { DriftState } from '../../../src/drift-proxy/drift-proxy';
import { h, replace, scroller } from '../elements';
import { formatCount } from '../formats';
import { heading } from '../page';

// What the drift proxy (fflkit-sandbox proxy) found in the traffic it relays to a real
// service: each way the service departs from the contract, once, with where it was seen, what
// the contract expects, what came, and the contract's choice it contradicts; read from the
// proxy's own call, GET /_drift/violations, again every two seconds. The page needs no token:
// the proxy keeps none. Served by a sandbox, which is no proxy, it says how to start one.

/** How often the page asks the proxy again. */
const EVERY_MS = 2_000;

/** What the Drift page needs of the shell. */
export interface DriftPageContext {
  /** Says `message` to screen readers and shows it in the status line. */
  announce(message: string): void;
  /** Runs `cleanup` when the page is left. */
  onLeave(cleanup: () => void): void;
}

/** Draws the Drift page into `view` and keeps it current. */
export async function showDrift(view: HTMLElement, context: DriftPageContext): Promise<void> {
  const lede = h('p', { class: 'lede' }, 'Asking the drift proxy what it found...');
  const list = h('div', { 'aria-busy': 'true' });
  view.append(heading('Drift'), lede, list);
  let shown = -1;
  const refresh = async (): Promise<void> => {
    const state = await read();
    list.removeAttribute('aria-busy');
    if (typeof state === 'string') {
      replace(lede, state);
      replace(list);
      return;
    }
    replace(
      lede,
      `What the drift proxy found in the traffic it relays to ${state.upstream}${state.webhooksTo === null ? '' : ` and the deliveries it relays to ${state.webhooksTo}`}: each way the service departs from the contract, once, with the contract's choice it contradicts. `,
      h(
        'strong',
        {},
        `${counted(state.exchanges, 'exchange')} and ${counted(state.deliveries, 'delivery', 'deliveries')} checked.`,
      ),
    );
    if (state.violations.length === shown) return;
    if (shown >= 0 && state.violations.length > shown) {
      const found = state.violations.length - shown;
      context.announce(`${found} new ${found === 1 ? 'violation' : 'violations'} of the contract.`);
    }
    shown = state.violations.length;
    replace(
      list,
      state.violations.length === 0
        ? h('p', { class: 'empty' }, 'No violation of the contract so far.')
        : violationTable(state),
    );
  };
  await refresh();
  const timer = window.setInterval(() => void refresh(), EVERY_MS);
  context.onLeave(() => window.clearInterval(timer));
}

/** The proxy's state, or what to tell the person when there is none to show. */
async function read(): Promise<DriftState | string> {
  let response: Response;
  try {
    response = await fetch('/_drift/violations', { headers: { accept: 'application/json' }, cache: 'no-store' });
  } catch {
    return 'The drift proxy did not answer: check that it still runs, then reload the page.';
  }
  if (response.status === 404) {
    return "This is a sandbox, not a drift proxy. The Drift page shows what fflkit-sandbox proxy finds in the traffic it relays to a real service: start it with --upstream and the service's base URL, and open the console link it prints.";
  }
  if (!response.ok) return `The drift proxy answered ${response.status}.`;
  return ((await response.json()) as { data: DriftState }).data;
}

function counted(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

function violationTable(state: DriftState): HTMLElement {
  return scroller(
    'Violations',
    h(
      'table',
      {},
      h('caption', {}, 'Violations of the contract, in the order first seen'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Where', 'Pointer', 'Expected', 'Seen', 'Choice', 'Times'].map((text) => h('th', { scope: 'col' }, text)),
        ),
      ),
      h(
        'tbody',
        {},
        state.violations.map((violation) =>
          h(
            'tr',
            {},
            h(
              'th',
              { scope: 'row' },
              h(
                'code',
                {},
                `${violation.method} ${violation.path}${violation.status === null ? '' : ` ${violation.status}`}`,
              ),
            ),
            h('td', {}, h('code', {}, violation.pointer)),
            h('td', {}, violation.expected),
            h('td', {}, violation.seen),
            h(
              'td',
              {},
              violation.choice === null
                ? "none: not one of the contract's choices"
                : [h('code', {}, violation.choice), ' ', state.rules[violation.choice] ?? ''],
            ),
            h('td', {}, formatCount(violation.count)),
          ),
        ),
      ),
    ),
  );
}
