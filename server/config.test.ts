import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
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

describe('--workers <n|auto> (GATEHOUSE_WORKERS)', () => {
  it('is 1 by default: this process alone', () => {
    assert.equal(loadConfig({}, {}).workers, 1);
  });

  it('takes a number from the flag or its env twin, the flag winning', () => {
    assert.equal(loadConfig({ workers: '3' }, {}).workers, 3);
    assert.equal(loadConfig({}, { GATEHOUSE_WORKERS: '2' }).workers, 2);
    assert.equal(loadConfig({ workers: '4' }, { GATEHOUSE_WORKERS: '2' }).workers, 4);
  });

  it('reads auto as one process per core', () => {
    assert.equal(loadConfig({ workers: 'auto' }, {}).workers, availableParallelism());
    assert.equal(loadConfig({}, { GATEHOUSE_WORKERS: 'auto' }).workers, availableParallelism());
  });

  it('refuses zero, negatives and words, naming the option', () => {
    for (const bad of ['0', '-1', 'many', '1.5', '1000']) {
      assert.throws(
        () => loadConfig({ workers: bad }, {}),
        (e: Error) => e instanceof ConfigError && /--workers/.test(e.message),
        bad,
      );
    }
  });
});

describe('--signing-key-max-age <duration> (GATEHOUSE_SIGNING_KEY_MAX_AGE)', () => {
  it('is off by default and reads a length in milliseconds', () => {
    assert.equal(loadConfig({}, {}).signingKeyMaxAgeMs, null);
    assert.equal(loadConfig({ signingKeyMaxAgeMs: '30d' }, {}).signingKeyMaxAgeMs, 30 * 86_400_000);
    assert.equal(loadConfig({}, { GATEHOUSE_SIGNING_KEY_MAX_AGE: '90s' }).signingKeyMaxAgeMs, 90_000);
  });

  it('refuses anything else, naming the option', () => {
    for (const bad of ['0s', '30', 'soon', '-1d', '1.5h']) {
      assert.throws(
        () => loadConfig({ signingKeyMaxAgeMs: bad }, {}),
        (e: Error) => e instanceof ConfigError && /--signing-key-max-age/.test(e.message),
        bad,
      );
    }
  });
});

describe('--audit-retention-days and --idempotency-retention-days (docs/events.md "Retention")', () => {
  it('are 400 and 30 days by default', () => {
    const cfg = loadConfig({}, {});
    assert.equal(cfg.auditRetentionDays, 400);
    assert.equal(cfg.idempotencyRetentionDays, 30);
  });

  it('take a number of days from the flag or its env twin, the flag winning', () => {
    assert.equal(loadConfig({ auditRetentionDays: '90' }, {}).auditRetentionDays, 90);
    assert.equal(loadConfig({}, { GATEHOUSE_AUDIT_RETENTION_DAYS: '800' }).auditRetentionDays, 800);
    assert.equal(loadConfig({ auditRetentionDays: '7' }, { GATEHOUSE_AUDIT_RETENTION_DAYS: '800' }).auditRetentionDays, 7);
    assert.equal(loadConfig({ idempotencyRetentionDays: '2' }, {}).idempotencyRetentionDays, 2);
    assert.equal(loadConfig({}, { GATEHOUSE_IDEMPOTENCY_RETENTION_DAYS: '60' }).idempotencyRetentionDays, 60);
    assert.equal(loadConfig({ idempotencyRetentionDays: '3' }, { GATEHOUSE_IDEMPOTENCY_RETENTION_DAYS: '60' }).idempotencyRetentionDays, 3);
  });

  it('refuse anything but a whole number of days, naming the option', () => {
    for (const [key, flag] of [
      ['auditRetentionDays', '--audit-retention-days'],
      ['idempotencyRetentionDays', '--idempotency-retention-days'],
    ] as const) {
      for (const bad of ['soon', '-1', '1.5', '30d', '']) {
        assert.throws(
          () => loadConfig({ [key]: bad }, {}),
          (e: Error) => e instanceof ConfigError && e.message.includes(flag),
          `${flag} ${bad}`,
        );
      }
    }
  });
});
