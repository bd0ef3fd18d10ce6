/**
 * `npm run lint` keeps services out of each other's code and web features out of each other (eslint.config.js):
 * fixtures linted as if they sat in the repository.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
// The fixtures are in no tsconfig project: lint them without type information (the boundaries need none).
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [{
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  }],
});

async function boundaryErrors(file: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { thing } from '${from}';\nexport const used = thing;\n`, { filePath: `${root}${file}` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('architecture boundaries in the lint', () => {
  it('refuses a service importing another service, by package or by path', async () => {
    for (const from of ['@puente/identity', '@puente/identity/testing', '../../identity/src/app.ts', '../../../audit/src/domain/attempts.ts']) {
      expect([from, await boundaryErrors('services/accounts/src/fixture.ts', from)])
        .toEqual([from, [`'${from}' import is restricted from being used by a pattern. A service must not import another service's code: use its events or its HTTP API (tests: infra/).`]]);
    }
  });

  it('lets a service import its own code, the packages and libraries', async () => {
    for (const from of ['./domain/bank-account.ts', '../domain/bank-account.ts', '@puente/contracts', '@puente/platform', 'zod']) {
      expect([from, await boundaryErrors('services/accounts/src/routes/fixture.ts', from)]).toEqual([from, []]);
    }
  });

  it('refuses a web feature importing another feature, and allows the shared folders', async () => {
    expect(await boundaryErrors('web/src/features/auth/components/fixture.tsx', '../../signup/api/request-signup.ts')).toHaveLength(1);
    for (const from of ['../../../lib/api-client.ts', '../api/login.ts', '../../../components/ui/toast.tsx']) {
      expect([from, await boundaryErrors('web/src/features/auth/components/fixture.tsx', from)]).toEqual([from, []]);
    }
  });
});
