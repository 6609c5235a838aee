import type { Operation } from '#shared/service/operation';

/** The memory of a function whose operation names none (lib/service-function.ts), in MB. */
export const DEFAULT_MEMORY_MB = 512;

/** The memory the stack deploys an operation's function with, in MB: read by the CDK stack and the bench's latency model. */
export const memoryMbOf = (operation: Pick<Operation, 'memoryMb'>): number => operation.memoryMb ?? DEFAULT_MEMORY_MB;
