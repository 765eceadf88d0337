#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test under tsx (Node 20's --test has no glob support).
// Extra arguments narrow the run: `npm test -- test/store` runs only files under that path.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...collect(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = collect('test')
  .map((f) => relative('.', f))
  .filter((f) => filters.length === 0 || filters.some((p) => f.startsWith(p.replace(/^\.\//, ''))))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Test suites isolate themselves in fresh PostgreSQL schemas named t_…; drop the previous run's
// before any test starts (dropping them while other files run races with catalog introspection).
if (process.env.TEST_DATABASE_URL) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  const { rows } = await client.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\\_%'");
  for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  await client.end();
}

const result = spawnSync(
  process.execPath,
  [
    ...['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=600000'],
    ...['--test-reporter=spec', '--test-reporter-destination=stdout'],
    ...[
      `--test-reporter=${new URL('./slowest-reporter.mjs', import.meta.url).href}`,
      '--test-reporter-destination=stdout',
    ],
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
