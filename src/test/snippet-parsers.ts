/**
 * Reads the peer exports' code snippets with the languages' own parsers, so
 * that tests check what Python and TypeScript see (calls, keyword names,
 * literal values), not what a regular expression guesses.
 */
import { spawnSync } from 'node:child_process';
import ts from 'typescript';

/** A call or `new` in a snippet: the callee's name and its named arguments' literal values. */
export interface SnippetCall {
  name: string;
  args: Record<string, unknown>;
}

/** What a snippet imports and calls. */
export interface SnippetShape {
  /** `module: name` for each imported name. */
  imports: string[];
  calls: SnippetCall[];
}

const PYTHON_READER = `
import ast, json, sys
tree = ast.parse(sys.stdin.read())
def value(node):
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set") and not node.args:
        return []
    if isinstance(node, ast.Set):
        return sorted(ast.literal_eval(node))
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None
imports, calls = [], []
for node in ast.walk(tree):
    if isinstance(node, ast.ImportFrom):
        imports += [node.module + ": " + alias.name for alias in node.names]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        calls.append({"name": node.func.id, "args": {k.arg: value(k.value) for k in node.keywords}})
print(json.dumps({"imports": imports, "calls": calls}))
`;

/** Whether a Python 3 interpreter is on PATH (the Python snippets are checked with its parser). */
export const hasPython = spawnSync('python3', ['--version']).status === 0;

/** Parses a Python snippet with Python's own `ast`; throws on a syntax error. */
export function readPythonSnippet(source: string): SnippetShape {
  const result = spawnSync('python3', ['-c', PYTHON_READER], { input: source, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`not valid Python: ${result.stderr}`);
  return JSON.parse(result.stdout) as SnippetShape;
}

function literal(node: ts.Expression): unknown {
  if (ts.isStringLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isArrayLiteralExpression(node)) return node.elements.map(literal);
  if (ts.isObjectLiteralExpression(node)) return objectLiteral(node);
  return null;
}

function objectLiteral(node: ts.ObjectLiteralExpression): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const property of node.properties) {
    if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name)) {
      fields[property.name.text] = literal(property.initializer);
    } else if (ts.isShorthandPropertyAssignment(property)) {
      fields[property.name.text] = null;
    }
  }
  return fields;
}

/** Parses a TypeScript snippet with the TypeScript compiler; throws on a syntax error. */
export function readTypeScriptSnippet(source: string): SnippetShape {
  const syntax = ts.transpileModule(source, { reportDiagnostics: true }).diagnostics ?? [];
  if (syntax.length > 0) {
    throw new Error(
      `not valid TypeScript: ${ts.flattenDiagnosticMessageText(syntax[0]?.messageText, '\n')}`,
    );
  }
  const file = ts.createSourceFile('snippet.ts', source, ts.ScriptTarget.ES2022, true);
  const shape: SnippetShape = { imports: [], calls: [] };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          shape.imports.push(`${node.moduleSpecifier.text}: ${element.name.text}`);
        }
      }
    }
    if (
      (ts.isCallExpression(node) || ts.isNewExpression(node)) &&
      ts.isIdentifier(node.expression)
    ) {
      const first = node.arguments?.[0];
      shape.calls.push({
        name: node.expression.text,
        args: first && ts.isObjectLiteralExpression(first) ? objectLiteral(first) : {},
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return shape;
}

/** The named arguments of the first call of `name`. */
export function argsOf(shape: SnippetShape, name: string): Record<string, unknown> {
  const call = shape.calls.find((candidate) => candidate.name === name);
  if (!call) throw new Error(`no call of ${name} in the snippet`);
  return call.args;
}
