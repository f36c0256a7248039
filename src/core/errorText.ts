// The one way to turn a caught value into the text of an error message.

/** The message of an Error, else the value as a string (a thrown string, number, or object). */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The `code` of a caught system error (ENOENT, EEXIST, ECONNREFUSED...), or undefined for anything else. */
export function errnoCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** True when a caught value is a system error with one of these codes. */
export function hasErrno(e: unknown, ...codes: string[]): boolean {
  const code = errnoCode(e);
  return code !== undefined && codes.includes(code);
}
