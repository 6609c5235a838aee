import { errors } from '#shared/errors';
import { PlatformError, PlatformUnreachable } from '#shared/platform/graph-client';

/**
 * Runs a call to the messaging platform made on the client's behalf (a sync, a connection): its
 * refusal becomes the domain's `platform_error` with the platform's code and message, its silence
 * a transient `platform_error` (contract §2).
 */
export async function onPlatform<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PlatformError) {
      throw errors.platformRefused(`The messaging platform refused ${what}: ${error.title} (code ${error.code})`, {
        code: error.code,
        message: error.title,
        ...(error.userMessage && { error_user_msg: error.userMessage }),
      });
    }
    if (error instanceof PlatformUnreachable) throw errors.platformSilent();
    throw error;
  }
}
