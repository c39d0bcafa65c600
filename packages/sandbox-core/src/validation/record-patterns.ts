/**
 * The federal firearms license number shape `R-DD-CCC-TT-YM-SSSSS`, hyphens optional (the
 * contract's `LicenseNumber`).
 *
 * @example
 * ```ts
 * LICENSE_NUMBER_PATTERN.test('9-99-999-01-6A-00001'); // true
 * ```
 */
export const LICENSE_NUMBER_PATTERN = /^[13456789]-?\d{2}-?\d{3}-?\d{2}-?\d[A-HJ-M]-?\d{5}$/;

/**
 * A ZIP or ZIP+4 code (the contract's `ZipCode`).
 *
 * @example
 * ```ts
 * ZIP_CODE_PATTERN.test('62702-1234'); // true
 * ```
 */
export const ZIP_CODE_PATTERN = /^\d{5}(-\d{4})?$/;

/**
 * A media type such as `application/pdf` (the control API's `DocumentCreate.mime_type`).
 *
 * @example
 * ```ts
 * MIME_TYPE_PATTERN.test('application/pdf'); // true
 * ```
 */
export const MIME_TYPE_PATTERN = /^[^/\s]+\/[^/\s]+$/;
