// The calls in flight and whether they come one at a time: quiet only after 100 ms without two at
// once (what sends a signature to the signature thread or keeps it on the event loop).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callEnded, callStarted, callsInFlight, oneCallAtATime } from './calls-in-flight.ts';

test('one call at a time until two overlap, and again 100 ms after the last overlap', () => {
  const t = -1e9; // long before this process started: what it leaves behind is an overlap long ago
  assert.equal(callsInFlight(), 0);
  callStarted(t);
  assert.equal(oneCallAtATime(t + 1), true, 'one call in flight');
  callStarted(t + 2);
  assert.equal(callsInFlight(), 2);
  assert.equal(oneCallAtATime(t + 3), false, 'two in flight');
  callEnded();
  assert.equal(oneCallAtATime(t + 50), false, 'one left, but two overlapped 48 ms ago: calls are coming in turns');
  assert.equal(oneCallAtATime(t + 102), false);
  assert.equal(oneCallAtATime(t + 103), true, '101 ms after the overlap');
  callEnded();
  assert.equal(callsInFlight(), 0);
  assert.equal(oneCallAtATime(t + 200), true);
});
