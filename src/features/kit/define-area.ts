import type { Area } from './area.js';

/** An area with its needs, services and provisions inferred from its build function. */
export function defineArea<Needs, S extends object, P extends object = object>(area: Area<Needs, S, P>): Area<Needs, S, P> {
  return area;
}
