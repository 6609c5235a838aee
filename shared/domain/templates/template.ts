/** A template as the service keeps it (synced from the platform), and its pure rules. */
export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED'] as const;
export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;

export interface Template {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  content: string;
  /** Number of distinct `{{n}}` placeholders in `content`. */
  placeholder_count: number;
}

export const publicTemplate = ({ id, name, language, category, status, content }: Template) => ({ id, name, language, category, status, content });

export function countPlaceholders(content: string): number {
  return new Set([...content.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((match) => match[1])).size;
}
