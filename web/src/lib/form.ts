/**
 * Forms: react-hook-form validating with the contracts' zod schemas (the ones the services validate with), so a
 * field shows the first message the server would give for it, word for word (in Spanish, its translation). As before: messages appear on
 * submit; after a submit a field is checked again as it changes (or, with `revalidate: 'onSubmit'`, at the next
 * submit); focus stays where it is.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm, type DefaultValues, type FieldValues, type Path, type Resolver, type ResolverOptions, type ResolverResult,
  type UseFormSetError,
} from 'react-hook-form';
import { ValidationMessages } from '@puente/contracts';
import { serverFieldErrors } from './api-client.ts';
import { fieldText } from './i18n.ts';

/** What a form needs of a schema (any zod schema of @puente/contracts fits): what it parses to. */
export interface Schema<Out> {
  _zod: { output: Out; input: FieldValues };
}

export interface SchemaFormOptions<V extends FieldValues> {
  /** What the schema checks, from the form's values: adds what is not a field (a token from the URL, the currency). */
  toRequest?: (values: V) => FieldValues;
  /** A confirmation field that must equal another (requests carry the password once, the form asks twice). */
  confirm?: { field: Path<V>; equals: Path<V> };
  /** After a submit: check a changed field at once (default) or only at the next submit. */
  revalidate?: 'onChange' | 'onSubmit';
}

/** A resolver from a contract schema: its output is what the form submits (trimmed, normalised). */
export function schemaResolver<V extends FieldValues, Out>(
  schema: Schema<Out>, options: SchemaFormOptions<V> = {},
): Resolver<V, unknown, Out> {
  const resolve = zodResolver(schema);
  return async (values, context, resolverOptions) => {
    const request = options.toRequest ? options.toRequest(values) : values;
    const result = await resolve(request, context, resolverOptions as ResolverOptions<FieldValues>);
    const errors = translated(result.errors);
    const { confirm } = options;
    if (!confirm || values[confirm.field] === values[confirm.equals]) return { ...result, errors } as ResolverResult<V, Out>;
    // Next to the schema's messages, so every message shows at once.
    const mismatch = { type: 'validate', message: fieldText(ValidationMessages.passwordsDontMatch) };
    return { values: {}, errors: { ...errors, [confirm.field]: mismatch } } as ResolverResult<V, Out>;
  };
}

/** Each field's message in the UI's language (the forms' fields are flat: one level). */
function translated(errors: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(errors).map(([field, error]) => {
    const message = (error as { message?: unknown } | undefined)?.message;
    return [field, typeof message === 'string' ? { ...(error as object), message: fieldText(message) } : error];
  }));
}

/** A form over `defaultValues` that validates with `schema` and submits the schema's output. */
export function useSchemaForm<V extends FieldValues, Out>(
  schema: Schema<Out>, defaultValues: V, options: SchemaFormOptions<V> = {},
) {
  return useForm<V, unknown, Out>({
    defaultValues: defaultValues as DefaultValues<V>,
    resolver: schemaResolver(schema, options),
    reValidateMode: options.revalidate ?? 'onChange',
    shouldFocusError: false,
  });
}

/** Marks the fields a 400 names with the server's messages. */
export function showServerFieldErrors<V extends FieldValues>(setError: UseFormSetError<V>, error: unknown): void {
  for (const [field, message] of Object.entries(serverFieldErrors(error))) setError(field as Path<V>, { type: 'server', message: fieldText(message) });
}
