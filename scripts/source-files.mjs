import { readdirSync, statSync } from 'node:fs';
import { posix } from 'node:path';

/** The TypeScript files below `dir`, with /-separated paths relative to the working directory. */
export function typeScriptFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = posix.join(dir, name);
    if (statSync(path).isDirectory()) typeScriptFiles(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The value after `--name` on the command line, or `fallback`. */
export function numberOption(args, name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
}
