import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The service contract, parsed, for tests that compare constants with it. */
export const contract: Record<string, any> = parse(
  readFileSync(new URL('../../../openapi/openapi.yaml', import.meta.url), 'utf8'),
);

/** A component of the contract, such as `contractComponent('schemas', 'Receipt')`. */
export function contractComponent(section: string, name: string): Record<string, any> {
  const component = contract['components'][section][name];
  if (component === undefined) throw new Error(`The contract has no components.${section}.${name}`);
  return component;
}
