import { type ConsoleApiError, controlApi } from '../control-api';
import { append, field, h } from '../elements';
import { errorAlert, heading } from '../page';

// Sign in: paste a token of the account (the CLI prints one, and a link that signs in at once),
// or make a new account. The token is checked with a control call before the console opens.

/** What the sign-in page needs from the shell. */
export interface SignInOptions {
  /** Why the person was signed out, shown above the form. */
  readonly message: string | undefined;
  /** Opens the console with a token the sandbox knows. */
  readonly signIn: (token: string) => void;
}

/** Draws the sign-in page into `view`. */
export function showSignIn(view: HTMLElement, { message, signIn }: SignInOptions): void {
  const input = h('input', {
    type: 'password',
    name: 'token',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'sbx_...',
  });
  const problem = h('div', {});
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const token = input.value.trim();
    problem.replaceChildren();
    if (!/^sbx_[A-Za-z0-9]+$/.test(token)) {
      problem.append(errorAlert(new Error('A token begins with sbx_ followed by letters and digits: paste it whole.')));
      input.focus();
      return;
    }
    // A control call that every valid token may make, counted by no rate limit.
    const refused = await controlApi(token)
      .call('get', '/_sandbox/clock')
      .then(
        () => undefined,
        (error: unknown) => error as ConsoleApiError,
      );
    if (refused === undefined) {
      signIn(token);
      return;
    }
    const text =
      refused.status === 0
        ? 'The sandbox did not answer: check that it is still running.'
        : 'The sandbox does not know this token: it was revoked, or belongs to another sandbox.';
    problem.append(h('div', { class: 'alert', role: 'alert' }, h('p', {}, text)));
    input.focus();
  };
  const newAccount = async (): Promise<void> => {
    problem.replaceChildren();
    try {
      signIn((await controlApi(undefined).call('post', '/_sandbox/accounts', { body: {} })).token);
    } catch (error) {
      problem.append(errorAlert(error));
    }
  };
  append(view, [
    heading('Sign in'),
    message === undefined ? null : h('div', { class: 'alert', role: 'alert' }, h('p', {}, message)),
    h(
      'p',
      {},
      'Paste a token of your sandbox account, or open the link the sandbox printed when it made the account. The token is kept in this tab only, until you sign out or close it.',
    ),
    h(
      'form',
      { class: 'stack', onsubmit: submit, 'aria-label': 'Sign in with a token' },
      field('Token', input, 'The sbx_ token the sandbox printed, or one made on the API keys page.'),
      problem,
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Sign in')),
    ),
    h('h2', {}, 'No token?'),
    h(
      'p',
      {},
      'A sandbox keeps only the hashes of its tokens, so a lost token cannot be shown again. Make a new account (a dealer with the book Main) and sign in with its token:',
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'secondary', onclick: newAccount }, 'Make an account'),
    ),
  ]);
}
