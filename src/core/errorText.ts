// The one way to turn a caught value into the text of an error message.

/** The message of an Error, else the value as a string (a thrown string, number, or object). */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
