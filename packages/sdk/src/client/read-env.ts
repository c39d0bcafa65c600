/**
 * An environment variable where the runtime has `process.env` (Node, Bun, Deno with Node
 * compatibility); `undefined` in browsers and edge runtimes, and where reading it is not allowed.
 *
 * @example
 * ```ts
 * const token = options.token ?? readEnv('BOUNDBOOK_TOKEN');
 * ```
 */
export function readEnv(name: string): string | undefined {
  try {
    const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
    return process?.env?.[name] || undefined;
  } catch {
    return undefined;
  }
}
