import { ConfigError } from './config-error';

/** Which receiver to run. */
export type ReceiverFramework = 'express' | 'node';

/** The settings of `pnpm start`, read from the environment. */
export interface ReceiverConfig {
  readonly secret: string;
  readonly framework: ReceiverFramework;
  readonly host: string;
  readonly port: number;
}

/**
 * Reads `FFLKIT_WEBHOOK_SECRET` (required), `RECEIVER` (`express` or `node`, default
 * `express`), `HOST` (default `127.0.0.1`) and `PORT` (default 3000). Throws a
 * {@link ConfigError} that says what to set, before anything listens.
 *
 * @example
 * ```ts
 * const { secret, port } = readReceiverConfig(process.env);
 * ```
 */
export function readReceiverConfig(env: Readonly<Record<string, string | undefined>>): ReceiverConfig {
  const secret = env['FFLKIT_WEBHOOK_SECRET'] ?? '';
  if (!secret.startsWith('whsec_')) {
    throw new ConfigError(
      'FFLKIT_WEBHOOK_SECRET must hold the endpoint\'s signing secret, "whsec_..." as POST /webhooks answered it, prefix included.',
    );
  }
  const framework = env['RECEIVER'] ?? 'express';
  if (framework !== 'express' && framework !== 'node') {
    throw new ConfigError(`RECEIVER is "${framework}": set it to "express" or "node", or leave it unset for express.`);
  }
  const port = Number(env['PORT'] ?? '3000');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`PORT is "${env['PORT']}": set it to a port number from 0 to 65535.`);
  }
  return { secret, framework, host: env['HOST'] ?? '127.0.0.1', port };
}
