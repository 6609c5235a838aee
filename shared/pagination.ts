/** The `pagination` block of every list (contract §5): offset pages, and a cursor where a list supports one. */
export interface Pagination {
  page: number;
  pageSize: number;
  totalCount: number;
  hasMore: boolean;
  nextCursor?: string | null;
}

export const pagination = (page: number, pageSize: number, totalCount: number): Pagination => ({
  page,
  pageSize,
  totalCount,
  hasMore: page * pageSize < totalCount,
});
