// `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) and prints
// their figures. Each benchmark measures its own baseline in the same run and reports ratios.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface BenchModule {
  run(): Promise<{ name: string; lines: string[] }>;
}

const dir = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

let failed = false;
for (const file of files) {
  const started = Date.now();
  try {
    const mod = (await import(join(dir, file))) as BenchModule;
    const result = await mod.run();
    console.log(`\n## ${result.name} (${file}, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    for (const line of result.lines) console.log(`  ${line}`);
  } catch (err) {
    failed = true;
    console.error(`\n## ${file} failed: ${err instanceof Error ? err.stack : String(err)}`);
  }
}
process.exit(failed ? 1 : 0);
