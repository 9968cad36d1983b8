import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run); CHROMIUM_PATH points elsewhere on other machines. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where browser tests leave their screenshots (not committed). */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'screenshots');

/**
 * Whether browser tests can run. Without Chromium a developer's run skips them with a clear line; under CI=true
 * a missing browser is a failure, never a silent skip.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const message = `Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') throw new Error(`${message}: browser tests cannot be skipped in CI`);
  console.warn(`  skipping browser tests: ${message}`);
  return false;
}

export async function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // The machine has no network: without these Chromium keeps trying to reach Google's services.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The two widths every page is audited and photographed at. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 860 },
  phone: { width: 390, height: 844 },
} as const;

/** The rules of API.md §6 a page's structure keeps: what `pageStructure` reports. */
export interface PageStructure {
  readonly h1: number;
  readonly main: number;
  readonly nav: number;
  /** The id (or name) of every visible input, textarea or select without a label. */
  readonly unlabelled: string[];
  readonly lang: string;
}

/** Runs in the page (as a string: the tests' own TypeScript has no DOM types). */
const STRUCTURE_SCRIPT = `(() => {
  const visibleInputs = [...document.querySelectorAll('input, textarea, select')].filter((el) => el.type !== 'hidden');
  return {
    h1: document.querySelectorAll('h1').length,
    main: document.querySelectorAll('main').length,
    nav: document.querySelectorAll('nav').length,
    unlabelled: visibleInputs.filter((el) => !el.labels || el.labels.length === 0).map((el) => el.id || el.name),
    lang: document.documentElement.lang,
  };
})()`;

export const pageStructure = async (page: Page): Promise<PageStructure> =>
  (await page.evaluate(STRUCTURE_SCRIPT)) as PageStructure;

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const AXE_SCRIPT = `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_AA)} } }).then((r) =>
  r.violations.map((v) => v.id + ': ' + v.help + ' — ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`;

/**
 * The axe-core WCAG 2.2 AA violations of the page as it is now, one line each. axe is injected as a script tag:
 * the page's context must bypass its CSP (`browser.newContext({ bypassCSP: true })`).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SOURCE });
  return (await page.evaluate(AXE_SCRIPT)) as string[];
}
