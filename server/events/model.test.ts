import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { EVENT_TYPES_DOCUMENTED } from '../../test/helpers/event-types.ts';
import { EVENT_TYPES } from './model.ts';

describe('EVENT_TYPES', () => {
  it('is exactly the documented list, in its order', () => {
    assert.deepEqual([...EVENT_TYPES], EVENT_TYPES_DOCUMENTED);
  });

  it('each has a row in the tables of docs/events.md "Event types", and no other type does', () => {
    const doc = readFileSync(new URL('../../docs/events.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('\n## Event types'), doc.indexOf('\n## Endpoints'));
    const named = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]!));
    assert.deepEqual([...named].sort(), [...EVENT_TYPES_DOCUMENTED].sort());
  });
});
