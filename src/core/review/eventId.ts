// Event ids in the ULID layout: 48 bits of milliseconds then 80 random bits, Crockford base32, 26 characters. Ids
// made on different machines never need coordination, and sort by time.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const EVENT_ID_LENGTH = 26;
export const EVENT_ID_RANDOM_BYTES = 10;

/** The id for an event at `ms` (Unix milliseconds) from 10 random bytes (the caller takes them from node:crypto). */
export function encodeEventId(ms: number, random: Uint8Array): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= 2 ** 48) throw new RangeError(`event time ${ms} out of range`);
  if (random.length < EVENT_ID_RANDOM_BYTES) throw new RangeError('an event id needs 10 random bytes');
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  // 80 bits = 16 characters of 5 bits.
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < EVENT_ID_RANDOM_BYTES; i++) {
    acc = (acc << 8) | (random[i] as number);
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

/** The millisecond time encoded in an id made by `encodeEventId`, or undefined for another shape. */
export function eventIdTime(id: string): number | undefined {
  if (id.length !== EVENT_ID_LENGTH) return undefined;
  let t = 0;
  for (let i = 0; i < 10; i++) {
    const v = ALPHABET.indexOf(id[i] as string);
    if (v < 0) return undefined;
    t = t * 32 + v;
  }
  return t;
}

/** ISO time with milliseconds, the `time` field of an event. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
