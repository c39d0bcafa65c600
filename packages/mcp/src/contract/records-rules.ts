import type { Contract, JsonObject } from './contract';

// The records rules an agent must respect before it writes a receipt or a disposition, in the
// contract's own words: the descriptions of the write operations and of their bodies, each field
// of the bodies with whether it is required and its constraints, and the formats they refer to.
// Nothing here is written by hand but the headings: the text is read from the contract.

/** The operations whose rules an agent writing records must know, in the order they are written. */
const RECORD_OPERATIONS = ['createReceipt', 'updateReceipt', 'disposeReceipt', 'deleteReceipt'] as const;

/**
 * The records rules as Markdown: for each write of a record, the operation's description, its
 * body's description (the 27 CFR 478 rules) and a table of its fields.
 */
export function recordsRules(contract: Contract): string {
  const lines = [
    '# Records rules of the Logbook Service (27 CFR 478)',
    '',
    "Read from FFLKit's contract (openapi.yaml): what each write of a record requires, in the contract's words. Text marked \"Not shown in the service's interface document; this contract's choice\" is a choice the local sandbox enforces where the service's own document is silent.",
  ];
  for (const operationId of RECORD_OPERATIONS) {
    const operation = contract.operations.find((candidate) => candidate.operationId === operationId);
    if (operation === undefined) continue;
    lines.push(
      '',
      `## ${operation.summary}: \`${operation.method} ${operation.originPath}\``,
      '',
      operation.description.trim(),
    );
    if (operation.body === undefined) continue;
    const { schema } = operation.body;
    if (typeof schema['description'] === 'string') lines.push('', schema['description'].trim());
    lines.push('', ...fieldTable(schema));
  }
  return `${lines.join('\n')}\n`;
}

function fieldTable(schema: JsonObject): string[] {
  const required = new Set((schema['required'] as string[] | undefined) ?? []);
  const properties = (schema['properties'] ?? {}) as Record<string, JsonObject>;
  const rows = Object.entries(properties).map(([name, property]) => {
    const rule = [describe(property), ...variants(property).map(describe)].filter((text) => text !== '').join(' ');
    return `| \`${name}\` | ${required.has(name) ? 'yes' : 'no'} | ${constraints(property)} | ${cell(rule)} |`;
  });
  return ['| field | required | value | rule |', '| --- | --- | --- | --- |', ...rows];
}

/** The schemas of a `oneOf` or `anyOf`, or the schema itself. */
function variants(schema: JsonObject): JsonObject[] {
  return ((schema['oneOf'] ?? schema['anyOf']) as JsonObject[] | undefined) ?? [];
}

function describe(schema: JsonObject): string {
  return typeof schema['description'] === 'string' ? schema['description'].replace(/\s*\n\s*/g, ' ').trim() : '';
}

/** The constraints of a field's schema, as JSON Schema states them: `string, date`, `string, at most 255`. */
function constraints(schema: JsonObject): string {
  const alternatives = variants(schema);
  if (alternatives.length > 0) return alternatives.map(constraints).join(' or ');
  const parts: string[] = [];
  const type = schema['type'];
  parts.push(Array.isArray(type) ? type.join(' or ') : String(type ?? 'any'));
  if (typeof schema['format'] === 'string') parts.push(schema['format']);
  const minLength = schema['minLength'];
  if (minLength === 1) parts.push('not empty');
  else if (typeof minLength === 'number' && minLength > 1) parts.push(`at least ${minLength} characters`);
  if (typeof schema['maxLength'] === 'number') parts.push(`at most ${schema['maxLength']} characters`);
  if (typeof schema['minimum'] === 'number') parts.push(`at least ${schema['minimum']}`);
  if (typeof schema['maximum'] === 'number') parts.push(`at most ${schema['maximum']}`);
  if (typeof schema['pattern'] === 'string') parts.push(`matching \`${schema['pattern']}\``);
  if (Array.isArray(schema['enum'])) parts.push(`one of ${schema['enum'].join(', ')}`);
  return cell(parts.join(', '));
}

/** Text safe in a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
