import { PERMISSIONS, type Permission, type SandboxToken } from '@fflkit/types';
import { field, h, replace, secretBox, table } from '../elements';
import { formatTime } from '../formats';
import { errorAlert, heading, type PageContext } from '../page';

// API keys, as the service's dashboard issues them: the account's tokens (never their values),
// Create key with the read, write and delete permissions chosen one by one (the token shown
// once), and Revoke, after which the token gets 401 everywhere. A key is known by its name and
// when it was made: its id counts the keys of every account of the sandbox, which says nothing
// to this one (and something of the others), so it is not shown.

/** What each permission allows, as the service's document says. */
const ALLOWS: Readonly<Record<(typeof PERMISSIONS)[number], string>> = {
  read: 'GET requests: list, view, search, inventory',
  write: 'POST and PUT requests: create, update, dispose',
  delete: 'DELETE requests',
};

/** Draws the API keys page into `view`. */
export async function showApiKeys(view: HTMLElement, context: PageContext): Promise<void> {
  const list = h('div', { 'aria-busy': 'true' });
  const created = h('div', {});
  view.append(
    heading('API keys'),
    h(
      'p',
      { class: 'lede' },
      'Keys of this account for the API under /rest/v1. Each carries its own permissions and its own rate limit of 60 requests a minute.',
    ),
    created,
    list,
    createForm(context, created, () => refresh(list, context)),
  );
  await refresh(list, context);
}

async function refresh(list: HTMLElement, context: PageContext): Promise<void> {
  try {
    const { data } = await context.api.call('get', '/_sandbox/tokens');
    replace(
      list,
      table(
        'Keys of the account',
        ['Key', 'Permissions', 'Created', 'Actions'],
        data.map((token) => keyRow(token, list, context)),
        'The account has no keys.',
      ),
    );
  } catch (error) {
    replace(list, errorAlert(error));
  }
  list.removeAttribute('aria-busy');
}

function keyRow(token: SandboxToken, list: HTMLElement, context: PageContext): HTMLTableRowElement {
  const revoke = async (): Promise<void> => {
    const name = token.name ?? `the unnamed key created ${formatTime(token.created_at)}`;
    if (
      !window.confirm(
        `Revoke ${name}? Programs that use it get 401 from now on; if you signed in with it, you are signed out.`,
      )
    )
      return;
    try {
      await context.api.call('delete', '/_sandbox/tokens/{id}', { path: { id: token.id } });
      context.announce(`Revoked ${name}.`);
      await refresh(list, context);
    } catch (error) {
      list.prepend(errorAlert(error));
    }
  };
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, keyName(token)),
    h('td', {}, token.permissions.length === 0 ? h('span', { class: 'muted' }, 'None') : token.permissions.join(', ')),
    h('td', {}, formatTime(token.created_at)),
    h('td', {}, h('button', { type: 'button', class: 'danger', onclick: revoke }, 'Revoke')),
  );
}

/** How the console names a key: its name, or that it has none. */
export function keyName(token: Pick<SandboxToken, 'name'>): string {
  return token.name ?? 'Unnamed key';
}

function createForm(context: PageContext, created: HTMLElement, refreshList: () => Promise<void>): HTMLElement {
  const name = h('input', { type: 'text', name: 'name', maxlength: 255, autocomplete: 'off' });
  const problem = h('div', {});
  const boxes = PERMISSIONS.map((permission) => {
    const box = h('input', {
      type: 'checkbox',
      name: 'permissions',
      value: permission,
      checked: permission === 'read',
      id: `permission-${permission}`,
    });
    return h(
      'div',
      { class: 'check' },
      box,
      h('label', { for: box.id }, h('strong', {}, permission), ` (${ALLOWS[permission]})`),
    );
  });
  const form = h(
    'form',
    {
      class: 'stack',
      'aria-labelledby': 'create-key-heading',
      onsubmit: async (event: SubmitEvent) => {
        event.preventDefault();
        problem.replaceChildren();
        // The boxes' values are the names of PERMISSIONS.
        const permissions = [...form.querySelectorAll<HTMLInputElement>('input[name=permissions]:checked')].map(
          (box) => box.value as Permission,
        );
        const body = name.value.trim() === '' ? { permissions } : { permissions, name: name.value.trim() };
        try {
          const answer = await context.api.call('post', '/_sandbox/tokens', { body });
          const title = answer.data.name === null ? 'Key created' : `Key ${answer.data.name} created`;
          replace(created, secretBox(title, 'New key', answer.token, 'The sandbox keeps only its hash.'));
          form.reset();
          context.announce(`${title}. Copy it now: it is shown only once.`);
          await refreshList();
          created.querySelector<HTMLInputElement>('input.secret')?.focus();
        } catch (error) {
          problem.append(errorAlert(error));
        }
      },
    },
    h('h2', { id: 'create-key-heading' }, 'Create a key'),
    field('Name', name, 'Optional: what the key is for, such as Inventory sync.'),
    h('fieldset', {}, h('legend', {}, 'Permissions'), boxes),
    problem,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Create key')),
  );
  return form;
}
