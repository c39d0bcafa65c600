// The one error of a conformance run, apart from the library's own misuse: kept in a file of its
// own so that the package can export it without loading the probes.

/** A conformance run cannot go on: the service does not answer, or refuses the token. */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
}
