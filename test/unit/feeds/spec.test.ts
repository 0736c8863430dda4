import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedSpecError, parseFeedSpecs } from '../../../src/platform/feed-spec.js';

test('feed specs: every kind, comma-separated, with stable names', () => {
  const specs = parseFeedSpecs('tcp://ais.example.org:5631, tcp-listen://0.0.0.0:10110,udp://:10111,file:/data/houston.nmea.gz?pace=x10,-');
  assert.deepEqual(specs, [
    { kind: 'tcp-client', name: 'tcp:ais.example.org:5631', host: 'ais.example.org', port: 5631 },
    { kind: 'tcp-server', name: 'tcp-listen:0.0.0.0:10110', host: '0.0.0.0', port: 10110 },
    { kind: 'udp', name: 'udp:0.0.0.0:10111', host: '0.0.0.0', port: 10111 },
    { kind: 'file', name: 'file:houston.nmea.gz', path: '/data/houston.nmea.gz', pace: { kind: 'recorded', speed: 10 } },
    { kind: 'stdin', name: 'stdin' },
  ]);
  assert.deepEqual(parseFeedSpecs('file:rec.nmea?pace=recorded')[0], { kind: 'file', name: 'file:rec.nmea', path: 'rec.nmea', pace: { kind: 'recorded', speed: 1 } });
  assert.deepEqual(parseFeedSpecs('file:///abs/a.log')[0], { kind: 'file', name: 'file:a.log', path: '/abs/a.log', pace: { kind: 'fast' } });
  assert.deepEqual(parseFeedSpecs(['./b.nmea', 'stdin'])[0], { kind: 'file', name: 'file:b.nmea', path: './b.nmea', pace: { kind: 'fast' } });
  assert.deepEqual(parseFeedSpecs('tcp://[::1]:2000')[0], { kind: 'tcp-client', name: 'tcp:::1:2000', host: '::1', port: 2000 });
  assert.deepEqual(parseFeedSpecs('demo'), [{ kind: 'demo', name: 'demo-simulator' }]);
  assert.deepEqual(parseFeedSpecs('none'), []);
  assert.deepEqual(parseFeedSpecs(' '), []);
});

test('feed specs: bad specs are refused with a message naming the spec and the fix', () => {
  const cases: [string, RegExp][] = [
    ['tcp://host', /"tcp:\/\/host": expected host:port/],
    ['tcp://:5631', /a TCP client needs a host/],
    ['tcp://h:0', /port 0 is out of range/],
    ['udp://h:70000', /port 70000 is out of range/],
    ['tcp:h:1', /expected tcp:\/\/host:port/],
    ['http://x:1', /unknown scheme "http:"/],
    ['file:a.nmea?pace=slow', /pace must be recorded, fast or xN/],
    ['file:a.nmea?pace=x0', /pace must be/],
    ['file:a.nmea?loop=1', /unknown option "loop"/],
    ['file:', /missing file path/],
    ['none,demo', /"none" cannot be combined/],
    ['file:a/x.nmea,file:b/x.nmea', /"file:x.nmea" is given twice/],
  ];
  for (const [spec, message] of cases)
    assert.throws(
      () => parseFeedSpecs(spec),
      (e: Error) => e instanceof FeedSpecError && message.test(e.message),
      spec,
    );
});

test('BOSUN_FEEDS is validated with the rest of the configuration: a bad spec stops the start with a clear message', async () => {
  const { ConfigError, loadConfig } = await import('../../../src/platform/config.js');
  assert.throws(
    () => loadConfig({ BOSUN_FEEDS: 'tcp://receiver' }),
    (e: unknown) => e instanceof ConfigError && /BOSUN_FEEDS: invalid feed "tcp:\/\/receiver": expected host:port/.test(e.message),
  );
  assert.equal(loadConfig({ BOSUN_FEEDS: 'tcp://192.168.1.20:10110,file:x.nmea?pace=x10' }).feeds, 'tcp://192.168.1.20:10110,file:x.nmea?pace=x10');
  assert.equal(loadConfig({}).feeds, null);
});
