import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_TYPES,
  DEFAULT_PER_PAGE,
  ELIGIBLE_ACCOUNT_TYPES,
  HEADERS,
  MAX_PER_PAGE,
  NICS_RESULTS,
  PERMISSIONS,
  RATE_LIMIT_PER_MINUTE,
  RECEIPT_STATUSES,
  SEARCH_FIELDS,
  SECRET_PREFIX,
  SIGNATURE_PREFIX,
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_TIMEOUT_SECONDS,
  WEBHOOK_USER_AGENT,
  WILDCARD_SUBSCRIPTION,
} from '@fflkit/types';
import { contract, contractComponent } from './contract';

const schemaEnum = (name: string): unknown => contractComponent('schemas', name)['enum'];

describe('the constants agree with openapi/openapi.yaml', () => {
  it.each([
    ['WebhookEventName', WEBHOOK_EVENT_NAMES],
    ['ReceiptStatus', RECEIPT_STATUSES],
    ['Permission', PERMISSIONS],
    ['AccountType', ACCOUNT_TYPES],
    ['SearchField', SEARCH_FIELDS],
    ['NicsResult', NICS_RESULTS],
  ])('the %s enum lists exactly the constant', (schema, constant) => {
    expect(schemaEnum(schema)).toEqual(constant);
  });

  it('every eligible account type is an account type, and collector is not eligible', () => {
    for (const type of ELIGIBLE_ACCOUNT_TYPES) expect(ACCOUNT_TYPES).toContain(type);
    expect(ELIGIBLE_ACCOUNT_TYPES).not.toContain('collector');
  });

  it('a subscription is an event name or the wildcard', () => {
    const subscription = contractComponent('schemas', 'WebhookSubscription');
    expect(JSON.stringify(subscription)).toContain(`"${WILDCARD_SUBSCRIPTION}"`);
  });

  it('per_page defaults to DEFAULT_PER_PAGE and is at most MAX_PER_PAGE', () => {
    const schema = contractComponent('parameters', 'PerPage')['schema'];
    expect(schema).toMatchObject({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE });
  });

  it('the rate-limit header example is RATE_LIMIT_PER_MINUTE', () => {
    expect(contractComponent('headers', 'X-RateLimit-Limit')['example']).toBe(RATE_LIMIT_PER_MINUTE);
  });

  it('every rate-limit header name is a header of the contract', () => {
    const headers = Object.keys(contract['components']['headers']);
    for (const name of [
      HEADERS.rateLimitLimit,
      HEADERS.rateLimitRemaining,
      HEADERS.rateLimitReset,
      HEADERS.retryAfter,
    ]) {
      expect(headers).toContain(name);
    }
  });

  it('the delivery schedule matches the extensions of the DeliveryFailed response', () => {
    const failed = contractComponent('responses', 'DeliveryFailed');
    expect(failed['x-retry-delays-seconds']).toEqual(WEBHOOK_RETRY_DELAYS_SECONDS);
    expect(failed['x-timeout-seconds']).toBe(WEBHOOK_TIMEOUT_SECONDS);
    expect(failed['x-disable-after-failures']).toBe(WEBHOOK_DISABLE_AFTER_FAILURES);
  });

  it('the secret pattern starts with SECRET_PREFIX', () => {
    const created = contractComponent('schemas', 'WebhookEndpointCreated');
    expect(created['properties']['secret']['pattern']).toMatch(new RegExp(`^\\^${SECRET_PREFIX}`));
  });

  it('every delivery declares the X-SVC headers and the user agent', () => {
    const parameters = contract['components']['parameters'];
    expect(parameters[HEADERS.signature]['schema']['pattern']).toBe(`^${SIGNATURE_PREFIX}[0-9a-f]{64}$`);
    expect(parameters[HEADERS.delivery]['in']).toBe('header');
    expect(parameters['User-Agent']['schema']['const']).toBe(WEBHOOK_USER_AGENT);
    for (const name of WEBHOOK_EVENT_NAMES) {
      const delivery = contract['webhooks'][name]['post'];
      const event = delivery['parameters'].find((p: { name?: string }) => p.name === HEADERS.event);
      expect(event['schema']['const']).toBe(name);
    }
  });
});
