import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

// DESIGN §3 and docs/architecture.md: the direction of imports between the folders of src/.

const SRC = join(import.meta.dirname, '..', '..', 'src');

interface Edge {
  from: string;
  to: string;
  /** true when only types cross (erased at compile time) */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A declaration imports only types when the whole clause, or every named binding, is `type`. */
function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function edgesOf(file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const edges: Edge[] = [];
  for (const node of source.statements) {
    if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
    const specifier = node.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    const target = normalize(join(dirname(file), specifier.text)).replace(/\.js$/, '.ts');
    edges.push({ from: relative(SRC, file), to: relative(SRC, target), typeOnly: isTypeOnly(node) });
  }
  return edges;
}

/** The folder of src/ a file belongs to; a file at the top (context.ts, errors.ts) is its own. */
function area(path: string): string {
  const [first, ...rest] = path.split('/');
  return rest.length === 0 ? first.replace(/\.ts$/, '') : first;
}

const edges = sourceFiles(SRC).flatMap(edgesOf);
const crossing = edges.filter((edge) => area(edge.from) !== area(edge.to));
const describe = (list: Edge[]) => list.map((edge) => `${edge.from} → ${edge.to}${edge.typeOnly ? ' (type)' : ''}`);

test('domain/ imports nothing from http/, routes/ or jobs/', () => {
  const wrong = crossing.filter((e) => area(e.from) === 'domain' && ['http', 'routes', 'jobs'].includes(area(e.to)));
  assert.deepEqual(describe(wrong), []);
});

test('domain/ imports only types from store/ and providers/', () => {
  const wrong = crossing.filter(
    (e) => area(e.from) === 'domain' && ['store', 'providers'].includes(area(e.to)) && !e.typeOnly,
  );
  assert.deepEqual(describe(wrong), []);
});

test('routes/ import nothing from store/, jobs/ or processing/', () => {
  const wrong = crossing.filter(
    (e) => area(e.from) === 'routes' && ['store', 'jobs', 'processing'].includes(area(e.to)),
  );
  assert.deepEqual(describe(wrong), []);
});

test('the folders of src/ import each other without a cycle', () => {
  const graph = new Map<string, Set<string>>();
  for (const edge of crossing) {
    const targets = graph.get(area(edge.from)) ?? new Set<string>();
    targets.add(area(edge.to));
    graph.set(area(edge.from), targets);
  }
  const cycles: string[] = [];
  const visiting: string[] = [];
  const done = new Set<string>();
  const visit = (node: string) => {
    if (done.has(node)) return;
    const at = visiting.indexOf(node);
    if (at !== -1) {
      cycles.push([...visiting.slice(at), node].join(' → '));
      return;
    }
    visiting.push(node);
    for (const next of graph.get(node) ?? []) visit(next);
    visiting.pop();
    done.add(node);
  };
  for (const node of graph.keys()) visit(node);
  assert.deepEqual(cycles, []);
});

test('the scan sees the imports it judges (a guard against a parser that finds nothing)', () => {
  assert.ok(edges.length > 500, String(edges.length));
  assert.ok(
    crossing.some((e) => area(e.from) === 'domain' && area(e.to) === 'store' && e.typeOnly),
    "crossing.some((e) => area(e.from) === 'domain' && area(e.to) === 'store' && e.typeOnly)",
  );
});

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

test('no source file is longer than 300 lines', () => {
  const long = sourceFiles(SRC)
    .map((file) => ({ file: relative(SRC, file), lines: lineCount(readFileSync(file, 'utf8')) }))
    .filter((entry) => entry.lines > 300)
    .map((entry) => `${entry.file}: ${entry.lines}`);
  assert.deepEqual(long, []);
});
