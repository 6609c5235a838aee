import { errors, type ErrorDetail } from '#shared/errors';
import { PlatformError, PlatformUnreachable } from '#shared/platform/graph-client';

/** The platform's error fields, repeated in `details` (contract §2): `code`, `error_subcode`, `message`, `error_user_title`, `error_user_msg`. */
export function platformDetails(error: PlatformError): ErrorDetail[] {
  const fields: [string, string | number | undefined][] = [
    ['code', error.code],
    ['error_subcode', error.subcode],
    ['message', error.explanation.message],
    ['error_user_title', error.title],
    ['error_user_msg', error.explanation.userMessage ?? error.details],
  ];
  return fields.filter(([, value]) => value !== undefined && value !== '').map(([field, value]) => ({ field, message: String(value) }));
}

/** A platform's refusal to `doing` as the domain's 422 `platform_error`, with the platform's fields in `details`. */
export const platformRefusal = (error: PlatformError, doing: string) =>
  errors.platformRefused(`The messaging platform refused to ${doing}: ${error.title} (code ${error.code})`, platformDetails(error));

/**
 * Runs a call to the messaging platform made on the client's behalf (a sync, a connection): its
 * refusal becomes 422 `platform_error` with the platform's fields; a platform fault (5xx) or no
 * answer at all is 502 `platform_error` (contract §2).
 */
export async function onPlatform<T>(doing: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    return platformFailure(error, doing);
  }
}

/** Rethrows a failure of a call made to `doing` as the domain's `platform_error`: 422 for a refusal, 502 for a fault or no answer. */
export function platformFailure(error: unknown, doing: string): never {
  if (error instanceof PlatformError) {
    if (error.httpStatus >= 500)
      throw errors.refused(
        'platform_error',
        `The messaging platform failed when asked to ${doing}: ${error.title} (code ${error.code}); try again later`,
        platformDetails(error),
      );
    throw platformRefusal(error, doing);
  }
  if (error instanceof PlatformUnreachable)
    throw errors.refused('platform_error', `The messaging platform did not answer when asked to ${doing}; try again later`);
  throw error;
}
