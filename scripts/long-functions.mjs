// Functions longer than a limit in src/ (issue 25: "no service closure over 300 lines").
//   node scripts/long-functions.mjs [--max 300] [--check]
// Counts the lines a function spans, from its first line to its closing brace; a function nested in a
// longer one is listed only when it is itself over the limit.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { numberOption, typeScriptFiles } from './source-files.mjs';

const args = process.argv.slice(2);
const max = numberOption(args, '--max', 300);
const check = args.includes('--check');

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

const long = [];
for (const file of typeScriptFiles('src')) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) long.push({ file, line: first + 1, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
long.sort((a, b) => b.lines - a.lines);
for (const f of long) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.file}:${f.line}`);
console.log(`${long.length} function(s) over ${max} lines in src/`);
if (check && long.length > 0) process.exit(1);
