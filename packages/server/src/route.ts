import type { Cairn } from '@cairn/engine';
import type { MaintenanceSource } from './maintenance-source';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a route handler gets: the project, the maintenance seam, and the parsed request. */
export interface RouteContext {
  cairn: Cairn;
  maintenance: MaintenanceSource;
  /** The path's captured groups (the path is URL-decoded before matching). */
  params: string[];
  query: URLSearchParams;
  /** The JSON body of a write (undefined for reads). */
  body: unknown;
}

/** One API route: its handler returns the JSON answer (200) or throws a typed error. */
export interface Route {
  method: Method;
  path: RegExp;
  handle(context: RouteContext): unknown;
}

/** The query as a plain object (last value wins), for a zod schema. */
export function queryObject(query: URLSearchParams): Record<string, string> {
  return Object.fromEntries(query.entries());
}
