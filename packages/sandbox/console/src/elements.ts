// Building the console's DOM: elements made from a tag, attributes and children, never from HTML
// text, so that no value shown (a serial number, a delivery's body, a request's path) is ever
// parsed as markup.

/** A child of an element: text, an element, or nothing (`null`, `undefined`, `false` are left out). */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

/**
 * Attributes of an element: a string or number is set as is, `true` sets an empty attribute,
 * `false`, `null` and `undefined` leave it out; a function under a name beginning with `on` is
 * an event listener (`onclick`, `onsubmit`).
 */
export type Attributes = Readonly<
  Record<string, string | number | boolean | null | undefined | ((event: never) => void)>
>;

/**
 * An element of `tag` with `attributes` and `children`.
 *
 * @example
 * ```ts
 * h('button', { type: 'button', onclick: () => resend() }, 'Resend');
 * ```
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value as EventListener);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

/** Appends children to a node, flattening lists and leaving out empty ones. */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else
      parent.appendChild(
        typeof child === 'string' || typeof child === 'number'
          ? document.createTextNode(String(child))
          : (child as Node),
      );
  }
}

/** Replaces every child of `parent`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A definition list of label and value pairs; a missing value reads "None". */
export function details(rows: ReadonlyArray<readonly [label: string, value: Child]>): HTMLDListElement {
  return h(
    'dl',
    { class: 'details' },
    rows.map(([label, value]) => [
      h('dt', {}, label),
      h(
        'dd',
        {},
        value === null || value === undefined || value === '' ? h('span', { class: 'muted' }, 'None') : value,
      ),
    ]),
  );
}

/**
 * A table with a caption, column headers and rows, in a region that scrolls sideways on a
 * narrow screen and takes the keyboard focus to do so. An empty table shows `empty` instead.
 */
export function table(
  caption: string,
  headers: readonly string[],
  rows: readonly HTMLTableRowElement[],
  empty: string,
): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  return scroller(
    caption,
    h(
      'table',
      {},
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((header) => h('th', { scope: 'col' }, header)),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

/** A region that scrolls a wide table sideways, reachable by the keyboard. */
export function scroller(label: string, content: HTMLElement): HTMLElement {
  return h('div', { class: 'scroller', role: 'region', 'aria-label': label, tabindex: 0 }, content);
}

/** A labelled form field: the label, the control, and an optional hint tied to it. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement, hint?: string): HTMLElement {
  const id = control.id || `field-${(nextId += 1)}`;
  control.id = id;
  const hintElement = hint === undefined ? null : h('span', { class: 'hint', id: `${id}-hint` }, hint);
  if (hintElement !== null) control.setAttribute('aria-describedby', hintElement.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hintElement);
}

let nextId = 0;

/** A select of `options` as `[value, text]` pairs, with `selected` chosen. */
export function select(
  name: string,
  options: ReadonlyArray<readonly [value: string, text: string]>,
  selected = '',
): HTMLSelectElement {
  return h(
    'select',
    { name },
    options.map(([value, text]) => h('option', { value, selected: value === selected }, text)),
  );
}

/**
 * A box that shows a secret once (a new key, an endpoint's signing secret) in a read-only field
 * with a Copy button, and says why it is not shown again (`note`).
 */
export function secretBox(title: string, label: string, secret: string, note: string): HTMLElement {
  const input = h('input', {
    type: 'text',
    readonly: true,
    value: secret,
    class: 'secret',
    spellcheck: 'false',
    autocomplete: 'off',
  });
  const copied = h('span', { class: 'hint', role: 'status' });
  const copy = async (): Promise<void> => {
    input.select();
    try {
      await navigator.clipboard.writeText(secret);
      copied.textContent = 'Copied.';
    } catch {
      copied.textContent = 'Select the text and copy it with your keyboard.';
    }
  };
  return h(
    'section',
    { class: 'secret-box', 'aria-label': title },
    h('h2', {}, title),
    h('p', {}, `Copy it now: it is shown only once. ${note}`),
    h('div', { class: 'secret-row' }, field(label, input), h('button', { type: 'button', onclick: copy }, 'Copy')),
    copied,
  );
}
