// Copies the contract into the package, so that it ships as `@fflkit/types/openapi.yaml` and
// `@fflkit/types/sandbox.yaml`, and as JSON beside them (`@fflkit/types/openapi.json`,
// `@fflkit/types/sandbox.json`) for tools that read it at run time without a YAML parser; writes
// the fixtures file's JSON Schema (`@fflkit/types/fixtures.schema.json`) from the sandbox
// contract's `Fixtures` schema, every schema it refers to gathered under `$defs`; and lists the
// contract's choices, its `x-fflkit-choice` markers, in `@fflkit/types/choices.json`. Run by
// `pnpm generate`; CI checks the result is committed.
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
const CHOICE_KEY = 'x-fflkit-choice';
/** How a choice can be checked: by a read-only probe, a probe that writes, in traffic only, or not at all. */
const PROBES = ['read', 'write', 'traffic', 'none'];

/** A marker on one of these governs its own node unless it says otherwise. */
const GOVERNING = /^#\/components\/(schemas|parameters|headers|responses)\//;

/** A schema with its `$ref`s pointed at `$defs`, each schema referred to gathered once. */
function gather(value, file) {
  if (Array.isArray(value)) return value.map((item) => gather(item, file));
  if (typeof value !== 'object' || value === null) return value;
  const result = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'example' || key === 'examples' || key === CHOICE_KEY) continue;
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
writeFileSync(new URL('choices.json', target), `${JSON.stringify({ choices: collectChoices(documents) }, null, 2)}\n`);
console.log(`wrote ${fileURLToPath(target)}{openapi,sandbox}.{yaml,json}, fixtures.schema.json and choices.json`);

/**
 * The choices the documents mark, by id: each defined once (`id`, `rule`, `probe`, `how`,
 * optionally `governs`) and referred to by its id alone wherever other prose states it again.
 * `where` lists the places that mark it, `governs` the contract locations whose checks it decides:
 * by default the schema, parameter, header or response that defines it.
 */
function collectChoices(sources) {
  const definitions = new Map();
  const references = [];
  for (const [file, document] of Object.entries(sources)) {
    const walk = (node, pointer) => {
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        const child = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        if (key !== CHOICE_KEY) {
          walk(value, child);
          continue;
        }
        if (!Array.isArray(value) || value.length === 0) fail(`${file}${child} must be a non-empty list`);
        for (const marker of value) readMarker(marker, file, pointer || '#');
      }
    };
    walk(document, '#');
  }
  function readMarker(marker, file, pointer) {
    const at = `${file}${pointer}`;
    if (typeof marker?.id !== 'string' || !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(marker.id))
      fail(`${at}: a choice needs an id such as pagination.per-page, not ${JSON.stringify(marker?.id)}`);
    const keys = Object.keys(marker);
    if (keys.length === 1) {
      references.push({ id: marker.id, file, pointer });
      return;
    }
    for (const key of keys)
      if (!['id', 'rule', 'probe', 'how', 'governs'].includes(key))
        fail(`${at}: ${marker.id} has an unknown key ${key}`);
    for (const key of ['rule', 'how'])
      if (typeof marker[key] !== 'string' || marker[key].trim() === '') fail(`${at}: ${marker.id} needs its ${key}`);
    if (!PROBES.includes(marker.probe)) fail(`${at}: ${marker.id} needs a probe, one of ${PROBES.join(', ')}`);
    if (definitions.has(marker.id)) fail(`${at}: ${marker.id} is defined twice; refer to it by its id alone`);
    const governs = marker.governs ?? (GOVERNING.test(pointer) ? [pointer] : []);
    if (!Array.isArray(governs) || governs.some((location) => resolve(sources[file], location) === undefined))
      fail(`${at}: every location ${marker.id} governs must be a pointer into ${file}`);
    definitions.set(marker.id, {
      id: marker.id,
      rule: marker.rule,
      probe: marker.probe,
      how: marker.how,
      document: file,
      where: [pointer],
      governs,
    });
  }
  for (const { id, file, pointer } of references) {
    const definition = definitions.get(id);
    if (definition === undefined) fail(`${file}${pointer}: ${id} is defined nowhere`);
    if (definition.document !== file) fail(`${file}${pointer}: ${id} is defined in ${definition.document}`);
    definition.where.push(pointer);
  }
  return [...definitions.values()].sort((a, b) => a.id.localeCompare(b.id));
}

function resolve(document, pointer) {
  let node = document;
  for (const part of pointer.replace(/^#\//, '').split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

function fail(message) {
  throw new Error(`contract.mjs: ${message}`);
}
