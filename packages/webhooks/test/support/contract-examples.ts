import { readFileSync } from 'node:fs';
import { WEBHOOK_EVENT_NAMES, type WebhookEventName, type WebhookEventOf } from '@fflkit/types';
import { parse } from 'yaml';

interface Ref {
  $ref: string;
}

const contract = parse(readFileSync(new URL('../../../../openapi/openapi.yaml', import.meta.url), 'utf8'));

function resolve(ref: Ref): { content: { 'application/json': { example: unknown } } } {
  return ref.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node, key) => node[key], contract);
}

/**
 * The example body of each event, read from the `webhooks:` section of `openapi/openapi.yaml`:
 * deliveries in the tests are shaped exactly as the contract's examples.
 */
export const EVENT_EXAMPLES = Object.fromEntries(
  WEBHOOK_EVENT_NAMES.map((name) => [
    name,
    resolve(contract.webhooks[name].post.requestBody).content['application/json'].example,
  ]),
) as { readonly [Name in WebhookEventName]: WebhookEventOf<Name> };
