/** Form validation with the contracts' zod schemas: the first message of each field, as the server would give it. */
import { messagesByField, type fieldErrors } from '@puente/contracts';

export type FieldErrors = Record<string, string>;

/** What the app needs of a schema (any zod schema from @puente/contracts fits). */
export interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: Parameters<typeof fieldErrors>[0] };
}

export function validate<T>(schema: Schema<T>, values: unknown): { ok: true; data: T } | { ok: false; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(messagesByField(schema, values))) errors[field] = messages[0]!;
  return { ok: false, errors };
}
