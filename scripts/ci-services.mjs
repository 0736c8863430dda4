// CI helper: checks PostgreSQL and Redis, creates and drops the per-run database.
import pg from 'pg';
import { Redis } from 'ioredis';

const [command, name] = process.argv.slice(2);
const host = process.env.PG_HOST ?? '127.0.0.1';
const admin = () => new pg.Client({ host, port: 5432, user: 'postgres', database: 'postgres' });
const validName = (n) => /^[a-z_][a-z0-9_]{0,62}$/.test(n ?? '');

async function main() {
  if (command === 'check') {
    const client = admin();
    await client.connect();
    const { rows } = await client.query('select version()');
    await client.end();
    const redis = new Redis(process.env.REDIS_URL_CI ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const pong = await redis.ping();
    await redis.quit();
    console.log(`postgres: ${rows[0].version.split(' ').slice(0, 2).join(' ')}; redis: ${pong}`);
    return;
  }
  if (!validName(name)) throw new Error(`invalid database name ${name}`);
  const client = admin();
  await client.connect();
  try {
    if (command === 'create-db') await client.query(`create database "${name}"`);
    else if (command === 'drop-db') await client.query(`drop database if exists "${name}" with (force)`);
    else throw new Error(`unknown command ${command}`);
    console.log(`${command} ${name}`);
  } finally {
    await client.end();
  }
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
