import type { Contract, JsonObject } from '../contract/contract';
import { type LogbookTool, ToolCallError, type ToolContext, type ToolOutcome } from './tool';

// `trigger_event`: fires a webhook event in the sandbox by making the change that fires it, as
// an integration would, through the other tools: a new receipt (the contract's own example of
// `POST /receipts`, with a serial number of its own, dated today on the account's clock),
// then its correction, disposition (the contract's example of a disposition) or deletion; or
// the dashboard's Test action for `ping`. It answers the receipt and the deliveries it made.

const TOOL_NAME = 'trigger_event';

/** What the steps of a trigger answered, parsed. */
type Json = Record<string, unknown>;

/**
 * The `trigger_event` tool over the tools of `tools` (`list_webhook_states`, `get_clock`,
 * `list_books`, `create_receipt`, ...). `randomSuffix` makes each receipt's serial number its own.
 */
export function triggerEventTool(
  contract: Contract,
  tools: ReadonlyMap<string, LogbookTool>,
  randomSuffix: () => string = () => crypto.randomUUID().slice(0, 8).toUpperCase(),
): LogbookTool {
  const events = (contract.schema('openapi.yaml', 'WebhookEventName')['enum'] as string[] | undefined) ?? [];
  const operations = new Map(contract.operations.map((operation) => [operation.operationId, operation]));
  const example = (operationId: string): Json => {
    const examples = Object.values(operations.get(operationId)?.bodyExamples ?? {});
    return { ...((examples[0] as Json | undefined) ?? {}) };
  };
  const run = async (name: string, args: Json, context: ToolContext): Promise<unknown> => {
    const tool = tools.get(name);
    if (tool === undefined) throw new ToolCallError(`${TOOL_NAME} needs the tool ${name}, which this server lacks.`);
    const outcome = await tool.call(args, context);
    if (outcome.isError) throw new StepFailed(name, outcome);
    return JSON.parse(outcome.texts[0] ?? 'null') as unknown;
  };

  return {
    name: TOOL_NAME,
    title: 'Trigger a webhook event',
    description: [
      'Fires a webhook event in the sandbox by making the change that fires it, as an integration would:',
      "receipt.created records a new receipt (the contract's example receipt, with a serial number TRIGGER-..., dated today on the account's clock, in the first book);",
      'receipt.updated, receipt.disposed and receipt.deleted record one, then correct, dispose of or delete it (receipt.created fires first);',
      "ping is the dashboard's Test action on every enabled endpoint.",
      'Changes nothing when no enabled endpoint gets the event. Answers the receipt and the deliveries made;',
      'the sandbox attempts them as the service would: list_deliveries shows their attempts, advance_clock their retries.',
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        event: { type: 'string', enum: events, description: 'The event to fire.' },
      },
      required: ['event'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    scope: 'sandbox',
    async call(args, context) {
      const event = args['event'];
      if (typeof event !== 'string' || !events.includes(event)) {
        throw new ToolCallError(`${TOOL_NAME} needs event, one of ${events.join(', ')}.`);
      }
      const unknown = Object.keys(args).filter((name) => name !== 'event');
      if (unknown.length > 0) throw new ToolCallError(`${TOOL_NAME} takes only event; not ${unknown.join(', ')}.`);
      try {
        const endpoints = ((await run('list_webhook_states', {}, context)) as { data: Json[] }).data;
        const targets = endpoints.filter(
          (endpoint) =>
            endpoint['enabled'] === true &&
            (event === 'ping' || (endpoint['events'] as string[]).some((name) => name === '*' || name === event)),
        );
        if (targets.length === 0) {
          return refused(
            `No enabled endpoint of the account gets ${event}, so nothing was changed: add one with create_webhook, or re-enable one with enable_webhook.`,
          );
        }
        if (event === 'ping') {
          const deliveries: unknown[] = [];
          for (const endpoint of targets) {
            deliveries.push(((await run('ping_webhook', { id: endpoint['id'] }, context)) as Json)['data']);
          }
          return answered({ event, deliveries });
        }
        const before = await deliveryIds(run, context);
        const receipt = await changeState(event, run, context, example, randomSuffix);
        const after = ((await run('list_deliveries', {}, context)) as { data: Json[] }).data;
        const deliveries = after.filter((delivery) => !before.has(String(delivery['id']))).reverse();
        return answered({ event, receipt, deliveries });
      } catch (error) {
        if (error instanceof StepFailed) {
          return { ...error.outcome, texts: [`${TOOL_NAME} stopped at ${error.step}:`, ...error.outcome.texts] };
        }
        throw error;
      }
    },
  };
}

/** Makes the change that fires `event`; resolves with the receipt as the last step answered it. */
async function changeState(
  event: string,
  run: (name: string, args: Json, context: ToolContext) => Promise<unknown>,
  context: ToolContext,
  example: (operationId: string) => Json,
  randomSuffix: () => string,
): Promise<unknown> {
  const { now } = ((await run('get_clock', {}, context)) as { data: { now: string } }).data;
  const today = now.slice(0, 10);
  const books = ((await run('list_books', {}, context)) as { data: { name: string }[] }).data;
  const suffix = randomSuffix();
  const created = (
    (await run(
      'create_receipt',
      {
        ...example('createReceipt'),
        book: books[0]?.name ?? 'Main',
        serial_number: `TRIGGER-${suffix}`,
        receipt_date: today,
      },
      context,
    )) as { data: Json }
  ).data;
  const id = created['id'];
  if (event === 'receipt.updated') {
    return ((await run('update_receipt', { ...example('updateReceipt'), id }, context)) as Json)['data'];
  }
  if (event === 'receipt.disposed') {
    const disposition: Json = { ...example('disposeReceipt'), id, disposition_date: today };
    if (typeof disposition['form_4473_serial'] === 'string') disposition['form_4473_serial'] = `TRIGGER-${suffix}`;
    return ((await run('dispose_receipt', disposition, context)) as Json)['data'];
  }
  if (event === 'receipt.deleted') {
    await run('delete_receipt', { id }, context);
  }
  return created;
}

async function deliveryIds(
  run: (name: string, args: Json, context: ToolContext) => Promise<unknown>,
  context: ToolContext,
): Promise<Set<string>> {
  const { data } = (await run('list_deliveries', {}, context)) as { data: JsonObject[] };
  return new Set(data.map((delivery) => String(delivery['id'])));
}

function answered(value: Json): ToolOutcome {
  return { texts: [JSON.stringify(value)], isError: false };
}

function refused(message: string): ToolOutcome {
  return { texts: [message], isError: true };
}

/** A step of the trigger answered an error: the trigger stops and answers it. */
class StepFailed extends Error {
  override readonly name = 'StepFailed';
  readonly step: string;
  readonly outcome: ToolOutcome;

  constructor(step: string, outcome: ToolOutcome) {
    super(`${step} failed`);
    this.step = step;
    this.outcome = outcome;
  }
}
