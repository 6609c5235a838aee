import type { JsonResponse, RouteContext } from '#simulator/http';

export interface Route {
  method: string;
  /** Matched against the URL path; named groups become `ctx.params`. */
  path: RegExp;
  /** Graph routes need an accepted access token; the simulator's own (`/health`, `/_simulate/*`) do not. */
  auth: boolean;
  handle(ctx: RouteContext): JsonResponse | Promise<JsonResponse>;
}

/** A Graph path segment for the API version, e.g. `v26.0`. */
export const VERSION = String.raw`v\d+\.\d+`;

export function matchRoute(routes: readonly Route[], method: string, pathname: string): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.path.exec(pathname);
    if (match) return { route, params: { ...match.groups } };
  }
  return undefined;
}

/** The Graph node a path addresses (`/v26.0/123/x` -> `123`), for "Unsupported get request. Object with ID ..." errors. */
export function objectIdOf(pathname: string): string | undefined {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length > 0 && new RegExp(`^${VERSION}$`).test(segments[0])) segments.shift();
  if (!segments[0]) return undefined;
  try {
    return decodeURIComponent(segments[0]);
  } catch {
    return segments[0];
  }
}
