// agents/active on SQLite: the grouped read straight from request_telemetry versus the window's rows
// materialised first, on 200,000 rows over 30 days (2,000 agents), CPU time per query, same process.
// Usage: node bench/exchange-community/active-plan.cjs   (from the project root)
const Database = require('better-sqlite3');
const db = new Database(':memory:');
db.exec(`create table request_telemetry (id integer primary key, ts integer not null, agent_id text, status integer, operation_id text);
create index request_telemetry_ts on request_telemetry(ts); create index request_telemetry_agent_ts on request_telemetry(agent_id, ts);`);
const now = Date.UTC(2026, 10, 24);
const insert = db.prepare('insert into request_telemetry (ts, agent_id, status, operation_id) values (?, ?, 200, ?)');
db.transaction(() => {
  for (let i = 0; i < 200000; i++) insert.run(now - Math.floor(Math.random() * 30 * 86400000), 'agt_' + (i % 2000), 'x');
})();
const since = now - 3600000;
const direct = db.prepare(`select agent_id, max(ts) as last_ts, count(*) as requests from request_telemetry where ts >= ? and agent_id is not null group by agent_id order by last_ts desc limit 100`);
const windowFirst = db.prepare(`with recent as materialized (select agent_id, ts from request_telemetry where ts >= ? and agent_id is not null) select agent_id, max(ts) as last_ts, count(*) as requests from recent group by agent_id order by last_ts desc limit 100`);
const plan = (q) => db.prepare('explain query plan ' + q.source).all(since).map((r) => r.detail).join(' | ');
console.log('plan, grouped from the table:', plan(direct));
console.log('plan, window first:          ', plan(windowFirst));
const cpuMs = (q) => {
  const start = process.cpuUsage();
  for (let i = 0; i < 20; i++) q.all(since);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) / 20 / 1000).toFixed(2);
};
for (let round = 0; round < 3; round++) console.log(`round ${round}: grouped from the table ${cpuMs(direct)} ms, window first ${cpuMs(windowFirst)} ms, same rows ${JSON.stringify(direct.all(since)) === JSON.stringify(windowFirst.all(since))}`);
