import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatehouseError } from '../../errors.ts';
import { httpStatusOf } from '../../rpc/status.ts';
import { isConnectionFailure, isRetryableConflict, postgresError, postgresErrorKind } from './errors.ts';

const pgError = (code: string) => Object.assign(new Error(`postgres ${code}`), { code, severity: 'ERROR' });
const sysError = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

describe('PostgreSQL errors at the store edge', () => {
  const cases: Array<[string, unknown, ReturnType<typeof postgresErrorKind>]> = [
    ['lock_timeout (55P03)', pgError('55P03'), 'busy'],
    ['statement_timeout (57014)', pgError('57014'), 'busy'],
    ['a deadlock still lost after the retries (40P01)', pgError('40P01'), 'busy'],
    ['the server shutting down ended the session (57P01)', pgError('57P01'), 'unavailable'],
    ['the server is starting (57P03)', pgError('57P03'), 'unavailable'],
    ['a connection exception (08006)', pgError('08006'), 'unavailable'],
    ['too many connections (53300)', pgError('53300'), 'unavailable'],
    ['disk full (53100)', pgError('53100'), 'unavailable'],
    ['a read-only server after a failover (25006)', pgError('25006'), 'unavailable'],
    ['the database does not exist (3D000)', pgError('3D000'), 'unavailable'],
    ['connection refused', sysError('ECONNREFUSED'), 'unavailable'],
    ['connection reset', sysError('ECONNRESET'), 'unavailable'],
    ['the driver: connection terminated unexpectedly', new Error('Connection terminated unexpectedly'), 'unavailable'],
    ['the pool: no connection in time', new Error('timeout exceeded when trying to connect'), 'unavailable'],
    ['a unique violation (23505): a bug if it escapes', pgError('23505'), 'other'],
    ['a check violation (23514)', pgError('23514'), 'other'],
    ['not a database error', new TypeError('x is undefined'), null],
  ];
  for (const [what, err, kind] of cases) {
    it(`${what}: ${kind ?? 'not ours'}`, () => {
      assert.equal(postgresErrorKind(err), kind);
      const ours = postgresError(err);
      if (kind === 'busy' || kind === 'unavailable') {
        assert.ok(ours instanceof GatehouseError);
        assert.equal(ours.code, 'service_unavailable');
        assert.equal(httpStatusOf(ours), 503);
        assert.equal(ours.message, kind === 'busy' ? 'Database is busy, try again' : 'Database unavailable');
        assert.equal(ours.headers['retry-after'], '1');
        assert.equal(ours.cause, err, 'the cause stays for the log');
      } else {
        assert.equal(ours, null, 'left to the caller: a 500');
      }
    });
  }

  it('retries only the races the database settles, and knows a lost connection', () => {
    assert.equal(isRetryableConflict(pgError('40001')), true);
    assert.equal(isRetryableConflict(pgError('40P01')), true);
    assert.equal(isRetryableConflict(pgError('23505')), false);
    assert.equal(isConnectionFailure(new Error('Connection terminated unexpectedly')), true);
    assert.equal(isConnectionFailure(pgError('23505')), false);
  });
});
