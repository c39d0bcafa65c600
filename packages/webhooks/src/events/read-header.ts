/**
 * Request headers as a Fetch `Headers` object or a plain record such as Node's
 * `IncomingHttpHeaders`. Names are matched case-insensitively either way.
 */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The value of one header, or `undefined` when it is absent. Repeated values are joined with
 * `", "` as Fetch does, so a repeated signature header reads as malformed, never as one of its
 * copies.
 *
 * @example
 * ```ts
 * readHeader({ 'x-svc-event': 'ping' }, 'X-SVC-Event'); // 'ping'
 * readHeader(new Headers({ 'X-SVC-Event': 'ping' }), 'x-svc-event'); // 'ping'
 * ```
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers.get as (name: string) => string | null)(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const lower = name.toLowerCase();
  let value = record[lower];
  if (value === undefined) {
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === lower);
    value = key === undefined ? undefined : record[key];
  }
  return typeof value === 'string' || value === undefined ? value : value.join(', ');
}
