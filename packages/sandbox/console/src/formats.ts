// How the console writes values for a person: times on the account's clock, durations, counts,
// and the parts of an address as the bound book joins them.

/** An ISO 8601 instant as `2025-03-14 15:04:05 UTC`; the sandbox's times are in UTC. */
export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A duration in milliseconds as `12 ms` or `5.0 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A number of seconds as the largest whole units: `1 h 5 min`, `30 s`, `0 s`. */
export function formatSeconds(total: number): string {
  const units: Array<[number, string]> = [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let rest = Math.floor(total);
  for (const [size, unit] of units) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  return parts.length === 0 ? '0 s' : parts.join(' ');
}

/** A count with thousands separators. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** An amount of money in dollars, or nothing. */
export function formatAmount(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : `$${value.toFixed(2)}`;
}

/** Street, city, and state and ZIP joined with `, `, parts that are absent left out, as the CSV export joins them. */
export function formatAddress(parts: {
  address?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
}): string {
  const region = [parts.state, parts.zip]
    .filter((part) => part !== null && part !== undefined && part !== '')
    .join(' ');
  return [parts.address, parts.city, region]
    .filter((part) => part !== null && part !== undefined && part !== '')
    .join(', ');
}

/** Any JSON value of an audit change, as text: `null` reads "none", strings are quoted. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return `"${value}"`;
  return JSON.stringify(value);
}
