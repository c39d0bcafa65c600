import type { SandboxRequestLogEntry } from '@fflkit/types';
import { details, h, replace, scroller } from '../elements';
import { formatDuration, formatTime } from '../formats';
import { errorAlert, heading, type PageContext } from '../page';

// The account's recent API requests (under /rest/v1, made with any of its tokens, revoked ones
// included), newest first, as the sandbox logged them; new ones appear as they are answered.
// Each opens on its details: the request's headers and body, and the answer (the body of an
// error, which says why it was refused). The console's own calls are control calls, which are
// not logged, so they never crowd it.

/** The most requests the sandbox keeps per account (fewer when they pass 1 MiB), and the page shows. */
const KEPT = 1000;

/** Draws the requests page into `view`. */
export async function showRequests(view: HTMLElement, context: PageContext): Promise<void> {
  const list = h('div', { 'aria-busy': 'true' });
  view.append(
    heading('Requests'),
    h(
      'p',
      { class: 'lede' },
      'The recent API requests of the account (up to 1,000), newest first, with their answers and any fault a rule injected. New requests appear as they are answered.',
    ),
    list,
  );
  let entries: SandboxRequestLogEntry[];
  try {
    ({ data: entries } = await context.api.call('get', '/_sandbox/requests'));
  } catch (error) {
    replace(list, errorAlert(error));
    list.removeAttribute('aria-busy');
    return;
  }
  const body = h('tbody', {}, entries.map(requestRow));
  const draw = (): void => {
    if (body.childElementCount === 0) {
      replace(
        list,
        h('p', { class: 'empty' }, 'No API requests yet: calls to /rest/v1 with a key of this account appear here.'),
      );
    } else if (!list.contains(body)) {
      replace(
        list,
        scroller(
          'Requests',
          h(
            'table',
            {},
            h('caption', {}, 'API requests, newest first'),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Time', 'Request', 'Status', 'Duration', 'Fault', 'Client', 'Details'].map((text) =>
                  h('th', { scope: 'col' }, text),
                ),
              ),
            ),
            body,
          ),
        ),
      );
    }
  };
  draw();
  list.removeAttribute('aria-busy');
  context.onLeave(
    context.feed.on('request', (entry) => {
      body.prepend(requestRow(entry));
      while (body.childElementCount > KEPT) body.lastElementChild?.remove();
      draw();
    }),
  );
}

function requestRow(entry: SandboxRequestLogEntry): HTMLTableRowElement {
  const target = entry.query === '' ? entry.path : `${entry.path}?${entry.query}`;
  const detailId = `request-${entry.id}`;
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      'aria-expanded': 'false',
      'aria-controls': detailId,
      'aria-label': `Details of ${entry.method} ${target}`,
    },
    'Details',
  );
  const row = h(
    'tr',
    {},
    h('td', {}, formatTime(entry.at)),
    h('th', { scope: 'row' }, h('code', {}, `${entry.method} ${target}`)),
    // A dropped connection has no status: 0 in the log.
    h(
      'td',
      {},
      h(
        'span',
        { class: entry.status > 0 && entry.status < 400 ? 'badge good' : 'badge bad' },
        entry.status === 0 ? 'dropped' : String(entry.status),
      ),
    ),
    h('td', {}, formatDuration(entry.duration_ms)),
    h('td', {}, entry.fault === null ? '' : describeFault(entry.fault)),
    h('td', {}, entry.headers['user-agent'] ?? ''),
    h('td', { class: 'row-actions' }, toggle),
  );
  toggle.addEventListener('click', () => {
    const open = row.nextElementSibling?.id === detailId ? row.nextElementSibling : null;
    if (open !== null) {
      open.remove();
      toggle.setAttribute('aria-expanded', 'false');
      return;
    }
    row.after(h('tr', { id: detailId, class: 'detail-row' }, h('td', { colspan: 7 }, requestDetail(entry, target))));
    toggle.setAttribute('aria-expanded', 'true');
  });
  return row;
}

/** What the log holds of one request: its headers and body, and its answer. */
function requestDetail(entry: SandboxRequestLogEntry, target: string): HTMLElement {
  const json = (label: string, value: unknown) =>
    h('pre', { class: 'body', tabindex: 0, 'aria-label': label }, JSON.stringify(value, null, 2));
  const answer =
    entry.response_body !== null
      ? json(`Answer body of request ${entry.id}`, entry.response_body)
      : h(
          'p',
          { class: 'muted' },
          entry.status === 0
            ? 'No answer: a fault rule dropped the connection.'
            : entry.status < 400
              ? 'The body of a success is not kept: it is the records themselves, which the API answers again.'
              : 'The answer had no body.',
        );
  return h(
    'div',
    { class: 'detail' },
    h('h2', {}, `${entry.method} ${target}`),
    h('h3', {}, 'Request'),
    details([
      ['Received', formatTime(entry.at)],
      ['Operation', entry.operation ?? 'none: no operation of the API has this method and path'],
      ...Object.entries(entry.headers).map(([name, value]) => [name, h('code', {}, value)] as const),
    ]),
    h('h4', {}, 'Body'),
    entry.body === null
      ? h('p', { class: 'muted' }, 'No body kept: none was sent, it was not JSON, or it was too large to keep.')
      : json(`Body of request ${entry.id}`, entry.body),
    h('h3', {}, 'Answer'),
    details([
      ['Status', entry.status === 0 ? 'dropped' : String(entry.status)],
      ['Duration', formatDuration(entry.duration_ms)],
      ['Fault', entry.fault === null ? null : describeFault(entry.fault)],
    ]),
    h('h4', {}, 'Body'),
    answer,
  );
}

/** What a fault rule did, in a few words: "rule 3: 503 after acting (201 withheld)". */
function describeFault(fault: NonNullable<SandboxRequestLogEntry['fault']>): string {
  const what =
    fault.action === 'drop'
      ? 'dropped'
      : fault.action === 'delay'
        ? `delayed ${formatDuration(fault.delay_ms)}`
        : 'error answer';
  const when = fault.after_acting
    ? ` after acting${fault.withheld_status === null ? '' : ` (${fault.withheld_status} withheld)`}`
    : '';
  return `rule ${fault.rule}: ${what}${when}`;
}
