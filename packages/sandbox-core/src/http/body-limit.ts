/**
 * The largest request body the service accepts: 1 MB (1,048,576 bytes). A transport refuses a
 * larger body with 413 and {@link PAYLOAD_TOO_LARGE_MESSAGE} as it reads it, before the core.
 *
 * @example
 * ```ts
 * if (body.byteLength > MAX_BODY_BYTES) return { status: 413, body: { message: PAYLOAD_TOO_LARGE_MESSAGE } };
 * ```
 */
export const MAX_BODY_BYTES = 1_048_576;

/**
 * The `message` of the 413 for a body over {@link MAX_BODY_BYTES} (`PayloadTooLarge` in
 * openapi.yaml).
 *
 * @example
 * ```ts
 * ({ message: PAYLOAD_TOO_LARGE_MESSAGE }); // { message: 'The request body is larger than 1 MB.' }
 * ```
 */
export const PAYLOAD_TOO_LARGE_MESSAGE = 'The request body is larger than 1 MB.';
