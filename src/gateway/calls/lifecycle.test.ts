// The call queue of ServerLife: a waiting call's abort listener lives only as long as its wait,
// because one signal may carry many calls (the HTTP face gives a connection's calls one).
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { CarteError } from '../../errors.js';
import { ServerLife } from './lifecycle.js';

describe('ServerLife.acquire', () => {
  it('removes a waiting call’s listener when its slot comes', async () => {
    const life = new ServerLife('s');
    const shared = new AbortController().signal;
    const first = await life.acquire(1, 10, shared);
    const second = life.acquire(1, 10, shared);
    expect(life.queued).toBe(1);
    expect(getEventListeners(shared, 'abort')).toHaveLength(1);
    first();
    (await second)();
    expect(getEventListeners(shared, 'abort')).toHaveLength(0);
    expect(life.active).toBe(0);
  });

  it('takes a cancelled wait out of the queue, and refuses a call already cancelled', async () => {
    const life = new ServerLife('s');
    const release = await life.acquire(1, 10);
    const abort = new AbortController();
    const waiting = life.acquire(1, 10, abort.signal);
    abort.abort();
    await expect(waiting).rejects.toSatisfy((e) => e instanceof CarteError && e.code === 'cancelled');
    expect(life.queued).toBe(0);
    await expect(life.acquire(1, 10, abort.signal)).rejects.toSatisfy(
      (e) => e instanceof CarteError && e.code === 'cancelled',
    );
    expect(life.queued).toBe(0);
    release();
  });
});
