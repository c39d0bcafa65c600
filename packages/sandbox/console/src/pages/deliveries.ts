import type { SandboxDelivery, SandboxDeliveryDetail, SandboxWebhookEndpointState } from '@fflkit/types';
import { details, field, h, replace, scroller, select, table } from '../elements';
import { formatDuration, formatTime } from '../formats';
import { errorAlert, heading, type PageContext } from '../page';

// Webhook deliveries, newest first, filtered by endpoint and state: each with its attempts and
// the signed request they send, and Resend. New deliveries, and new attempts of those shown,
// appear as they happen, from the account's event stream.

const STATES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

/** Draws the deliveries page into `view`. */
export async function showDeliveries(view: HTMLElement, context: PageContext): Promise<void> {
  const webhookId = context.params.get('webhook_id') ?? '';
  const state = context.params.get('state') ?? '';
  const filters = new URLSearchParams();
  if (/^\d+$/.test(webhookId)) filters.set('webhook_id', webhookId);
  if ((STATES as readonly string[]).includes(state)) filters.set('state', state);

  const body = h('tbody', {});
  const list = h('div', { 'aria-busy': 'true' });
  const outcome = h('div', { role: 'status' });
  const form = h('form', { role: 'search', 'aria-label': 'Filter the deliveries', class: 'filters' });
  view.append(
    heading('Deliveries'),
    h(
      'p',
      { class: 'lede' },
      'Every webhook delivery of the account, newest first, with each attempt and the signed request it sent. New deliveries appear as they happen.',
    ),
    form,
    outcome,
    list,
  );

  let endpoints: SandboxWebhookEndpointState[];
  let deliveries: SandboxDelivery[];
  try {
    [{ data: endpoints }, { data: deliveries }] = await Promise.all([
      context.api.call('get', '/_sandbox/webhooks'),
      context.api.call('get', '/_sandbox/deliveries', { query: Object.fromEntries(filters) }),
    ]);
  } catch (error) {
    replace(list, errorAlert(error));
    list.removeAttribute('aria-busy');
    return;
  }
  const urls = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.url]));
  fillFilters(form, endpoints, filters, context);

  const rows = new Map<string, HTMLTableRowElement>();
  const show = (delivery: SandboxDelivery, where: 'top' | 'bottom'): void => {
    const row = deliveryRow(delivery, urls, context, outcome, show);
    const shown = rows.get(delivery.id);
    if (shown !== undefined) {
      const open =
        shown.nextElementSibling?.classList.contains('detail-row') === true ? shown.nextElementSibling : null;
      shown.replaceWith(row);
      open?.remove();
    } else if (where === 'top') {
      body.prepend(row);
    } else {
      body.append(row);
    }
    rows.set(delivery.id, row);
    renderTable();
  };
  const renderTable = (): void => {
    if (rows.size === 0) {
      replace(
        list,
        h(
          'p',
          { class: 'empty' },
          filters.size === 0
            ? 'No deliveries yet: add an endpoint and Test it, or make a receipt through the API.'
            : 'No delivery matches these filters.',
        ),
      );
    } else if (!list.contains(body)) {
      replace(
        list,
        scroller(
          'Deliveries',
          h(
            'table',
            {},
            h('caption', {}, 'Deliveries, newest first'),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Event', 'Endpoint', 'State', 'Created', 'Attempts', 'Next attempt', 'Actions'].map((text) =>
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
  for (const delivery of deliveries) show(delivery, 'bottom');
  renderTable();
  list.removeAttribute('aria-busy');

  context.onLeave(
    context.feed.on('delivery', (delivery) => {
      if (filters.has('webhook_id') && String(delivery.webhook_id) !== filters.get('webhook_id')) return;
      if (filters.has('state') && delivery.state !== filters.get('state')) {
        // A delivery shown that left the chosen state goes on being shown as it now is.
        if (!rows.has(delivery.id)) return;
      }
      const isNew = !rows.has(delivery.id);
      show(delivery, 'top');
      if (isNew) context.announce(`New delivery: ${delivery.event} to endpoint ${delivery.webhook_id}.`);
    }),
  );
}

function fillFilters(
  form: HTMLFormElement,
  endpoints: readonly SandboxWebhookEndpointState[],
  filters: URLSearchParams,
  context: PageContext,
): void {
  const endpoint = select(
    'webhook_id',
    [['', 'All endpoints'], ...endpoints.map((item) => [String(item.id), `Endpoint ${item.id}: ${item.url}`] as const)],
    filters.get('webhook_id') ?? '',
  );
  const state = select(
    'state',
    [['', 'Any state'], ...STATES.map((name) => [name, name] as const)],
    filters.get('state') ?? '',
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = new URLSearchParams();
    if (endpoint.value !== '') query.set('webhook_id', endpoint.value);
    if (state.value !== '') query.set('state', state.value);
    context.go(`#/deliveries?${query.toString()}`);
  });
  replace(
    form,
    h('div', { class: 'grid' }, field('Endpoint', endpoint), field('State', state)),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Filter')),
  );
}

function deliveryRow(
  delivery: SandboxDelivery,
  urls: ReadonlyMap<number, string>,
  context: PageContext,
  outcome: HTMLElement,
  show: (delivery: SandboxDelivery, where: 'top' | 'bottom') => void,
): HTMLTableRowElement {
  const detailId = `delivery-${delivery.id}`;
  const toggle = h(
    'button',
    { type: 'button', class: 'secondary', 'aria-expanded': 'false', 'aria-controls': detailId },
    'Details',
  );
  const row = h(
    'tr',
    {},
    h('th', { scope: 'row' }, delivery.event),
    h('td', { class: 'url' }, urls.get(delivery.webhook_id) ?? `Endpoint ${delivery.webhook_id} (deleted)`),
    h('td', {}, h('span', { class: `badge ${delivery.state}` }, delivery.state)),
    h('td', {}, formatTime(delivery.created_at)),
    h('td', {}, String(delivery.attempts.length)),
    h('td', {}, formatTime(delivery.next_attempt_at)),
    h(
      'td',
      { class: 'row-actions' },
      toggle,
      h(
        'button',
        {
          type: 'button',
          onclick: async () => {
            try {
              const { data } = await context.api.call('post', '/_sandbox/deliveries/{id}/redeliver', {
                path: { id: delivery.id },
              });
              show(data, 'top');
              const attempt = data.attempts.at(-1);
              const result =
                attempt?.status_code === null || attempt === undefined
                  ? (attempt?.error ?? 'no answer')
                  : `answered ${attempt.status_code}`;
              replace(
                outcome,
                h('p', { class: 'notice' }, `Resent ${data.event} to endpoint ${data.webhook_id}: ${result}.`),
              );
            } catch (error) {
              replace(outcome, errorAlert(error));
            }
          },
        },
        'Resend',
      ),
    ),
  );
  toggle.addEventListener('click', async () => {
    const open = row.nextElementSibling?.id === detailId ? row.nextElementSibling : null;
    if (open !== null) {
      open.remove();
      toggle.setAttribute('aria-expanded', 'false');
      return;
    }
    const cell = h('td', { colspan: 7 }, h('p', { class: 'muted' }, 'Loading...'));
    row.after(h('tr', { id: detailId, class: 'detail-row' }, cell));
    toggle.setAttribute('aria-expanded', 'true');
    try {
      const { data } = await context.api.call('get', '/_sandbox/deliveries/{id}', { path: { id: delivery.id } });
      replace(cell, deliveryDetail(data));
    } catch (error) {
      replace(cell, errorAlert(error));
    }
  });
  return row;
}

function deliveryDetail(delivery: SandboxDeliveryDetail): HTMLElement {
  const { request } = delivery;
  return h(
    'div',
    { class: 'detail' },
    h('h2', {}, `Delivery ${delivery.id}`),
    table(
      `Attempts of delivery ${delivery.id}`,
      ['Time', 'Status', 'Error', 'Duration'],
      delivery.attempts.map((attempt) =>
        h(
          'tr',
          {},
          h('td', {}, formatTime(attempt.at)),
          h('td', {}, attempt.status_code === null ? 'no answer' : String(attempt.status_code)),
          h('td', {}, attempt.error ?? ''),
          h('td', {}, formatDuration(attempt.duration_ms)),
        ),
      ),
      'No attempt yet: the first one is due now.',
    ),
    h('h3', {}, 'Request'),
    request === null
      ? h('p', { class: 'muted' }, 'The endpoint was deleted with its secret, so the signed request cannot be shown.')
      : [
          details([
            ['Method and URL', `${request.method} ${request.url}`],
            ...Object.entries(request.headers).map(([name, value]) => [name, h('code', {}, value)] as const),
          ]),
          h('h4', {}, 'Body'),
          h('pre', { class: 'body', tabindex: 0, 'aria-label': 'Request body' }, request.body),
        ],
  );
}
