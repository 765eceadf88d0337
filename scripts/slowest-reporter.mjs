// A node:test reporter beside the spec one: after the run, the test files that took longest, so a
// slow CI run says where its time went (a file's time is the sum of its top-level tests).
import { relative } from 'node:path';

export default async function* slowest(source) {
  const files = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      const file = event.data.file ? relative('.', event.data.file) : event.data.name;
      files.set(file, (files.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  const sorted = [...files].sort((a, b) => b[1] - a[1]);
  const total = sorted.reduce((sum, [, ms]) => sum + ms, 0);
  yield `\nslowest test files (of ${sorted.length}; ${(total / 1000).toFixed(0)} s in all, over 2 at a time):\n`;
  for (const [file, ms] of sorted.slice(0, 15)) yield `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`;
}
