import { callsPage } from '#shared/data/call';
import { pagination } from '#shared/pagination';

/** The call log, newest first, with its exact count. */
export async function listCalls(ws: string, page: number, pageSize: number) {
  const { calls, total } = await callsPage(ws, page, pageSize);
  return { calls, pagination: pagination(page, pageSize, total) };
}
