// `setupServer` from the very copy of msw that @boundbook/msw builds its handlers with. The root
// workspace does not depend on msw, and MSW handlers only work under the `setupServer` of their
// own copy, so the import goes through @boundbook/msw's dependency rather than a second one.
export { setupServer } from '../../../packages/msw/node_modules/msw/lib/node/index.mjs';
export type { SetupServerApi } from '../../../packages/msw/node_modules/msw/lib/node/index.mjs';
