// Prints the benchmark results: tables of absolute figures and ratios, then each target as met,
// missed or not measured. Progress lines go to stderr so that stdout holds the report alone.

/** A placeholder for a figure that was not measured, with the reason in the row's note. */
export const NONE = '-';

/** Formats a number with thousands separators and `digits` decimals; `null` prints as '-'. */
export function num(value, digits = 0) {
  if (value === null || value === undefined || !Number.isFinite(value)) return NONE;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `a / b` as `"2.35x"`, or '-' when either side is missing. */
export function ratio(a, b) {
  return b === 0 ? NONE : times(a / b);
}

/** A factor as `"0.35x"`, `"2.35x"` or `"23.5x"`. */
export function times(value) {
  if (!Number.isFinite(value)) return NONE;
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)}x`;
}

/** Megabytes (MiB) from bytes. */
export function mb(bytes) {
  return bytes === null || bytes === undefined ? NONE : num(bytes / 1024 / 1024, 0);
}

/** Prints a section heading with the conditions of the measurement. */
export function printHeading(title, conditions) {
  console.log(`\n## ${title}`);
  if (conditions) console.log(conditions);
  console.log();
}

/** Prints rows of cells as an aligned table; the first column and a `note` column are left-aligned. */
export function printTable(headers, rows) {
  const table = [headers, ...rows].map((row) => row.map((cell) => String(cell ?? NONE)));
  const widths = headers.map((_, column) => Math.max(...table.map((row) => row[column]?.length ?? 0)));
  const leftAligned = (column) => column === 0 || headers[column] === 'note';
  const line = (row) =>
    row
      .map((cell, column) => (leftAligned(column) ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  console.log(line(table[0]));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of table.slice(1)) console.log(line(row));
}

/**
 * Prints targets as `[met]`, `[MISSED]` or `[not measured]`. Each target is
 * `{ label, met: true | false | null, actual }`; `met: null` means it could not be measured,
 * and `actual` says what was measured or why not.
 */
export function printTargets(targets) {
  console.log('\nTargets:');
  for (const { label, met, actual } of targets) {
    const mark = met === true ? '[met]         ' : met === false ? '[MISSED]      ' : '[not measured]';
    console.log(`  ${mark} ${label}: ${actual}`);
  }
}

const COMPARISONS = { '>=': (a, b) => a >= b, '<=': (a, b) => a <= b, '<': (a, b) => a < b };

/**
 * A target `value <comparison> bound`, such as `target('p99 < 200 ms', p99, '<', 200)`; not
 * measured (with the reason `unmeasured`) when the value is missing.
 */
export function target(label, value, comparison, bound, { unmeasured = 'not measured', show = String } = {}) {
  if (!Number.isFinite(value)) return { label, met: null, actual: unmeasured };
  return { label, met: COMPARISONS[comparison](value, bound), actual: show(value) };
}

/** Prints a note under a table. */
export function printNote(text) {
  console.log(`Note: ${text}`);
}

/** Prints a progress line on stderr. */
export function progress(text) {
  process.stderr.write(`  .. ${text}\n`);
}
