import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, OPTIONS } from './config.ts';

describe('--trust-proxy [n] (GATEHOUSE_TRUST_PROXY)', () => {
  const cases: Array<[string, unknown, string | undefined, number]> = [
    // [what, flag value as commander gives it, env value, trusted proxies]
    ['absent: none, the socket peer is the client', undefined, undefined, 0],
    ['the flag alone: one proxy', true, undefined, 1],
    ['the flag with a number', '2', undefined, 2],
    ['the flag with 0: none', '0', undefined, 0],
    ['env true (the former boolean): one proxy', undefined, 'true', 1],
    ['env false: none', undefined, 'false', 0],
    ['env 3', undefined, '3', 3],
    ['the flag wins over the env', '1', '4', 1],
  ];
  for (const [what, flag, env, want] of cases) {
    it(what, () => {
      const cfg = loadConfig(flag === undefined ? {} : { trustProxy: flag }, env === undefined ? {} : { GATEHOUSE_TRUST_PROXY: env });
      assert.equal(cfg.trustProxy, want);
    });
  }

  it('refuses anything else, naming the option', () => {
    for (const bad of ['-1', 'many', '1.5', '100']) {
      assert.throws(
        () => loadConfig({ trustProxy: bad }, {}),
        (e: Error) => e instanceof ConfigError && /--trust-proxy/.test(e.message),
        bad,
      );
    }
  });

  it('is declared with an optional value, so the flag alone still works', () => {
    assert.equal(OPTIONS.find((o) => o.key === 'trustProxy')!.flag, '--trust-proxy [n]');
  });
});
