/**
 * The English and Spanish catalogues have the same keys in every namespace (both ways), each plural with the forms
 * its language's plural rules need, and each text the same `{{variables}}`: a key missing in one language would show
 * the other's text, or the raw key. And no component shows words of its own, outside the catalogues.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_TYPE_REFUSED, AcceptRefusal, BankDetailsRefusal, BlockRefusal, DisputeRefusal, PREMIUM_REQUIRED, Routes, SubscriptionRefusal, SupportRefusal, formRefusals,
} from '@puente/contracts';
import { i18n } from '../lib/i18n.ts';
import { en } from './en/index.ts';
import { es } from './es/index.ts';

type Tree = Record<string, unknown>;

/** Every leaf text by its path (`create.title`, `security.points.0`). */
function leaves(tree: unknown, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof tree === 'string') return found.set(prefix, tree);
  for (const [key, value] of Object.entries(tree as Tree)) {
    for (const [path, text] of leaves(value, prefix ? `${prefix}.${key}` : key)) found.set(path, text);
  }
  return found;
}

const pluralSuffix = /_(zero|one|two|few|many|other)$/;
const categories = (locale: string) => new Intl.PluralRules(locale).resolvedOptions().pluralCategories;

/** Keys without plural suffixes, and for each plural key the forms it has. */
function shape(texts: Map<string, string>) {
  const plain = new Set<string>();
  const plurals = new Map<string, Set<string>>();
  for (const path of texts.keys()) {
    const match = pluralSuffix.exec(path);
    if (!match) { plain.add(path); continue; }
    const base = path.slice(0, match.index);
    plurals.set(base, (plurals.get(base) ?? new Set()).add(match[1]!));
  }
  return { plain, plurals };
}

