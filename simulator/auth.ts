import type { RouteContext } from '#simulator/http';
import { graphErrors } from '#simulator/graph-error';

/** The token from `Authorization: Bearer|OAuth <token>`, else from the `access_token` query parameter. */
export function accessTokenOf(ctx: RouteContext): string | undefined {
  const header = ctx.headers.authorization;
  if (typeof header === 'string' && header.trim()) {
    const match = /^(?:Bearer|OAuth)\s+(\S+)\s*$/i.exec(header.trim());
    return match?.[1];
  }
  return ctx.url.searchParams.get('access_token') ?? undefined;
}

/** Throws Graph's error 190 unless the request carries one of the accepted tokens. */
export function requireAccessToken(ctx: RouteContext, accepted: ReadonlySet<string>): void {
  const token = accessTokenOf(ctx);
  if (!token || !accepted.has(token)) throw graphErrors.invalidAccessToken();
}
