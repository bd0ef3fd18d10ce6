import { expect, it } from 'vitest';
import { withoutLiterals } from './tracing.ts';

it('masks every quoted literal MikroORM wrote into a statement, escaped quotes included, and keeps the rest', () => {
  expect(withoutLiterals(`insert into "identity"."user" ("email", "first_name", "trust") values ('ana@puente.test', 'O''Brien', 5) returning "id"`))
    .toBe(`insert into "identity"."user" ("email", "first_name", "trust") values ('?', '?', 5) returning "id"`);
  expect(withoutLiterals('select 1')).toBe('select 1');
});
