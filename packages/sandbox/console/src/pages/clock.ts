import type { SandboxClock, SandboxDelivery, SandboxDeliveryAttempt, SandboxWebhookEndpointState } from '@fflkit/types';
import { details, field, h, replace, select, table } from '../elements';
import { formatDuration, formatSeconds, formatTime } from '../formats';
import { errorAlert, heading, type PageContext } from '../page';

// The account's clock: its time and how far it was advanced. Advance moves it forward, and the
// sandbox makes every delivery attempt that falls due in the skipped time before answering;
// the page shows those attempts, found by comparing the deliveries before and after.

const STEPS: ReadonlyArray<readonly [seconds: number, text: string]> = [
  [60, '1 min'],
  [300, '5 min'],
  [1800, '30 min'],
  [3600, '1 h'],
];
const UNITS: ReadonlyArray<readonly [value: string, text: string]> = [
  ['60', 'minutes'],
  ['3600', 'hours'],
  ['86400', 'days'],
];
/** The most one advance may skip, as the control API takes it: a year. */
const MAX_SECONDS = 31_536_000;

/** Draws the clock page into `view`. */
export async function showClock(view: HTMLElement, context: PageContext): Promise<void> {
  const now = h('div', { 'aria-live': 'polite' });
  const fell = h('div', {});
  const problem = h('div', {});
  const amount = h('input', {
    type: 'number',
    name: 'amount',
    min: 1,
    step: 1,
    required: true,
    value: '2',
    inputmode: 'numeric',
  });
  const unit = select('unit', UNITS, '3600');
  const buttons: HTMLButtonElement[] = [];
  const advance = async (seconds: number): Promise<void> => {
    problem.replaceChildren();
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SECONDS) {
      problem.append(errorAlert(new Error('Advance by a whole number of seconds from 1 second to one year.')));
      return;
    }
    for (const button of buttons) button.disabled = true;
    try {
      const before = await context.api.call('get', '/_sandbox/deliveries');
      const { data: clock } = await context.api.call('post', '/_sandbox/clock/advance', { body: { seconds } });
      const [after, endpoints] = await Promise.all([
        context.api.call('get', '/_sandbox/deliveries'),
        context.api.call('get', '/_sandbox/webhooks'),
      ]);
      showClockState(now, clock);
      const attempts = fallenDue(before.data, after.data);
      replace(fell, fallenDueTable(attempts, formatSeconds(seconds), endpoints.data));
      context.announce(
        `Advanced ${formatSeconds(seconds)}; ${attempts.length} delivery ${attempts.length === 1 ? 'attempt' : 'attempts'} fell due.`,
      );
    } catch (error) {
      problem.append(errorAlert(error));
    } finally {
      for (const button of buttons) button.disabled = false;
    }
  };
  for (const [seconds, text] of STEPS) {
    buttons.push(h('button', { type: 'button', onclick: () => advance(seconds) }, `Advance ${text}`));
  }
  const form = h(
    'form',
    {
      class: 'inline-form',
      'aria-label': 'Advance by a chosen amount',
      onsubmit: (event: SubmitEvent) => {
        event.preventDefault();
        void advance(Number(amount.value) * Number(unit.value));
      },
    },
    field('Amount', amount),
    field('Unit', unit),
    h('button', { type: 'submit' }, 'Advance'),
  );
  buttons.push(form.querySelector('button')!);
  view.append(
    heading('Clock'),
    h(
      'p',
      { class: 'lede' },
      "The account's own time: it decides today's date for the records, every timestamp, and when delivery retries fall due (1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after a failure). It only moves forward.",
    ),
    now,
    h(
      'section',
      { 'aria-labelledby': 'advance-heading' },
      h('h2', { id: 'advance-heading' }, 'Advance the clock'),
      h('div', { class: 'actions' }, buttons.slice(0, STEPS.length)),
      form,
      problem,
    ),
    fell,
  );
  try {
    const { data } = await context.api.call('get', '/_sandbox/clock');
    showClockState(now, data);
  } catch (error) {
    replace(now, errorAlert(error));
  }
}

function showClockState(target: HTMLElement, clock: SandboxClock): void {
  replace(
    target,
    details([
      ["Account's time", formatTime(clock.now)],
      ['Ahead of real time by', formatSeconds(clock.offset_seconds)],
    ]),
  );
}

interface FallenDue {
  readonly delivery: SandboxDelivery;
  readonly attempt: SandboxDeliveryAttempt;
}

/** The attempts that the deliveries `after` have beyond those they had `before`, in time order. */
function fallenDue(before: readonly SandboxDelivery[], after: readonly SandboxDelivery[]): FallenDue[] {
  const made = new Map(before.map((delivery) => [delivery.id, delivery.attempts.length]));
  const found: FallenDue[] = [];
  for (const delivery of after) {
    for (const attempt of delivery.attempts.slice(made.get(delivery.id) ?? 0)) found.push({ delivery, attempt });
  }
  return found.sort((a, b) => a.attempt.at.localeCompare(b.attempt.at));
}

function fallenDueTable(
  attempts: readonly FallenDue[],
  skipped: string,
  endpoints: readonly SandboxWebhookEndpointState[],
): HTMLElement {
  const states = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
  const disabled = endpoints.filter((endpoint) => !endpoint.enabled);
  return h(
    'section',
    { 'aria-labelledby': 'fell-due-heading' },
    h('h2', { id: 'fell-due-heading' }, 'Attempts that fell due'),
    table(
      `Delivery attempts made while the clock skipped ${skipped}`,
      ['Time', 'Event', 'Endpoint', 'Status', 'Error', 'Duration'],
      attempts.map(({ delivery, attempt }) =>
        h(
          'tr',
          {},
          h('td', {}, formatTime(attempt.at)),
          h('td', {}, delivery.event),
          h('td', {}, states.get(delivery.webhook_id)?.url ?? `Endpoint ${delivery.webhook_id}`),
          h('td', {}, attempt.status_code === null ? 'no answer' : String(attempt.status_code)),
          h('td', {}, attempt.error ?? ''),
          h('td', {}, formatDuration(attempt.duration_ms)),
        ),
      ),
      `No delivery attempt fell due in the ${skipped} skipped.`,
    ),
    disabled.length === 0
      ? null
      : h(
          'p',
          { class: 'notice' },
          `Disabled after repeated failures: ${disabled.map((endpoint) => `endpoint ${endpoint.id}`).join(', ')}. `,
          h('a', { href: '#/webhooks' }, 'Re-enable on the Webhooks page'),
        ),
  );
}
