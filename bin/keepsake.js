#!/usr/bin/env node
// Entry point for `npm start` and `npx keepsake`: runs the compiled dist/ (built by `npm install`'s
// prepare step or `npm run build`). When dist/ is missing or older than a source file — a production
// install without the compiler, or sources edited since the last build — it runs src/ through tsx.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function builtAt() {
  try {
    return statSync(join(root, 'dist', '.built')).mtimeMs;
  } catch {
    return 0;
  }
}

const built = builtAt();
if (built > 0 && built >= newestSource(join(root, 'src'))) {
  await import('../dist/main.js');
} else {
  if (built > 0 && process.stderr.isTTY) {
    console.error('keepsake: src/ changed since the last build; running from source (npm run build to compile)');
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
