// Notification text made inert (no VS Code import, so it is unit-tested in plain Node); notify.ts says why.

/**
 * The text with nothing VS Code would make a link of: a zero-width space between every `]` and `(` (the link syntax
 * needs them adjacent), control characters as spaces. What is read stays the same.
 */
export function inertNotification(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ' ').replace(/\](\s*)\(/g, ']\u200b$1(');
}
