import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BOUND_LENGTHS_DAYS, boundLengthFor, firstWeekTouchedBy, visitBoundsOf } from '../../../src/events/visit-bounds.js';
import { WEEK, weekStartOf } from '../../../src/events/voyage-cells.js';
import { DAY, HOUR } from '../../../src/platform/clock.js';
import { prng } from '../../helpers/prng.js';

const T0 = weekStartOf(Date.UTC(2026, 9, 1));

test('a vessel bound holds the calls of every window of its length starting in its week, and is reached by one (decision 165)', () => {
  const rand = prng(0x165);
  for (let round = 0; round < 40; round++) {
    const arrivals = Array.from({ length: 1 + Math.floor(rand() * 40) }, () => T0 + Math.floor(rand() * 70 * DAY));
    // some on week and day bounds, some at the same ms as another's window end
    if (rand() < 0.5) arrivals.push(T0 + 3 * WEEK, T0 + 3 * WEEK + 7 * DAY);
    const rows = visitBoundsOf('v', arrivals, T0);
    const boundOf = (days: number, week: number) => rows.find((r) => r.length_days === days && r.week_start === week)?.bound ?? 0;
    for (const days of BOUND_LENGTHS_DAYS)
      for (let week = T0; week < T0 + 12 * WEEK; week += WEEK) {
        const count = (s: number) => arrivals.filter((a) => a >= s && a < s + days * DAY).length;
        // every start in the week: whole hours, the arrivals and the week's last ms
        const starts = [...Array.from({ length: 7 * 24 }, (_, h) => week + h * HOUR), ...arrivals.filter((a) => a >= week && a < week + WEEK), week + WEEK - 1];
        const most = Math.max(...starts.map(count));
        assert.equal(boundOf(days, week), most, `round ${round}, ${days} days, week ${new Date(week).toISOString()}`);
      }
    assert.ok(rows.every((r) => r.bound > 0 && r.vsl_id === 'v'));
  }
});

test('bounds counted from a later week on are those of all arrivals from that week on', () => {
  const rand = prng(0x166);
  const arrivals = Array.from({ length: 60 }, () => T0 + Math.floor(rand() * 90 * DAY));
  const t = T0 + 50 * DAY + 5 * HOUR;
  const from = firstWeekTouchedBy(t);
  // the first week whose span [week, week + WEEK + 30 days) holds t
  assert.ok(from + WEEK + 30 * DAY > t && from - WEEK + WEEK + 30 * DAY <= t && weekStartOf(from) === from, 'the first week a 30-day bound of that arrival reaches');
  assert.deepEqual(
    visitBoundsOf('v', arrivals, from),
    visitBoundsOf('v', arrivals, T0).filter((r) => r.week_start >= from),
  );
});

test('a window uses the shortest kept length at least its own', () => {
  assert.equal(boundLengthFor(DAY), 7);
  assert.equal(boundLengthFor(7 * DAY), 7);
  assert.equal(boundLengthFor(7 * DAY + 1), 30);
  assert.equal(boundLengthFor(30 * DAY), 30);
  assert.equal(boundLengthFor(30 * DAY + 1), null);
});
