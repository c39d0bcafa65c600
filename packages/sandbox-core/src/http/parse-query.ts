/**
 * A raw query string split into decoded values per name, in order of appearance. A name or value
 * whose percent-encoding is broken is kept in `malformed`, so the caller can answer 422 for it.
 *
 * @example
 * ```ts
 * parseQuery('status=on_hand&q=a+b').values.get('q'); // ['a b']
 * ```
 */
export interface ParsedQuery {
  values: Map<string, string[]>;
  malformed: string[];
}

/**
 * Parses a raw query string (without `?`) as browsers encode forms: `+` is a space.
 *
 * @example
 * ```ts
 * const { values } = parseQuery(request.query);
 * ```
 */
export function parseQuery(query: string): ParsedQuery {
  const values = new Map<string, string[]>();
  const malformed: string[] = [];
  if (query === '') return { values, malformed };
  for (const part of query.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    const rawValue = equals === -1 ? '' : part.slice(equals + 1);
    const name = decode(rawName);
    if (name === undefined) {
      malformed.push(rawName);
      continue;
    }
    const value = decode(rawValue);
    if (value === undefined) {
      malformed.push(name);
      continue;
    }
    const list = values.get(name);
    if (list === undefined) values.set(name, [value]);
    else list.push(value);
  }
  return { values, malformed };
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
