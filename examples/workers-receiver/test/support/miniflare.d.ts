// miniflare is not a dependency of this workspace: its workerd binary is large, and pnpm blocks
// the install scripts of both. CI installs it into .ci/.runtimes (see .ci/run), and
// vitest.workerd.config.ts points `miniflare` there. These are the parts of its API the test
// uses; a project with miniflare in its devDependencies gets its own types instead.
declare module 'miniflare' {
  export interface WorkerOptions {
    name?: string;
    modules?: boolean;
    script?: string;
    compatibilityDate?: string;
    bindings?: Record<string, string>;
    queueProducers?: Record<string, { queueName: string }>;
    queueConsumers?: Record<string, { maxBatchSize?: number; maxBatchTimeout?: number }>;
    serviceBindings?: Record<string, (request: Request) => Promise<Response>>;
  }

  export interface MiniflareOptions {
    host?: string;
    port?: number;
    workers: WorkerOptions[];
  }

  export class Miniflare {
    constructor(options: MiniflareOptions);
    /** The URL of the first worker, once workerd listens. */
    readonly ready: Promise<URL>;
    dispose(): Promise<void>;
  }
}
