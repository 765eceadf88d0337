import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseControlMessage } from '../../src/listen/receiver.js';

test('a suggested segment with text no database can store is dropped, the others kept', () => {
  const message = parseControlMessage(
    JSON.stringify({
      type: 'suggested_transcript',
      segments: [
        { text: 'fine words', start: 0, end: 1 },
        { text: 'nul\u0000here', start: 1, end: 2 },
        { text: 'half \ud800 pair', start: 2, end: 3 },
      ],
    }),
  );
  assert.equal(message.type, 'suggested_transcript');
  assert.deepEqual(message.type === 'suggested_transcript' ? message.segments.map((s) => s.text) : [], ['fine words']);
});

test('a speaker assignment naming a person with a NUL is ignored', () => {
  const base = { type: 'speaker_assigned', speaker_id: 1, segment_ids: ['s1'] };
  assert.equal(parseControlMessage(JSON.stringify({ ...base, person_id: 'p\u0000' })).type, 'ignored');
  assert.equal(parseControlMessage(JSON.stringify({ ...base, person_id: 'p', person_name: '\udc00' })).type, 'ignored');
  assert.equal(
    parseControlMessage(JSON.stringify({ ...base, person_id: 'p', person_name: 'Bob' })).type,
    'speaker_assigned',
  );
});
