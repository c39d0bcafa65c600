import { fieldInvalid } from '../validation/validation-failed';

/**
 * The request body as a JSON object. An absent or blank body is an empty object, as a form
 * without fields; malformed JSON, or JSON that is not an object, is the contract's 422 with
 * `errors.body`. Callers read only the own keys they know, so keys such as `__proto__` never
 * reach a prototype.
 *
 * @example
 * ```ts
 * const body = readJsonObject(request.body);
 * ```
 */
export function readJsonObject(text: string | undefined): Record<string, unknown> {
  // A UTF-8 byte order mark may precede JSON text (RFC 8259, section 8.1).
  const json = text?.startsWith('\uFEFF') ? text.slice(1) : text;
  if (json === undefined || json.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw fieldInvalid('body', 'The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw fieldInvalid('body', 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}
