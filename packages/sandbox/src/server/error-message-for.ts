import { PAYLOAD_TOO_LARGE_MESSAGE } from '@boundbook/sandbox-core';
import type { Boom } from '@hapi/boom';

/** The message for a path that neither the service API nor the control API serves. */
export const ROUTE_NOT_FOUND_MESSAGE =
  'Not found: the sandbox serves the API under /rest/v1 and its control API under /_sandbox.';

/**
 * The `message` of the contract's error body for an error that Hapi raised before the core saw
 * the request (unknown route, oversized or unreadable request), or for a failure of the sandbox.
 */
export function errorMessageFor(error: Boom): string {
  const status = error.output.statusCode;
  if (status === 404) return ROUTE_NOT_FOUND_MESSAGE;
  if (status === 413) return PAYLOAD_TOO_LARGE_MESSAGE;
  const specific = error.message !== '' && error.message !== error.output.payload.error;
  if (status >= 500) {
    return `The sandbox failed to answer this request${specific ? ` (${error.message})` : ''}.`;
  }
  if (status === 400) {
    return `The request is malformed${specific ? ` (${error.message})` : ''}: check its URL and headers.`;
  }
  return sentence(specific ? error.message : error.output.payload.error);
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
