/** What a code means: its HTTP status, whether retrying can help, and the summary documents and answers show. */
export interface ErrorDefinition {
  status: number;
  retryable: boolean;
  summary: string;
}

export type ErrorDefinitions = Record<string, ErrorDefinition>;

/** The areas' tables as one, refusing a code two areas declare (the later one would silently win). */
export function assembleErrorTables<T extends readonly ErrorDefinitions[]>(...tables: T): UnionToIntersection<T[number]> {
  const all: ErrorDefinitions = {};
  for (const table of tables) {
    for (const [code, definition] of Object.entries(table)) {
      if (code in all) throw new Error(`error code ${code} is declared by two areas`);
      all[code] = definition;
    }
  }
  return all as UnionToIntersection<T[number]>;
}

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;
