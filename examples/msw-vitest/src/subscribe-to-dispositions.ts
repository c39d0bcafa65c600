import type { LogbookClient } from '@fflkit/sdk';

/**
 * Registers the point-of-sale's endpoint for dispositions and returns the signing secret, which
 * the service shows only once: store it where the receiver reads it.
 *
 * @example
 * ```ts
 * const secret = await subscribeToDispositions(logbook, 'https://pos.example.com/hooks/logbook');
 * ```
 */
export async function subscribeToDispositions(logbook: LogbookClient, url: string): Promise<string> {
  const { secret } = await logbook.webhooks.create({ url, events: ['receipt.disposed'] });
  return secret;
}
