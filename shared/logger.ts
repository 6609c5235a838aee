import { Logger } from '@aws-lambda-powertools/logger';
import { env } from '#shared/config';

export const logger = new Logger({ serviceName: env.serviceName });
