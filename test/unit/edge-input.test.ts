import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { boundNumbers, findInvalidText, INT_MAX, INT_MIN, jsonNestsTooDeep, MAX_INPUT_DEPTH } from '../../src/http/edge-input.js';

test('boundNumbers: unbounded integers get the int4 range, unbounded numbers the finite range; explicit bounds win', () => {
  const schema = Type.Object({
    a: Type.Integer(),
    b: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    c: Type.Union([Type.Integer(), Type.Null()]),
    d: Type.Array(Type.Object({ n: Type.Number() })),
    e: Type.Integer({ exclusiveMaximum: 5 }),
  });
  const bounded = boundNumbers(schema) as unknown as { properties: Record<string, Record<string, unknown>> };
  assert.equal(bounded.properties.a!.maximum, INT_MAX);
  assert.equal(bounded.properties.a!.minimum, INT_MIN);
  assert.equal(bounded.properties.b!.maximum, 10);
  assert.equal(bounded.properties.b!.minimum, 1);
  assert.equal((bounded.properties.c!.anyOf as Array<Record<string, unknown>>)[0]!.maximum, INT_MAX);
  assert.equal(bounded.properties.e!.maximum, undefined, 'an exclusive bound counts as a bound');
  assert.equal((schema.properties.a as Record<string, unknown>).maximum, undefined, 'the declared schema is not modified');
  const validate = new Ajv({ coerceTypes: 'array', strict: false }).compile(bounded);
  const base = { a: 1, c: null, d: [], e: 1 };
  assert.equal(validate({ ...base, a: INT_MAX }), true);
  assert.equal(validate({ ...base, a: INT_MAX + 1 }), false);
  assert.equal(validate({ ...base, a: INT_MIN }), true);
  assert.equal(validate({ ...base, a: INT_MIN - 1 }), false);
  assert.equal(validate({ ...base, d: [{ n: '1e400' }] }), false, 'Infinity from a coerced string is refused');
  assert.equal(validate({ ...base, d: [{ n: '1e300' }] }), true);
});

test('findInvalidText: control characters by part, lone surrogates anywhere, the first offending field named', () => {
  assert.equal(findInvalidText({ a: 'ok', b: ['x', 'y\u0000'] }, 'body')?.field, 'body.b.1');
  assert.equal(findInvalidText({ a: 'tab\there\r\n' }, 'body'), null);
  assert.equal(findInvalidText({ a: 'tab\there' }, 'query')?.field, 'query.a');
  assert.equal(findInvalidText({ a: { deep: '\ud83d' } }, 'body')?.field, 'body.a.deep');
  assert.equal(findInvalidText({ a: '\ud83d\udea2' }, 'body'), null, 'a surrogate pair is one valid character');
  assert.equal(findInvalidText({ a: 'x\u007f' }, 'params')?.field, 'params.a');
  assert.equal(findInvalidText(undefined, 'body'), null);
});

test('findInvalidText is iterative: 100,000 levels answer a depth refusal (no stack overflow); within the limit the offending field is named', () => {
  let deep: unknown = 'a\u0000b';
  for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
  assert.deepEqual(findInvalidText(deep, 'body'), { field: 'body', message: `nests objects and arrays deeper than ${MAX_INPUT_DEPTH} levels, which is not accepted` });
  let clean: unknown = 'fine';
  for (let i = 0; i < 100_000; i++) clean = [clean];
  assert.equal(findInvalidText(clean, 'body')?.message.includes('deeper than'), true, 'depth alone is refused, without suspect text');
  let shallow: unknown = 'a\u0000b';
  for (let i = 0; i < MAX_INPUT_DEPTH; i++) shallow = [shallow];
  assert.equal(findInvalidText(shallow, 'body')?.field, 'body' + '.0'.repeat(MAX_INPUT_DEPTH));
  assert.equal(findInvalidText({ a: ['x', { b: 'ok', 'c\u0001': 1 }] }, 'body')?.field, 'body.a.1', 'a property name is refused at its object');
});

test('jsonNestsTooDeep counts brackets outside strings only', () => {
  assert.equal(jsonNestsTooDeep('['.repeat(MAX_INPUT_DEPTH) + ']'.repeat(MAX_INPUT_DEPTH)), false);
  assert.equal(jsonNestsTooDeep('['.repeat(MAX_INPUT_DEPTH + 1) + ']'.repeat(MAX_INPUT_DEPTH + 1)), true);
  assert.equal(jsonNestsTooDeep(JSON.stringify({ text: '['.repeat(1000) + '\\"{{{' })), false, 'brackets inside strings (and escaped quotes) do not count');
  assert.equal(jsonNestsTooDeep('{"a":'.repeat(100_000)), true, 'unterminated input is judged by its depth too');
});
