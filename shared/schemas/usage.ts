import * as v from 'valibot';
import { integerParam } from '#shared/schemas/common';

/** GET /api/v1/usage */
export const usageQuery = v.object({ days: integerParam(1, 90, 30) });
