import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellsOfLines, coefficientOfVariation, componentSizes, meanOfLastK, median, nearestRank, robustZ, slope } from '../../src/features/routes/lanes/lanes-math.js';

test('median, nearest rank, slope and coefficient of variation', () => {
  assert.equal(median([3, 1, 2, 10]), 2.5);
  assert.equal(median([]), null);
  assert.equal(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90), 9);
  assert.equal(slope([1, 2, 4, 7]), 2);
  assert.equal(slope([5]), null);
  assert.equal(coefficientOfVariation([2, 2, 2]), 0);
  assert.equal(coefficientOfVariation([0, 0]), null);
});

test('robustZ: MAD scale, mean absolute deviation fallback, no scale', () => {
  const a = robustZ([1, 2, 3, 4, 100]);
  assert.deepEqual([a.median, a.mad, a.scale], [3, 1, 'mad']);
  assert.equal(a.z[4], 0.6745 * 97);
  const b = robustZ([0, 0, 0, 4]);
  assert.deepEqual([b.median, b.mad, b.scale], [0, 0, 'mean_absolute_deviation']);
  assert.equal(b.z[3], 4 / (1.253314 * 1));
  assert.deepEqual(robustZ([2, 2, 2]).z, [null, null, null]);
});

test('meanOfLastK: forecast, backtest and interval; too short a series', () => {
  const f = meanOfLastK([2, 2, 2, 2, 2, 2], 4)!;
  assert.deepEqual(f, { forecast: 2, mae: 0, rmse: 0, backtestPoints: 2, low: 2, high: 2 });
  const g = meanOfLastK([0, 0, 0, 0, 4, 0], 4)!;
  // t=4: predicted 0, actual 4; t=5: predicted 1, actual 0
  assert.deepEqual([g.forecast, g.mae, g.rmse], [1, 2.5, Math.sqrt(8.5)]);
  assert.equal(g.low, 0);
  assert.equal(meanOfLastK([1, 2, 3, 4, 5], 4), null);
});

test('componentSizes: union of undirected lanes', () => {
  assert.deepEqual(
    componentSizes(
      [1, 2, 3, 4, 5],
      [
        [1, 2],
        [2, 3],
        [4, 5],
      ],
    ),
    [3, 2],
  );
  assert.deepEqual(componentSizes([7], []), [1]);
});

test('cellsOfLines: sampled segments, wrapped longitudes', () => {
  assert.deepEqual(
    [
      ...cellsOfLines(
        [
          [
            [0.5, 0.5],
            [3.5, 0.5],
          ],
        ],
        1,
      ),
    ].sort(),
    ['0,0', '1,0', '2,0', '3,0'],
  );
  // a line across the antimeridian given with unwrapped longitudes lands on both sides
  assert.deepEqual(
    [
      ...cellsOfLines(
        [
          [
            [179.5, 10.5],
            [180.5, 10.5],
          ],
        ],
        1,
      ),
    ].sort(),
    ['-180,10', '179,10'],
  );
});
