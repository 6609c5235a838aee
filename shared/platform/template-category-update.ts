/**
 * `template_category_update` (Meta, "template_category_update webhook reference"): for the business
 * account in `entry[].id`, either a completed change (`previous_category` and `new_category`) or a
 * warning of one due in 24 hours (`correct_category`, `category_update_timestamp`, and
 * `new_category` then naming the *current* category). Either way `new_category` is the category
 * the template has now. Languages come as `en-US` here, `en_US` in template lists.
 */
export interface TemplateCategoryUpdate {
  wabaId: string;
  name: string;
  language: string;
  /** The template's category now (a warning's `correct_category` arrives again as the change's `new_category`). */
  category: string;
}

type Json = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

export function readCategoryUpdate(wabaId: string | undefined, value: Json): TemplateCategoryUpdate | undefined {
  const name = str(value.message_template_name);
  const language = str(value.message_template_language);
  const category = str(value.new_category);
  if (!wabaId || !name || !language || !category) return undefined;
  return { wabaId, name, language: language.replace('-', '_'), category: category.toUpperCase() };
}
