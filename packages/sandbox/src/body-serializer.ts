import { isPlainObject, keptByIdentity } from '@fflkit/sandbox-core';

/** Turns an answer's body into the UTF-8 bytes of its JSON text, those of `JSON.stringify(body)`. */
export type BodySerializer = (body: unknown) => Buffer;

const COMMA = Buffer.from(',');
const CLOSING = Buffer.from(']');
const END = Buffer.from('}');

/**
 * Makes the serializer of answer bodies, which keeps by object identity the bytes of each item
 * of a `data` list (a page of receipts, say), and those of a whole body that is deeply frozen (a
 * list page the core answers again from its cache). The core's records are deeply frozen and a
 * change replaces the record object, so such bytes never go stale; a value that is not deeply
 * frozen plain data is serialised afresh every time. A page of 25 receipts, most of the work of
 * a read, is then at most a copy of cached bytes. The reads benchmark (`GET /receipts` at 0.9x a
 * bare Hapi route answering the same bytes) relies on it, and so on the core's records being
 * deeply frozen: were they not, every read would serialise them afresh, still correctly.
 */
export function createBodySerializer(): BodySerializer {
  const itemBytes = keptByIdentity((item) => Buffer.from(json(item)));
  // A frozen body is one the core keeps and answers again (a cached list page): its bytes are
  // kept whole, like an item's.
  return keptByIdentity(serializeEnvelope);

  function serializeEnvelope(body: unknown): Buffer {
    if (!isPlainObject(body) || !Array.isArray(body['data'])) return Buffer.from(json(body));
    const chunks: Buffer[] = [];
    for (const [key, value] of Object.entries(body)) {
      const prefix = `${chunks.length === 0 ? '{' : ','}${JSON.stringify(key)}:`;
      if (key === 'data' && Array.isArray(value)) {
        chunks.push(Buffer.from(`${prefix}[`));
        value.forEach((item: unknown, index) => {
          if (index > 0) chunks.push(COMMA);
          chunks.push(itemBytes(item));
        });
        chunks.push(CLOSING);
      } else {
        const text = JSON.stringify(value) as string | undefined;
        // As in JSON.stringify, a member whose value has no JSON form (undefined) is left out.
        if (text !== undefined) chunks.push(Buffer.from(prefix + text));
      }
    }
    chunks.push(END);
    return Buffer.concat(chunks);
  }
}

/** JSON text of a value, with `null` for one that has none (as inside an array). */
function json(value: unknown): string {
  return (JSON.stringify(value) as string | undefined) ?? 'null';
}
