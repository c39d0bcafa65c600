import { describe, expect, it } from 'vitest';
import { describeDeliveryFailure, describeDeliveryTimeout } from '../../src/index';

describe('describeDeliveryFailure(code, message)', () => {
  it.each([
    ['ECONNREFUSED', 'Connection refused.'],
    ['ENOTFOUND', 'The host name could not be resolved.'],
    ['EAI_AGAIN', 'The host name could not be resolved.'],
    ['ECONNRESET', 'The connection was reset before an answer.'],
    ['UND_ERR_SOCKET', 'The connection was reset before an answer.'],
    ['EHOSTUNREACH', 'The host is unreachable.'],
    ['ENETUNREACH', 'The host is unreachable.'],
  ])('words %s as %j', (code, words) => {
    expect(describeDeliveryFailure(code, 'whatever the socket said')).toBe(words);
  });

  it('passes on the message of any other failure', () => {
    expect(describeDeliveryFailure(undefined, 'bad port')).toBe('The request failed: bad port');
  });
});

describe('describeDeliveryTimeout(timeoutMs)', () => {
  it('says how many seconds passed without an answer', () => {
    expect(describeDeliveryTimeout(5000)).toBe('No answer within 5 seconds.');
    expect(describeDeliveryTimeout(250)).toBe('No answer within 0.25 seconds.');
  });
});
