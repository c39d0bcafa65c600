/** The largest request body the service accepts: 1 MB (1,048,576 bytes). */
export const MAX_BODY_BYTES = 1_048_576;

/** The message of the service's 413. */
export const PAYLOAD_TOO_LARGE_MESSAGE = 'The request body is larger than 1 MB.';
