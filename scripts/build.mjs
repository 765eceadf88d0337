#!/usr/bin/env node
// `npm run build` and npm's `prepare` step: compiles src/ to dist/ once, so `npm start`, the CLI and
// workers start without compiling TypeScript at run time. An install without dev dependencies has no
// compiler: bin/keepsake.js then runs the sources through tsx, as before.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  console.error('keepsake: TypeScript is not installed (production install); the CLI will run from src/ through tsx');
  process.exit(0);
}
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) {
  rmSync(dist, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}
// Assets the compiled server reads beside its modules.
cpSync(join(root, 'src', 'web', 'static'), join(dist, 'web', 'static'), { recursive: true });
if (!existsSync(join(dist, 'main.js'))) {
  console.error('keepsake: the build produced no dist/main.js');
  process.exit(1);
}
writeFileSync(join(dist, '.built'), `${new Date().toISOString()}\n`);
