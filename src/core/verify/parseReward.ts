// Harbor's verifier contract: the task's tests/test.sh writes a reward, one number in /logs/verifier/reward.txt or a
// flat {name: number} object in /logs/verifier/reward.json. The verifier reads both files from the container after
// the run; this module decides what they say. Harbor versions differ on which file wins when both exist: when both
// name a `reward` and disagree, the run cannot be trusted either way.

export const REWARD_TXT = '/logs/verifier/reward.txt';
export const REWARD_JSON = '/logs/verifier/reward.json';
/** The files a `reward` verifier reads after the run. */
export const REWARD_FILES = [REWARD_TXT, REWARD_JSON];

export type RewardRead =
  | {
      ok: true;
      /** The reward that decides: `reward` (1 or more means resolved). */
      reward: number;
      /** Every numeric reward named, `reward` included. */
      rewards: Record<string, number>;
      /** Which file the deciding reward came from. */
      from: string;
      notes: string[];
    }
  | { ok: false; reason: string };

/** Python's `float()` of a text: surrounding whitespace, `_` between digits, inf/nan words. */
function pythonFloat(text: string): number | undefined {
  const t = text.trim();
  if (/^[+-]?(inf|infinity|nan)$/i.test(t)) return t.toLowerCase().includes('nan') ? NaN : t.startsWith('-') ? -Infinity : Infinity;
  if (!/^[+-]?(\d(_?\d)*)?(\.(\d(_?\d)*)?)?([eE][+-]?\d(_?\d)*)?$/.test(t) || !/\d/.test(t)) return undefined;
  return Number(t.replace(/_/g, ''));
}

/** What the reward files say; `files` maps each path read to its text (undefined: the file was not there). */
export function readReward(files: Record<string, string | undefined>): RewardRead {
  const txt = files[REWARD_TXT];
  const json = files[REWARD_JSON];
  if (txt === undefined && json === undefined) {
    return { ok: false, reason: `the tests wrote no reward (neither ${REWARD_TXT} nor ${REWARD_JSON} exists after the run)` };
  }
  const notes: string[] = [];
  let fromTxt: number | undefined;
  if (txt !== undefined) {
    if (txt.trim() === '') return { ok: false, reason: `${REWARD_TXT} is empty` };
    fromTxt = pythonFloat(txt);
    if (fromTxt === undefined) return { ok: false, reason: `${REWARD_TXT} does not hold a number ("${txt.trim().slice(0, 40)}")` };
  }
  const rewards: Record<string, number> = {};
  if (json !== undefined) {
    if (json.trim() === '') return { ok: false, reason: `${REWARD_JSON} is empty` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (e) {
      return { ok: false, reason: `${REWARD_JSON} is not JSON (${(e as Error).message})` };
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, reason: `${REWARD_JSON} must be an object of named rewards` };
    const ignored: string[] = [];
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof v === 'number') Object.defineProperty(rewards, k, { value: v, enumerable: true, writable: true, configurable: true });
      else ignored.push(k);
    }
    if (ignored.length > 0) notes.push(`${REWARD_JSON}: non-numeric field(s) ${ignored.slice(0, 5).join(', ')} ignored`);
  }
  const inJson = Object.prototype.hasOwnProperty.call(rewards, 'reward') ? rewards.reward : undefined;
  let reward: number;
  let from: string;
  if (inJson !== undefined && fromTxt !== undefined) {
    if (inJson !== fromTxt) {
      return { ok: false, reason: `${REWARD_TXT} says ${fromTxt} but ${REWARD_JSON} says reward ${inJson}; Harbor versions differ on which one wins, so the run cannot be graded` };
    }
    reward = inJson;
    from = `${REWARD_TXT} and ${REWARD_JSON}`;
  } else if (inJson !== undefined) {
    reward = inJson;
    from = REWARD_JSON;
  } else if (fromTxt !== undefined) {
    reward = fromTxt;
    from = REWARD_TXT;
    rewards.reward = fromTxt;
  } else {
    const keys = Object.keys(rewards);
    return { ok: false, reason: `${REWARD_JSON} names no "reward" (${keys.length > 0 ? `only ${keys.slice(0, 5).join(', ')}` : 'no numeric field'}) and there is no ${REWARD_TXT}` };
  }
  if (!Number.isFinite(reward)) return { ok: false, reason: `the reward ${reward} (${from}) is not a finite number` };
  return { ok: true, reward, rewards, from, notes };
}
