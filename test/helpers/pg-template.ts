// The PostgreSQL template of a test run (decision 140): scripts/run-tests.mjs prepares one migrated database,
// test apps start on copies of it (test/helpers/app.ts migratedTestConfig).
import pg from 'pg';
import { loadConfig } from '../../src/platform/config.js';
import { migrateToLatest, openStore } from '../../src/store/db.js';

/** The schema a template database is migrated in (its copies keep it: a function's search_path names it). */
export const TEMPLATE_SCHEMA = 't_template';

/** Runs `work` on a connection of its own (by default to the server's DATABASE_URL, outside any test's database). */
export async function onMaintenanceConnection<T>(work: (client: pg.Client) => Promise<T>, connectionString = process.env.DATABASE_URL): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates `<database of url>_tmpl` and migrates it (dropping first what a killed run left: the template and its
 * copies, `<template>_…`); `dropAll` drops them at the end of the run.
 */
export async function prepareTemplateDatabase(url: string): Promise<{ name: string; dropAll: () => Promise<void> }> {
  const name = `${decodeURIComponent(new URL(url).pathname.slice(1))}_tmpl`.slice(0, 40);
  const dropAll = () =>
    onMaintenanceConnection(async (client) => {
      const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname = $1 or starts_with(datname, $2)', [name, `${name}_`]);
      for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
    }, url);
  await dropAll();
  await onMaintenanceConnection((client) => client.query(`create database "${name}"`), url);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  const store = await openStore(loadConfig({ DATABASE_URL: templateUrl.toString(), BOSUN_PG_SCHEMA: TEMPLATE_SCHEMA, LOG_LEVEL: 'silent' }).database);
  try {
    await migrateToLatest(store);
  } finally {
    await store.close();
  }
  return { name, dropAll };
}
