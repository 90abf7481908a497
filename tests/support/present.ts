/**
 * The value, or a failure that says what was missing: what a test uses where
 * it would otherwise assert with `!` that a row, a header or a link exists.
 */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}, but there is none`);
  return value;
}
