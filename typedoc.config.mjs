// The API reference (`pnpm run docs`): one module per package, from its src/index.ts, into
// docs/api. Any warning fails, so a broken {@link} or a public type that refers to an unexported
// one is caught.
import { OptionDefaults } from 'typedoc';

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'FFLKit',
  entryPointStrategy: 'packages',
  entryPoints: ['packages/*'],
  packageOptions: {
    entryPoints: ['src/index.ts'],
    readme: 'none',
    // `pnpm lint` type-checks the sources; the reference only documents them.
    skipErrorChecking: true,
    disableSources: true,
    excludePrivate: true,
    excludeInternal: true,
    // openapi-typescript writes each schema's description as @description, and marks a `const`
    // property with @constant, in the generated types.
    blockTags: [...OptionDefaults.blockTags, '@description'],
    modifierTags: [...OptionDefaults.modifierTags, '@constant'],
  },
  readme: 'none',
  out: 'docs/api',
  treatWarningsAsErrors: true,
};
