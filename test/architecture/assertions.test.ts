import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

// A failing `assert.ok(value)` without a message makes Node re-read the call's source to quote it; under
// tsx the location points into transpiled text, and the search stalled a test run at full CPU for
// minutes (session 16). Every truthiness assertion says what it checks instead.

const TEST_ROOT = join(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function bareAssertions(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const callee = node.expression.getText(source);
      if (callee === 'assert.ok' || callee === 'assert') {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${relative(TEST_ROOT, path)}:${line + 1}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('every assert.ok in the tests carries a message', () => {
  const bare = testFiles(TEST_ROOT).flatMap(bareAssertions);
  assert.deepEqual(bare, []);
});
