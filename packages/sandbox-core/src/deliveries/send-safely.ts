import type { DeliveryOutcome, DeliveryRequest, DeliverySender } from './delivery-sender';

/**
 * Sends through a transport and resolves with an outcome the contract can record, whatever the
 * transport does: a rejection or a throw becomes `{ error }` with its message, and anything but
 * an integer `status` or a string `error` becomes an error that says so. Never rejects.
 *
 * @example
 * ```ts
 * const outcome = await sendSafely(send, request); // { status: 200 } or { error: '...' }
 * ```
 */
export async function sendSafely(send: DeliverySender, request: DeliveryRequest): Promise<DeliveryOutcome> {
  let outcome: unknown;
  try {
    outcome = await send(request);
  } catch (error) {
    return { error: `The transport failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const value = outcome as Partial<Record<'status' | 'error', unknown>> | null | undefined;
  if (typeof value?.status === 'number' && Number.isInteger(value.status)) return { status: value.status };
  if (typeof value?.error === 'string') return { error: value.error };
  return { error: 'The transport answered neither a status nor an error.' };
}
