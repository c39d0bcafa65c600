import type { ContractOperation } from '../contract/contract';

// A tool's description, from its operation's description in the contract, shortened so that an
// agent reads the whole list of tools at little cost and still knows what each call does:
//
// - whole paragraphs are kept from the first, while the text stays within DESCRIPTION_BUDGET
//   characters (but one that ends in a colon, introducing what is left out); a first paragraph
//   longer than that is cut after its last sentence within it;
// - the contract's provenance marker ("Not shown in the service's interface document; this
//   contract's choice:") is left out: it tells a reader whose rule it is, not what to do;
// - a reference to a section of the document ("see "Faults" above") points to the contract's
//   resource instead, since the agent has the operation without its document;
// - the call itself closes the description (`Calls POST /rest/v1/receipts.`), and where text was
//   left out, where the rest is.

/** The most characters of the contract's text a tool's description keeps. */
export const DESCRIPTION_BUDGET = 700;

/** The marker, wherever the document's lines break it, and the punctuation after it. */
const PROVENANCE =
  /Not\s+shown\s+in\s+the\s+service's\s+interface\s+document;\s+this\s+contract's\s+choice[:,.]?\s*(\S?)/g;

/** The URI of the resource that holds a document of the contract. */
export function contractResourceUri(document: ContractOperation['document']): string {
  return `fflkit://contract/${document}`;
}

/** The description of an operation's tool (see the rules above). */
export function describeOperation(operation: ContractOperation): string {
  const resource = contractResourceUri(operation.document);
  const text = plainText(operation.description, operation.document);
  const { kept, cut } = shorten(text, DESCRIPTION_BUDGET);
  const call = `Calls ${operation.method} ${operation.originPath}${operation.document === 'sandbox.yaml' ? ' (the sandbox only)' : ''}.`;
  const rest = cut ? ` The whole text: operation ${operation.operationId} in ${resource}.` : '';
  return `${kept === '' ? `${operation.summary}.` : kept}\n\n${call}${rest}`;
}

/** A text of the contract without its provenance markers, its references to sections pointing to the resource. */
function plainText(text: string, document: ContractOperation['document']): string {
  return text
    .replace(PROVENANCE, (_marker, next: string) => next.toUpperCase())
    .replace(/"([^"]+)" above/g, `"$1" in ${contractResourceUri(document)}`)
    .trim();
}

/**
 * A schema whose every `description` is {@link plainText}: the descriptions of an input
 * schema, read by the agent as the tool's own.
 */
export function withPlainDescriptions<T>(schema: T, document: ContractOperation['document']): T {
  if (Array.isArray(schema)) return schema.map((item: unknown) => withPlainDescriptions(item, document)) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'description' && typeof value === 'string'
        ? plainText(value, document)
        : withPlainDescriptions(value, document),
    ]),
  ) as T;
}

/** Whole paragraphs while within `budget`; a first paragraph over it, cut after a sentence. */
export function shorten(text: string, budget: number): { kept: string; cut: boolean } {
  const paragraphs = text.split(/\n\s*\n/).map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim());
  const kept: string[] = [];
  let length = 0;
  for (const paragraph of paragraphs) {
    if (paragraph === '') continue;
    if (length + paragraph.length <= budget) {
      kept.push(paragraph);
      length += paragraph.length + 2;
      continue;
    }
    if (kept.length === 0) kept.push(cutAtSentence(paragraph, budget));
    // A paragraph that introduces what was left out ("...: ") would end the text dangling.
    else if (kept.length > 1 && kept.at(-1)!.endsWith(':')) kept.pop();
    return { kept: kept.join('\n\n'), cut: true };
  }
  return { kept: kept.join('\n\n'), cut: false };
}

function cutAtSentence(paragraph: string, budget: number): string {
  const head = paragraph.slice(0, budget);
  // The end of the last sentence: a full stop followed by a space, outside a number (3.5) and a code span.
  let end = -1;
  const sentenceEnd = /[.!?](?=\s)/g;
  for (let match = sentenceEnd.exec(head); match !== null; match = sentenceEnd.exec(head)) {
    const before = head.slice(0, match.index);
    if ((before.match(/`/g)?.length ?? 0) % 2 === 0) end = match.index + 1;
  }
  return end > 0 ? head.slice(0, end) : `${head.slice(0, head.lastIndexOf(' '))} ...`;
}
