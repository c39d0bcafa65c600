import type { ControlClient } from '@fflkit/sandbox-core/control';
import type { ActivityFeed } from './activity-feed';
import { ConsoleApiError } from './control-api';
import { h } from './elements';

// What every page of the console gets from the shell (main.ts), and the parts that every page
// draws alike: its heading and its error messages.

/** What a page works with while it is shown. */
export interface PageContext {
  /** The control API's calls, made with the signed-in token. */
  readonly api: ControlClient;
  /** The account's requests and deliveries as they happen. */
  readonly feed: ActivityFeed;
  /** The query of the page's address (`#/book?status=on_hand` gives `status`). */
  readonly params: URLSearchParams;
  /** The id in the page's address (`#/receipts/12` gives `12`), or `''`. */
  readonly id: string;
  /** Says `message` to screen readers and shows it in the status line. */
  announce(message: string): void;
  /** Goes to another address of the console (`#/book?page=2`). */
  go(hash: string): void;
  /** Runs `cleanup` when the page is left (stops listening to the feed). */
  onLeave(cleanup: () => void): void;
}

/** A page: draws itself into `view` (an empty element of the main landmark). */
export type Page = (view: HTMLElement, context: PageContext) => Promise<void>;

/** The page's level-one heading, which takes the focus when the page is opened. */
export function heading(text: string): HTMLHeadingElement {
  return h('h1', { tabindex: -1 }, text);
}

/** An error as a sentence for a person: the sandbox's own message when it gave one. */
function errorText(error: unknown): string {
  if (error instanceof ConsoleApiError) return error.message;
  return error instanceof Error ? `The console failed: ${error.message}` : 'The console failed.';
}

/**
 * An alert with the error's message and, for a 422, each field at fault with its messages, as
 * the sandbox named them.
 */
export function errorAlert(error: unknown): HTMLElement {
  const fields = error instanceof ConsoleApiError ? Object.entries(error.errors) : [];
  return h(
    'div',
    { class: 'alert', role: 'alert' },
    h('p', {}, errorText(error)),
    fields.length === 0
      ? null
      : h(
          'ul',
          {},
          fields.map(([name, messages]) => h('li', {}, `${name}: ${messages.join(' ')}`)),
        ),
  );
}
