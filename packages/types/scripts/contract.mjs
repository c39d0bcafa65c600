// Copies the contract into the package, so that it ships as `@fflkit/types/openapi.yaml` and
// `@fflkit/types/sandbox.yaml`, and as JSON beside them (`@fflkit/types/openapi.json`,
// `@fflkit/types/sandbox.json`) for tools that read it at run time without a YAML parser, and writes the fixtures file's JSON Schema
// (`@fflkit/types/fixtures.schema.json`) from the sandbox contract's `Fixtures` schema, every
// schema it refers to gathered under `$defs`. Run by `pnpm generate`; CI checks the result is
// committed.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const source = new URL('../../../openapi/', import.meta.url);
const target = new URL('../contract/', import.meta.url);
mkdirSync(target, { recursive: true });
for (const name of ['openapi.yaml', 'sandbox.yaml']) copyFileSync(new URL(name, source), new URL(name, target));

const documents = {
  'openapi.yaml': parse(readFileSync(new URL('openapi.yaml', source), 'utf8')),
  'sandbox.yaml': parse(readFileSync(new URL('sandbox.yaml', source), 'utf8')),
};
for (const [name, document] of Object.entries(documents)) {
  writeFileSync(new URL(name.replace(/\.yaml$/, '.json'), target), `${JSON.stringify(document, null, 2)}\n`);
}
const defs = {};

/** A schema with its `$ref`s pointed at `$defs`, each schema referred to gathered once. */
function gather(value, file) {
  if (Array.isArray(value)) return value.map((item) => gather(item, file));
  if (typeof value !== 'object' || value === null) return value;
  const result = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'example' || key === 'examples') continue;
    if (key !== '$ref') {
      result[key] = gather(item, file);
      continue;
    }
    const match = /^(?:\.\/([\w.]+))?#\/components\/schemas\/(\w+)$/.exec(item);
    if (match === null) throw new Error(`contract.mjs: cannot follow $ref ${item} in ${file}`);
    const [, other = file, name] = match;
    if (!(name in defs)) {
      defs[name] = null;
      defs[name] = gather(documents[other].components.schemas[name], other);
    }
    result.$ref = `#/$defs/${name}`;
  }
  return result;
}

const root = gather(documents['sandbox.yaml'].components.schemas.Fixtures, 'sandbox.yaml');
const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'FFLKit sandbox fixtures',
  ...root,
  $defs: Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b))),
};
writeFileSync(new URL('fixtures.schema.json', target), `${JSON.stringify(schema, null, 2)}\n`);
console.log(`wrote ${fileURLToPath(target)}{openapi,sandbox}.{yaml,json} and fixtures.schema.json`);
