import * as nodeBuild from '../../src/index';
import * as webBuild from '../../src/web';

/** The public API of one build. */
export type Build = typeof nodeBuild;

/**
 * Both builds, for `describe.each`: every behaviour is tested on each, since they must not differ.
 */
export const BUILDS: ReadonlyArray<{ readonly name: string; readonly api: Build }> = [
  { name: 'node build', api: nodeBuild },
  { name: 'web build', api: webBuild },
];
