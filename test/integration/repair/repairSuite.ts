// What the repair tests run from the CLI in real containers share: the engine (with the base image, else a failed
// test saying how to get it) and the fake OpenAI server, ready before the file's tests; after them the server stops
// and no container of ours may be left.
import { after, before } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';
import { FakeOpenAI } from './fakeOpenAI';

export interface RepairSuite {
  readonly engine: Engine;
  readonly fake: FakeOpenAI;
  /** The fake server's base URL (`http://127.0.0.1:PORT/v1`). */
  readonly base: string;
}

/** Registers the file's before and after hooks; the fields are set once `before` has run. */
export function repairSuite(): RepairSuite {
  const s: { engine?: Engine; fake?: FakeOpenAI; base?: string } = {};
  before(async () => {
    s.engine = await requireEngine();
    s.fake = new FakeOpenAI();
    s.base = await s.fake.start();
  });
  after(async () => {
    await s.fake?.stop();
    if (s.engine) await assertNoOwnedContainers(s.engine);
  });
  const ready = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`the repair suite's ${what} is used before its before hook ran`);
    return v;
  };
  return {
    get engine() {
      return ready(s.engine, 'engine');
    },
    get fake() {
      return ready(s.fake, 'fake server');
    },
    get base() {
      return ready(s.base, 'base URL');
    },
  };
}