const variables = (text: string) => [...text.matchAll(/{{\s*(\w+)/g)].map((m) => m[1] ?? '').sort();
const missingFrom = (keys: Iterable<string>, other: { has: (key: string) => boolean }) => [...keys].filter((key) => !other.has(key));

// `errors` is one-way: English shows the server's own message, so only Spanish lists the codes (tested below).
const shared = Object.keys(en).filter((ns) => ns !== 'errors') as (keyof typeof en)[];

describe('the English and Spanish catalogues', () => {
  it('have the same namespaces', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(shared)('%s: every key in both, both ways', (ns) => {
    const english = shape(leaves(en[ns]));
    const spanish = shape(leaves(es[ns]));
    expect({ onlyInEnglish: missingFrom(english.plain, spanish.plain), onlyInSpanish: missingFrom(spanish.plain, english.plain) })
      .toEqual({ onlyInEnglish: [], onlyInSpanish: [] });
    expect({ onlyInEnglish: missingFrom(english.plurals.keys(), spanish.plurals), onlyInSpanish: missingFrom(spanish.plurals.keys(), english.plurals) })
      .toEqual({ onlyInEnglish: [], onlyInSpanish: [] });
  });

  it.each(shared)("%s: each plural has its language's plural forms", (ns) => {
    for (const [catalogue, locale] of [[en, 'en'], [es, 'es']] as const) {
      for (const [base, forms] of shape(leaves(catalogue[ns])).plurals) {
        expect({ key: `${locale}:${ns}:${base}`, forms: [...forms].sort() }).toEqual({ key: `${locale}:${ns}:${base}`, forms: [...categories(locale)].sort() });
      }
    }
  });

  it.each(shared)('%s: each text has the same {{variables}} in both', (ns) => {
    const english = leaves(en[ns]);
    const spanish = leaves(es[ns]);
    const expected = new Map<string, string[]>();
    for (const [path, text] of english) expected.set(path.replace(pluralSuffix, ''), variables(text));
    for (const [path, text] of spanish) {
      const base = path.replace(pluralSuffix, '');
      if (expected.has(base)) expect({ key: `${ns}:${path}`, variables: variables(text) }).toEqual({ key: `${ns}:${path}`, variables: expected.get(base) });
    }
    for (const [path, text] of english) {
      const twin = spanish.get(path);
      if (twin !== undefined) expect({ key: `${ns}:${path}`, variables: variables(twin) }).toEqual({ key: `${ns}:${path}`, variables: variables(text) });
    }
  });

  it("translate the server's common error codes into Spanish", () => {
    const codes = [
      'bad_request', 'validation_failed', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'service_unavailable',
      'internal', 'invalid_credentials', 'unverified', 'email_taken', 'invalid_referral_code', 'plan_limit', 'trust_level_too_low',
      'id_verification_required', 'user_blocked', 'rate_unavailable', 'account_gone', 'account_in_exchange', 'bank_account_exists',
      'invalid_totp_code', 'totp_code_reused', 'challenge_expired', 'two_factor_on', 'two_factor_off', 'wrong_password',
    ];
    expect(missingFrom(codes, new Set(Object.keys(es.errors)))).toEqual([]);
    expect(Object.keys(en.errors)).toEqual([]);
  });

  it("translate the codes of the trade-safety refusals (disputes, accepts, blocks, bank details, support, subscription, premium, attachments) into Spanish, as the contracts declare them", () => {
    const codes = [
      ...Object.values(DisputeRefusal), ...Object.values(BankDetailsRefusal), ...Object.values(AcceptRefusal), ...Object.values(BlockRefusal), ...Object.values(SupportRefusal), ...Object.values(SubscriptionRefusal), PREMIUM_REQUIRED,
      ATTACHMENT_TYPE_REFUSED.code, ...Object.values(formRefusals(Routes.exchange.postChatAttachment.multipart)).map((r) => r.code),
      'chat_closed', 'totp_required', 'two_factor_not_started', 'trade_in_progress',
    ];
    expect(missingFrom(codes, new Set(Object.keys(es.errors)))).toEqual([]);
  });

  it('name trust levels in the language of the text that shows them', () => {
    const es = i18n.getFixedT('es');
    expect(es('exchange:requirements.minLevel', { level: 'Silver' })).toBe('Plata o superior');
    expect(es('trust:scales.level.chip', { level: 'Gold', score: 70 })).toBe('Nivel de confianza: Oro · 70/100');
    expect(es('exchange:requirements.needsLevel', { level: 'Gold', yours: 'Bronze' })).toMatch(/^Esta solicitud está abierta a usuarios de nivel Oro o superior; tu nivel de confianza es Bronce\./);
    expect(i18n.getFixedT('en')('exchange:requirements.minLevel', { level: 'Silver' })).toBe('Silver or above');
  });
});

const srcDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every component file: each .tsx under web/src, without tests and the test helpers (testing/). */
function componentFiles(dir = srcDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : componentFiles(path);
    return entry.name.endsWith('.tsx') && !entry.name.includes('.test.') ? [path] : [];
  });
}

/** Props whose text a user reads or hears. */
const SHOWN_PROPS = new Set([
  'aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'aria-placeholder', 'title', 'placeholder', 'label', 'alt',
  'helperText', 'primary', 'secondary', 'subheader', 'description', 'message', 'caption',
]);

/**
 * Words that are the same in every language, so they need no catalogue: the brand, the two currencies' codes.
 * (Texts without letters, such as symbols, separators and figures, pass by themselves.)
 */
const SAME_IN_EVERY_LANGUAGE = /\b(Puente|GBP|CLP)\b/g;

/** A catalogue key handed on to t() later (`label: 'nav.home'`), not words. */
const catalogueKey = /^(\w+:)?\w+(\.\w+)+$/;

const hasWords = (text: string) => /\p{L}/u.test(text.replace(SAME_IN_EVERY_LANGUAGE, '')) && !catalogueKey.test(text);

/** `file:line  "text"` for each JSX text and each literal given to a shown prop that has words in it. */
function literalsIn(name: string, source: string): string[] {
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    found.push(`${name}:${line}  ${JSON.stringify(text.trim().replace(/\s+/g, ' '))}`);
  };
  /** The literal texts of a value: 'x', {'x'}, {`x ${y}`}, {cond ? 'x' : 'y'}, {'x ' + y}, {y ?? 'x'}. */
  const texts = (node: ts.Node | undefined): string[] => {
    if (!node) return [];
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
    if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
    if (ts.isJsxExpression(node) || ts.isParenthesizedExpression(node)) return texts(node.expression);
    if (ts.isConditionalExpression(node)) return [...texts(node.whenTrue), ...texts(node.whenFalse)];
    if (ts.isBinaryExpression(node)) return node.operatorToken.kind === ts.SyntaxKind.PlusToken ? [...texts(node.left), ...texts(node.right)] : texts(node.right);
    return [];
  };
  const shownProp = (name: ts.Node) => SHOWN_PROPS.has(ts.isStringLiteral(name) ? name.text : name.getText(file));
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) report(node, node.text);
    const shown =
      // {'text'} between tags; a prop; a prop inside an object (slotProps, a toast's title and description)
      (ts.isJsxExpression(node) && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) ? texts(node.expression)
        : ts.isJsxAttribute(node) && shownProp(node.name) ? texts(node.initializer)
          : ts.isPropertyAssignment(node) && shownProp(node.name) ? texts(node.initializer) : [];
    for (const text of shown) if (hasWords(text)) report(node, text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('the components', () => {
  it('show no words of their own: each text a user reads or hears comes from the catalogues', () => {
    const files = componentFiles();
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((path) => literalsIn(relative(srcDir, path), readFileSync(path, 'utf8')));
    expect(found, 'words outside the catalogues (file:line, the text)').toEqual([]);
  });

  it('would be caught: text between tags, shown props and toasts; not keys, classes, the brand or symbols', () => {
    const source = [
      '<Box sx={{ p: 2 }} className="card" data-testid="x-card" title="Saved">',
      '  Some words {\'and more\'} <Chip label={done ? \'Done\' : t(\'open\')} aria-label={`Close ${name}`} />',
      '  {toast({ title: \'Copied\', description: \'To \' + who })} <img alt="" /> Puente · GBP {t(\'nav.home\')} {\'£\'}',
      '  <Item label="nav.home" placeholder={value ?? \'Search\'} />',
      '</Box>',
    ].join('\n');
    expect(literalsIn('x.tsx', source)).toEqual([
      'x.tsx:1  "Saved"', 'x.tsx:2  "Some words"', 'x.tsx:2  "and more"', 'x.tsx:2  "Done"', 'x.tsx:2  "Close"',
      'x.tsx:3  "Copied"', 'x.tsx:3  "To"', 'x.tsx:4  "Search"',
    ]);
  });
});
