/**
 * The reason a delivery attempt got no answer, in the words of the control API's `error`, from
 * the failed connection's error code (`ECONNREFUSED`, `ENOTFOUND`, ...) and message. Every
 * transport (the sandbox's `node:http`, the MSW handlers' `fetch`) words failures alike.
 *
 * @example
 * ```ts
 * describeDeliveryFailure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'); // 'Connection refused.'
 * ```
 */
export function describeDeliveryFailure(code: string | undefined, message: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'Connection refused.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host name could not be resolved.';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'The connection was reset before an answer.';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'The host is unreachable.';
    default:
      return `The request failed: ${message}`;
  }
}

/**
 * The `error` of an attempt that got no status within the time-out.
 *
 * @example
 * ```ts
 * describeDeliveryTimeout(5000); // 'No answer within 5 seconds.'
 * ```
 */
export function describeDeliveryTimeout(timeoutMs: number): string {
  const seconds = timeoutMs / 1000;
  return `No answer within ${Number.isInteger(seconds) ? seconds : seconds.toFixed(3).replace(/0+$/, '')} seconds.`;
}
