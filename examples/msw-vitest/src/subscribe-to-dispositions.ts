import type { BoundBook } from '@boundbook/sdk';

/**
 * Registers the point-of-sale's endpoint for dispositions and returns the signing secret, which
 * the service shows only once: store it where the receiver reads it.
 *
 * @example
 * ```ts
 * const secret = await subscribeToDispositions(bb, 'https://pos.example.com/hooks/boundbook');
 * ```
 */
export async function subscribeToDispositions(bb: BoundBook, url: string): Promise<string> {
  const { secret } = await bb.webhooks.create({ url, events: ['receipt.disposed'] });
  return secret;
}
