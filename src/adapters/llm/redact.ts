// Keeps API keys out of everything we print, log or store: every message and log line the repair agent produces
// passes through a Redactor that knows the session's secrets and the usual shapes of keys and auth headers.

const MASK = '[redacted]';
/** Fragments of a secret this long or longer are masked too (servers echo "sk-abc…wxyz" in 401 messages). */
const MIN_FRAGMENT = 6;

/** What servers put between the visible ends of a key they echo: `...`, `…`, a run of `*` or `•`. */
const ELIDED = '(?:\\.{3,}|\u2026+|\\*+|\u2022+)';

const GENERIC: Array<[RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${MASK}`],
  // A partly masked key of any kind ("sk-proj-****wxyz", "sk-abcde...wxyz"), before the whole-key shape below.
  [new RegExp(`\\b(sk|rk|pk)-[A-Za-z0-9_-]{1,16}${ELIDED}[A-Za-z0-9_-]{0,8}`, 'g'), `$1-${MASK}`],
  [/\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}/g, `$1-${MASK}`],
  [/("?(?:api[_-]?key|authorization|x-api-key)"?\s*[:=]\s*"?)(?!Bearer\b|Basic\b|\[redacted\])[^"\s,}]{4,}/gi, `$1${MASK}`],
];

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class Redactor {
  private secrets: string[] = [];
  private pattern: RegExp | undefined;

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Remembers a secret; short or empty values are ignored (they would mask ordinary words). */
  add(secret: string | undefined): void {
    if (!secret || secret.trim().length < 8 || this.secrets.includes(secret)) return;
    this.secrets.push(secret);
    const parts = new Set<string>();
    const masked: string[] = [];
    for (const s of this.secrets) {
      parts.add(s);
      // The ends of a key are what a server's "Incorrect API key provided: sk-ab***wxyz" leaves visible.
      if (s.length > MIN_FRAGMENT * 2) {
        parts.add(s.slice(0, Math.max(MIN_FRAGMENT, Math.min(12, s.length - MIN_FRAGMENT))));
        parts.add(s.slice(-MIN_FRAGMENT));
      }
      // The partial masks servers send: a head of the key (first 8 characters, say), `...`/`…`/`***`, its last few.
      if (s.length >= 12) {
        const heads = [];
        for (let n = Math.min(12, s.length - 4); n >= MIN_FRAGMENT; n--) heads.push(escapeRe(s.slice(0, n)));
        const tails = [];
        for (let n = 6; n >= 2; n--) tails.push(escapeRe(s.slice(-n)));
        masked.push(`(?:${heads.join('|')})${ELIDED}(?:${tails.join('|')})?`);
      }
    }
    const sorted = [...parts].sort((a, b) => b.length - a.length).map(escapeRe);
    this.pattern = new RegExp([...masked, ...sorted].join('|'), 'g');
  }

  /** The text with every known secret and anything shaped like a key or an auth header masked. */
  redact(text: string): string {
    let out = this.pattern ? text.replace(this.pattern, MASK) : text;
    for (const [re, by] of GENERIC) out = out.replace(re, by);
    return out;
  }

  /**
   * Only the known secrets masked: for content that must stay byte-exact otherwise (proposed test files, the prompt),
   * where a key-shaped string may be legitimate test data.
   */
  maskSecrets(text: string): string {
    return this.pattern ? text.replace(this.pattern, MASK) : text;
  }

  /** A deep copy of a JSON-like value with the known secrets masked in every string (nothing else changed). */
  maskValue<T>(value: T): T {
    if (typeof value === 'string') return this.maskSecrets(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.maskValue(v)) as T;
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = this.maskValue(v);
      return out as T;
    }
    return value;
  }

  /** A deep copy of a JSON-like value with every string redacted. */
  redactValue<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.redactValue(v)) as T;
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = this.redactValue(v);
      return out as T;
    }
    return value;
  }
}
