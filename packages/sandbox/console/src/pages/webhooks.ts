import {
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_EVENT_NAMES,
  WILDCARD_SUBSCRIPTION,
  type SandboxWebhookEndpointState,
  type WebhookSubscription,
} from '@fflkit/types';
import { field, h, replace, secretBox, table } from '../elements';
import { errorAlert, heading, type PageContext } from '../page';

// Webhook endpoints, as the service's dashboard shows them: enabled or disabled, with their
// consecutive failed attempts (the 10th disables an endpoint); Add endpoint with the events to
// choose (the secret shown once), Test (a ping), Re-enable and Delete, all control calls.

/** The events an endpoint can choose; `ping` is sent by Test whatever it chose. */
const EVENTS = WEBHOOK_EVENT_NAMES.filter((event) => event !== 'ping');

/** Draws the webhooks page into `view`. */
export async function showWebhooks(view: HTMLElement, context: PageContext): Promise<void> {
  const list = h('div', { 'aria-busy': 'true' });
  const created = h('div', {});
  const outcome = h('div', { role: 'status' });
  view.append(
    heading('Webhooks'),
    h(
      'p',
      { class: 'lede' },
      `Endpoints that receive the account's events, signed with their secret. An endpoint is disabled after ${WEBHOOK_DISABLE_AFTER_FAILURES} failed attempts in a row, until it is re-enabled.`,
    ),
    created,
    outcome,
    list,
    addForm(context, created, () => refresh(list, outcome, context)),
  );
  await refresh(list, outcome, context);
}

async function refresh(list: HTMLElement, outcome: HTMLElement, context: PageContext): Promise<void> {
  try {
    const { data } = await context.api.call('get', '/_sandbox/webhooks');
    replace(
      list,
      table(
        'Webhook endpoints',
        ['Endpoint', 'URL', 'Events', 'State', 'Consecutive failures', 'Actions'],
        data.map((endpoint) => endpointRow(endpoint, list, outcome, context)),
        'The account has no webhook endpoints: add one below.',
      ),
    );
  } catch (error) {
    replace(list, errorAlert(error));
  }
  list.removeAttribute('aria-busy');
}

function endpointRow(
  endpoint: SandboxWebhookEndpointState,
  list: HTMLElement,
  outcome: HTMLElement,
  context: PageContext,
): HTMLTableRowElement {
  const act = async (run: () => Promise<string>): Promise<void> => {
    try {
      const said = await run();
      await refresh(list, outcome, context);
      replace(
        outcome,
        h(
          'p',
          { class: 'notice' },
          said,
          ' ',
          h('a', { href: `#/deliveries?webhook_id=${endpoint.id}` }, `Deliveries of endpoint ${endpoint.id}`),
        ),
      );
    } catch (error) {
      replace(outcome, errorAlert(error));
    }
  };
  const test = () =>
    act(async () => {
      const { data } = await context.api.call('post', '/_sandbox/webhooks/{id}/ping', { path: { id: endpoint.id } });
      const attempt = data.attempts.at(-1);
      if (data.state === 'succeeded')
        return `Ping to endpoint ${endpoint.id} delivered: answered ${attempt?.status_code ?? ''}.`;
      const why =
        attempt?.status_code === null || attempt === undefined
          ? (attempt?.error ?? 'no answer')
          : `answered ${attempt.status_code}`;
      return `Ping to endpoint ${endpoint.id} failed (${why}); it is retried on schedule.`;
    });
  const enable = () =>
    act(async () => {
      await context.api.call('post', '/_sandbox/webhooks/{id}/enable', { path: { id: endpoint.id } });
      return `Endpoint ${endpoint.id} re-enabled.`;
    });
  const remove = () => {
    if (!window.confirm(`Delete endpoint ${endpoint.id} (${endpoint.url})? Its pending deliveries are cancelled.`))
      return Promise.resolve();
    return act(async () => {
      await context.api.call('delete', '/_sandbox/webhooks/{id}', { path: { id: endpoint.id } });
      return `Endpoint ${endpoint.id} deleted.`;
    });
  };
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, `Endpoint ${endpoint.id}`),
    h('td', { class: 'url' }, endpoint.url),
    h('td', {}, endpoint.events.includes(WILDCARD_SUBSCRIPTION) ? 'All events' : endpoint.events.join(', ')),
    h(
      'td',
      {},
      h('span', { class: endpoint.enabled ? 'badge good' : 'badge bad' }, endpoint.enabled ? 'Enabled' : 'Disabled'),
    ),
    h('td', {}, String(endpoint.consecutive_failures)),
    h(
      'td',
      { class: 'row-actions' },
      endpoint.enabled
        ? h('button', { type: 'button', onclick: test }, 'Test')
        : h('button', { type: 'button', onclick: enable }, 'Re-enable'),
      h('button', { type: 'button', class: 'danger', onclick: remove }, 'Delete'),
    ),
  );
}

function addForm(context: PageContext, created: HTMLElement, refreshList: () => Promise<void>): HTMLElement {
  const url = h('input', {
    type: 'url',
    name: 'url',
    required: true,
    maxlength: 255,
    placeholder: 'http://127.0.0.1:3000/hooks/logbook',
    autocomplete: 'off',
  });
  const problem = h('div', {});
  const all = h('input', {
    type: 'checkbox',
    name: 'events',
    value: WILDCARD_SUBSCRIPTION,
    id: 'event-all',
    checked: true,
  });
  const each = EVENTS.map((event) =>
    h('input', { type: 'checkbox', name: 'events', value: event, id: `event-${event.replace('.', '-')}` }),
  );
  // All events stands alone: choosing it clears the others, choosing one of them clears it.
  all.addEventListener('change', () => {
    if (all.checked) for (const box of each) box.checked = false;
  });
  for (const box of each)
    box.addEventListener('change', () => {
      if (box.checked) all.checked = false;
    });
  const form = h(
    'form',
    {
      class: 'stack',
      'aria-labelledby': 'add-endpoint-heading',
      onsubmit: async (event: SubmitEvent) => {
        event.preventDefault();
        problem.replaceChildren();
        const events = [all, ...each].filter((box) => box.checked).map((box) => box.value);
        try {
          const answer = await context.api.call('post', '/_sandbox/webhooks', {
            body: { url: url.value.trim(), events: events as WebhookSubscription[] },
          });
          replace(
            created,
            secretBox(
              `Endpoint ${answer.data.id} added`,
              'Signing secret',
              answer.secret,
              "Verify each delivery's X-SVC-Signature with it.",
            ),
          );
          form.reset();
          context.announce(`Endpoint ${answer.data.id} added. Copy its signing secret now: it is shown only once.`);
          await refreshList();
          created.querySelector<HTMLInputElement>('input.secret')?.focus();
        } catch (error) {
          problem.append(errorAlert(error));
        }
      },
    },
    h('h2', { id: 'add-endpoint-heading' }, 'Add an endpoint'),
    field('URL', url, 'An absolute http or https URL that answers 2xx within 5 seconds.'),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Events'),
      h('div', { class: 'check' }, all, h('label', { for: all.id }, 'All events (*)')),
      each.map((box) => h('div', { class: 'check' }, box, h('label', { for: box.id }, box.value))),
    ),
    problem,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Add endpoint')),
  );
  return form;
}
